"""A file that cannot be checked is reported as a diagnostic with a place and a code (SL001
syntax-error, SL002 unreadable-file), in every format, so editors and CI can jump to it; the
other files are still checked and the run exits 2."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rule_samples import BAD_RULE as RULE

from scalarlint.cli import main

SCHEMA = Path(__file__).resolve().parents[3] / "shared" / "schemas" / "sarif-schema-2.1.0.json"
SYNTAX = "syn.py:2:10: SL001 syntax error: '(' was never closed"


def run(args: list[str], cwd: Path, stdin: bytes | None = None) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, ["check", "--no-cache", "--no-color", *args], input=stdin, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    (tmp_path / "rule.py").write_text(RULE, encoding="utf-8")
    (tmp_path / "syn.py").write_text("import numpy as np\ndef rrule(x:\n    return x[0]\n", encoding="utf-8")
    (tmp_path / "latin.py").write_bytes(b"x = 1\nname = 'caf\xe9'\n")
    return tmp_path


def test_text_names_the_place_and_the_code(tree: Path) -> None:
    code, out, _ = run(["."], tree)
    assert code == 2
    lines = out.splitlines()
    assert SYNTAX in lines
    assert "latin.py:2:12: SL002 cannot decode as utf-8: byte 17 (invalid continuation byte)" in lines
    assert "rule.py:10:9: SL102 [*] scalar write to `dx[n - 1]`" in out  # the others are still checked
    assert lines[-1] == "2 files could not be checked."


def test_json_lists_them_among_the_diagnostics(tree: Path) -> None:
    code, out, err = run(["--format", "json", "."], tree)
    assert code == 2
    found = {(Path(d["filename"]).relative_to(tree.resolve()).as_posix(), d["code"]): d for d in json.loads(out)}  # absolute, as ruff's
    syntax = found[("syn.py", "SL001")]
    assert syntax["location"] == {"row": 2, "column": 10} and syntax["end_location"] == {"row": 2, "column": 10}
    assert syntax["name"] == "syntax-error" and syntax["severity"] == "error"
    assert syntax["message"] == "syntax error: '(' was never closed" and syntax["fix"] is None
    assert syntax["noqa_row"] is None and syntax["url"].endswith("/checks/sl001/")
    assert found[("latin.py", "SL002")]["location"] == {"row": 2, "column": 12}
    assert ("rule.py", "SL102") in found
    assert SYNTAX in err.splitlines()  # and named on stderr for a CI log


def _validator() -> Any:
    if not SCHEMA.is_file():
        pytest.skip(f"SARIF schema not found at {SCHEMA}")
    import jsonschema

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def test_sarif_has_a_located_result_under_the_sl001_rule(tree: Path) -> None:
    code, out, _ = run(["--format", "sarif", "."], tree)
    assert code == 2
    log = json.loads(out)
    assert not list(_validator().iter_errors(log))
    run_ = log["runs"][0]
    (result,) = [r for r in run_["results"] if r["ruleId"] == "SL001"]
    assert run_["tool"]["driver"]["rules"][result["ruleIndex"]]["name"] == "syntax-error"
    where = result["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"] == "syn.py"
    assert (where["region"]["startLine"], where["region"]["startColumn"]) == (2, 10)
    assert run_["invocations"][0]["executionSuccessful"] is False


def test_github_annotates_the_line(tree: Path) -> None:
    code, out, _ = run(["--format", "github", "syn.py"], tree)
    assert code == 2
    assert out == "::error file=syn.py,line=2,col=10,endLine=2,endColumn=10,title=SL001 syntax-error::syntax error: '(' was never closed\n"


def test_stdin_and_notebooks_are_located_too(tree: Path) -> None:
    code, out, _ = run(["-", "--stdin-filename", "pkg/x.py"], tree, stdin=b"y = 1\nx = [\n")
    assert code == 2 and "pkg/x.py:2:5: SL001 syntax error: '[' was never closed" in out
    cells = [{"cell_type": "code", "metadata": {}, "source": src, "outputs": [], "execution_count": None} for src in ("import numpy", "def f(:\n    pass")]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tree / "nb.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    code, out, _ = run(["nb.ipynb"], tree)
    assert code == 2 and "nb.ipynb:cell 2:1:7: SL001 syntax error: " in out


def test_a_binary_file_is_located_at_its_first_nul_byte(tmp_path: Path) -> None:
    (tmp_path / "blob.py").write_bytes(b"x = 1\nab\x00c")
    code, out, _ = run(["blob.py"], tmp_path)
    assert code == 2 and "blob.py:2:3: SL002 binary file (contains NUL bytes); not Python source" in out


def test_explain_sl001() -> None:
    result = CliRunner().invoke(main, ["explain", "SL001"])
    assert result.exit_code == 0
    assert result.output.startswith("# SL001 syntax-error\n")
    assert "## Exit code" in result.output and "exits 2" in result.output
    listing = CliRunner().invoke(main, ["explain"]).output
    assert "SL001  syntax-error" in listing and "(always on)" in listing


def test_exit_zero_does_not_hide_an_unparsable_file(tree: Path) -> None:
    code, _, _ = run(["--exit-zero", "syn.py"], tree)
    assert code == 2
