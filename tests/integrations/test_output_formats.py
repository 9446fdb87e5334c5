"""``--format sarif`` and ``--format github`` through the real CLI (click's CliRunner).

SARIF is validated against the official 2.1.0 schema kept in the shared folder next to the
repository (``<repo>/../shared/schemas``), never fetched: CI has the same layout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from scalarlint.checks import BY_CODE
from scalarlint.cli import main
from scalarlint.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    FileError,
    Fix,
    Location,
    Severity,
)
from scalarlint.error_codes import ERROR_CODES
from scalarlint.output import FORMATS
from scalarlint.output.github import escape_data, escape_property, render_github
from scalarlint.output.sarif import sarif_log

import samples  # tests/integrations is on sys.path (pytest's default import mode)

SCHEMA = Path(__file__).resolve().parents[3] / "shared" / "schemas" / "sarif-schema-2.1.0.json"

BAD_RULE = samples.LOOP


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout with one bad rule, one clean file and one file that does not parse."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "bad.py").write_text(BAD_RULE)
    (tmp_path / "pkg" / "clean.py").write_text("def pullback(x, g):\n    return g * x\n")
    (tmp_path / "pkg" / "broken.py").write_text("def pullback(x:\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _validator() -> Any:
    if not SCHEMA.is_file():
        pytest.skip(f"SARIF schema not found at {SCHEMA} (the shared/ folder next to the repository is absent)")
    import jsonschema

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, ["check", *args], catch_exceptions=False)


def test_formats_are_registered() -> None:
    assert {"sarif", "github"} <= set(FORMATS)


def test_sarif_cli_output_is_valid_and_complete(project: Path) -> None:
    result = _run("--format", "sarif", "pkg")
    assert result.exit_code == 2, result.output  # a file could not be checked
    log = json.loads(result.stdout)
    errors = sorted(_validator().iter_errors(log), key=str)
    assert not errors, "\n".join(e.message for e in errors[:5])

    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "scalarlint" and driver["version"] and driver["informationUri"].startswith("https://")
    rules = {r["id"]: r for r in driver["rules"]}
    assert set(rules) == set(BY_CODE) | set(ERROR_CODES)  # every check, not only the ones that fired
    for code, rule in rules.items():
        info = BY_CODE[code].INFO if code in BY_CODE else ERROR_CODES[code]
        assert rule["name"] == info.name
        assert rule["shortDescription"]["text"] == info.summary
        assert rule["help"]["markdown"] == info.doc
        assert rule["fullDescription"]["text"]
        assert rule["helpUri"].endswith(f"/checks/{code.lower()}/")

    results = run["results"]
    assert {r["ruleId"] for r in results} == {"SL001", "SL101", "SL102", "SL104"}
    (syntax,) = [r for r in results if r["ruleId"] == "SL001"]  # the file that does not parse, in place
    assert driver["rules"][syntax["ruleIndex"]]["id"] == "SL001" and syntax["level"] == "error"
    where = syntax["locations"][0]["physicalLocation"]
    assert where["artifactLocation"] == {"uri": "pkg/broken.py", "uriBaseId": "%SRCROOT%"}
    assert where["region"]["startLine"] >= 1 and where["region"]["startColumn"] >= 1
    results = [r for r in results if r["ruleId"] != "SL001"]
    for r in results:
        assert r["level"] == "error"  # inside a loop over data
        assert driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": "pkg/bad.py", "uriBaseId": "%SRCROOT%"}
        assert loc["region"]["startLine"] == (7 if r["ruleId"] == "SL104" else 8)  # the element loop's header
    read = next(r for r in results if r["ruleId"] == "SL101")
    region = read["locations"][0]["physicalLocation"]["region"]
    line = BAD_RULE.splitlines()[7]
    assert line[region["startColumn"] - 1 : region["endColumn"] - 1] == "x[i]"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"

    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert note["level"] == "error" and "syntax" in note["message"]["text"]
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "pkg/broken.py"


def test_sarif_clean_run_is_successful(project: Path) -> None:
    result = _run("--format", "sarif", "pkg/clean.py")
    assert result.exit_code == 0
    log = json.loads(result.stdout)
    assert not list(_validator().iter_errors(log))
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["invocations"][0] == {
        "executionSuccessful": True,
        "toolExecutionNotifications": [],
        "properties": {"filesChecked": 1},
    }


def test_sarif_fixes_and_uris(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fixes become artifactChanges; a file outside the cwd keeps an absolute file URI."""
    monkeypatch.chdir(tmp_path)
    outside = tmp_path.parent / "elsewhere dir" / "rule.py"
    fix = Fix(
        Applicability.UNSAFE,
        "Use a size-1 slice",
        (Edit("i:i+1", Location(3, 7), Location(3, 8)), Edit("", Location(4, 1), Location(4, 1))),
    )
    diags = [
        Diagnostic("SL101", "scalar-getindex", "scalar read", "sub/r.py", Location(3, 5), Location(3, 9), Severity.WARNING, "f", (fix,)),
        Diagnostic("SL102", "scalar-setindex", "scalar write", str(outside), Location(1, 1), Location(1, 5), Severity.ERROR),
    ]
    log = sarif_log(diags, [FileError("<stdin>", "cannot decode")], 2)
    assert not list(_validator().iter_errors(log))
    by_code = {r["ruleId"]: r for r in log["runs"][0]["results"]}
    first, second = by_code["SL101"], by_code["SL102"]
    assert by_code["SL002"]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "%3Cstdin%3E"
    assert first["level"] == "warning"
    (sarif_fix,) = first["fixes"]
    assert sarif_fix["description"]["text"] == "Use a size-1 slice (unsafe)"
    change = sarif_fix["artifactChanges"][0]
    assert change["artifactLocation"] == {"uri": "sub/r.py", "uriBaseId": "%SRCROOT%"}
    assert change["replacements"][0] == {
        "deletedRegion": {"startLine": 3, "startColumn": 7, "endLine": 3, "endColumn": 8},
        "insertedContent": {"text": "i:i+1"},
    }
    uri = second["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri == {"uri": outside.resolve().as_uri()} and "%20" in uri["uri"]
    note = log["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "%3Cstdin%3E"


def test_github_cli_output(project: Path) -> None:
    result = _run("--format", "github", "pkg")
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert lines[0].startswith("::error file=pkg/bad.py,line=7,col=14,endLine=7,endColumn=27,title=SL104 element-iteration::element loop")
    assert lines[1].startswith("::error file=pkg/bad.py,line=8,col=9,endLine=8,endColumn=14,title=SL102 scalar-setindex::")
    assert lines[2].startswith("::error file=pkg/bad.py,line=8,col=25,endLine=8,endColumn=29,title=SL101 scalar-getindex::scalar read `x[i]`")
    assert lines[2].endswith("[rule: abs_pullback]")
    assert lines[3].startswith("::error file=pkg/broken.py,line=1,col=")
    assert ",title=SL001 syntax-error::syntax error: " in lines[3]
    assert len(lines) == 4


def test_github_clean_run_prints_nothing(project: Path) -> None:
    result = _run("--format", "github", "pkg/clean.py")
    assert result.exit_code == 0 and result.stdout == ""


def test_github_warning_and_escaping() -> None:
    d = Diagnostic(
        "SL101", "scalar-getindex", "100% of\r\nthe time: x[i]", "dir,with:odd/f.py",
        Location(2, 3), Location(2, 7), Severity.WARNING,
    )
    (line,) = render_github([d], [], 1, False).splitlines()
    assert line == (
        "::warning file=dir%2Cwith%3Aodd/f.py,line=2,col=3,endLine=2,endColumn=7,"
        "title=SL101 scalar-getindex::100%25 of%0D%0Athe time: x[i]"
    )
    assert escape_data("a:b,c") == "a:b,c"  # only properties escape ':' and ','
    assert escape_property("50%:a,b\n") == "50%25%3Aa%2Cb%0A"
