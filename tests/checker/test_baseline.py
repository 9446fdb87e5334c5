"""``--baseline FILE`` / ``baseline = "FILE"``: only findings the baseline does not hold fail a
run; the first run writes it; ``--update-baseline`` rewrites it; a broken one is an error."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from cli_samples import (  # tests/checker is on sys.path (pytest's default import mode)
    BAD_RULE,
    run_cli,
)
from click.testing import CliRunner
from rule_samples import LOOP_RULE

from scalarlint.cli import main

SCALAR_LINE = "        dx[n - 1] = dy * x[n - 1]"  # BAD_RULE's row 10: SL102 and SL101

EXPECTED = {
    "version": 1,
    "entries": [
        {"path": "pkg/bad.py", "code": "SL101", "line": "dx[n - 1] = dy * x[n - 1]", "count": 1},
        {"path": "pkg/bad.py", "code": "SL102", "line": "dx[n - 1] = dy * x[n - 1]", "count": 1},
        {"path": "pkg/loop.py", "code": "SL101", "line": "dx[i] = x[i] * dy", "count": 1},
        {"path": "pkg/loop.py", "code": "SL102", "line": "dx[i] = x[i] * dy", "count": 1},
        {"path": "pkg/loop.py", "code": "SL104", "line": "for i in range(len(x)):", "count": 1},
    ],
}


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    (tmp_path / "pkg" / "loop.py").write_text(LOOP_RULE, encoding="utf-8")
    return tmp_path


def _baselined(project: Path) -> None:
    code, _, err = run_cli(["check", "--baseline", "baseline.json", "pkg"], project)
    assert code == 0 and "Created baseline baseline.json with 5 findings (5 entries)" in err


def test_the_first_run_writes_the_baseline_sorted_and_versioned(project: Path) -> None:
    code, out, err = run_cli(["check", "--baseline", "baseline.json", "pkg"], project)
    assert code == 0
    assert out.startswith("All checks passed!")
    assert err == "Created baseline baseline.json with 5 findings (5 entries); later runs report only findings not in it.\n"
    text = (project / "baseline.json").read_text(encoding="utf-8")
    assert json.loads(text) == EXPECTED
    assert text == json.dumps(EXPECTED, indent=2) + "\n"


def test_a_later_run_reports_only_what_the_baseline_lacks(project: Path) -> None:
    _baselined(project)
    before = (project / "baseline.json").read_bytes()
    code, out, err = run_cli(["check", "--baseline", "baseline.json", "pkg"], project)
    assert (code, err) == (0, "") and out.startswith("All checks passed!")
    assert (project / "baseline.json").read_bytes() == before  # read, not rewritten
    assert run_cli(["check", "pkg"], project)[0] == 1  # the control: the findings are there


def test_a_moved_line_keeps_its_entry(project: Path) -> None:
    _baselined(project)
    bad = project / "pkg" / "bad.py"
    bad.write_text("import os\nimport sys\n\n\n" + BAD_RULE.replace("    n = len(x)\n", "    n = len(x)\n\n\n"), encoding="utf-8")
    # whitespace inside and around the line does not count either
    loop = project / "pkg" / "loop.py"
    loop.write_text(LOOP_RULE.replace("dx[i] = x[i] * dy", "dx[i]  =  x[i] *\tdy   "), encoding="utf-8")
    code, out, _ = run_cli(["check", "--baseline", "baseline.json", "pkg"], project)
    assert code == 0, out
    assert run_cli(["check", "pkg"], project)[0] == 1


def test_a_new_finding_fails_even_on_a_line_like_a_known_one(project: Path) -> None:
    _baselined(project)
    bad = project / "pkg" / "bad.py"
    bad.write_text(BAD_RULE.replace(SCALAR_LINE, SCALAR_LINE + "\n" + SCALAR_LINE), encoding="utf-8")
    code, out, _ = run_cli(["check", "--baseline", "baseline.json", "pkg"], project)
    assert code == 1
    # the key counts one of each: the copy (row 11) is new, the first one is known
    assert [line.split(": ")[0] for line in out.splitlines() if "SL10" in line] == [
        "pkg/bad.py:11:9", "pkg/bad.py:11:26"
    ]
    # an edited line is a new line
    bad.write_text(BAD_RULE.replace("dy * x[n - 1]", "x[n - 1] * dy"), encoding="utf-8")
    code, out, _ = run_cli(["check", "--baseline", "baseline.json", "pkg"], project)
    assert code == 1 and "pkg/bad.py:10:9: SL102" in out and "pkg/bad.py:10:21: SL101" in out
    assert "loop.py" not in out


def test_update_baseline_rewrites_it_the_same_way(project: Path) -> None:
    _baselined(project)
    before = (project / "baseline.json").read_bytes()
    code, _, err = run_cli(["check", "--baseline", "baseline.json", "--update-baseline", "pkg"], project)
    assert code == 0 and err.startswith("Updated baseline baseline.json with 5 findings")
    assert (project / "baseline.json").read_bytes() == before  # stable: same findings, same bytes
    (project / "pkg" / "loop.py").unlink()
    code, _, _ = run_cli(["check", "--baseline", "baseline.json", "--update-baseline", "pkg"], project)
    assert code == 0
    assert json.loads((project / "baseline.json").read_text(encoding="utf-8"))["entries"] == EXPECTED["entries"][:2]


def test_update_from_some_paths_keeps_the_entries_of_the_others(project: Path) -> None:
    _baselined(project)
    (project / "pkg" / "bad.py").write_text(BAD_RULE.replace(SCALAR_LINE + "\n", ""), encoding="utf-8")
    code, _, err = run_cli(["check", "--baseline", "baseline.json", "--update-baseline", "pkg/bad.py"], project)
    assert code == 0
    assert "with 0 findings (3 entries, 3 of them kept from files this run did not check)" in err
    assert json.loads((project / "baseline.json").read_text(encoding="utf-8"))["entries"] == EXPECTED["entries"][2:]
    assert run_cli(["check", "--baseline", "baseline.json", "pkg"], project)[0] == 0


def test_update_baseline_replaces_a_broken_file_and_a_new_one_gets_the_usual_mode(project: Path) -> None:
    (project / "baseline.json").write_text('{"version": 0}', encoding="utf-8")
    code, _, _ = run_cli(["check", "--baseline", "baseline.json", "--update-baseline", "pkg"], project)
    assert code == 0 and json.loads((project / "baseline.json").read_text(encoding="utf-8")) == EXPECTED
    (project / "baseline.json").unlink()
    _baselined(project)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((project / "baseline.json").stat().st_mode) == 0o666 & ~umask  # not mkstemp's 0o600


def test_a_baseline_in_a_missing_folder_stops_the_run_before_it_starts(project: Path) -> None:
    code, out, err = run_cli(["check", "--baseline", "ci/baseline.json", "pkg"], project)
    assert code == 2 and out == ""
    assert "Error: cannot write baseline ci/baseline.json: its folder does not exist" in err


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('{"version": 1, "entries": [', "not JSON: Expecting value (at line 1, column 28)"),
        ("[]", 'not a scalarlint baseline (expected {"version": 1, "entries": [...]})'),
        ('{"version": 2, "entries": []}', "version 2 is not one this scalarlint reads (1); write it again with --update-baseline"),
        ('{"version": 1, "entries": {}}', '"entries" must be a list'),
        ('{"version": 1, "entries": [{"path": "a.py", "code": "SL101", "line": "x"}]}', "entry 1: 'count' must be a positive integer"),
        ('{"version": 1, "entries": [{"path": "a.py", "code": 101, "line": "x", "count": 1}]}', "entry 1: 'code' must be a string"),
    ],
)
def test_a_broken_baseline_is_an_error_with_its_path_and_reason(project: Path, content: str, reason: str) -> None:
    (project / "baseline.json").write_text(content, encoding="utf-8")
    code, out, err = run_cli(["check", "--baseline", "baseline.json", "pkg"], project)
    assert code == 2 and out == ""
    assert f"Error: cannot use baseline baseline.json: {reason}\n" in err
    assert (project / "baseline.json").read_text(encoding="utf-8") == content  # never overwritten


def test_the_baseline_setting_is_relative_to_its_configuration(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.scalarlint]\nbaseline = "ci/baseline.json"\n', encoding="utf-8")
    (project / "ci").mkdir()
    code, _, err = run_cli(["check", "pkg"], project)
    assert code == 0 and "Created baseline" in err
    entries = json.loads((project / "ci" / "baseline.json").read_text(encoding="utf-8"))["entries"]
    assert {e["path"] for e in entries} == {"../pkg/bad.py", "../pkg/loop.py"}  # relative to the baseline's folder
    # run from another folder, the same file is found and its paths still match
    code, out, err = run_cli(["check", "."], project / "pkg")
    assert (code, err) == (0, ""), out
    (project / "pkg" / "bad.py").write_text(BAD_RULE + "\n\n" + BAD_RULE.split("\n\n\n", 1)[1].replace("rrule_last", "rrule_again"), encoding="utf-8")
    code, out, _ = run_cli(["check", "."], project / "pkg")
    assert code == 1 and out.count("rrule_again") == 2 and "rule: rrule_last" not in out


def test_a_wrong_baseline_setting_is_named_with_its_line(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.scalarlint]\nselect = ["SL1"]\nbaseline = 3\n', encoding="utf-8")
    code, _, err = run_cli(["check", "pkg"], project)
    assert code == 2 and f"{project / 'pyproject.toml'}:3: baseline must be a file path string" in err


def test_update_baseline_needs_a_baseline_and_add_noqa_refuses_one(project: Path) -> None:
    code, _, err = run_cli(["check", "--update-baseline", "pkg"], project)
    assert code == 2 and "--update-baseline needs a baseline" in err
    code, _, err = run_cli(["check", "--add-noqa", "--baseline", "baseline.json", "pkg"], project)
    assert code == 2 and "--add-noqa marks every finding: not with --baseline" in err
    assert not (project / "baseline.json").exists() and (project / "pkg" / "bad.py").read_text(encoding="utf-8") == BAD_RULE


def test_fix_reports_only_what_remains_beyond_the_baseline(project: Path) -> None:
    _baselined(project)
    code, out, _ = run_cli(["check", "--fix", "--baseline", "baseline.json", "pkg"], project)
    assert code == 0, out  # bad.py was fixed; loop.py's findings (no safe fix) are in the baseline
    assert "Fixed 2 findings (0 remaining)." in out
    assert "dx[n - 1:n]" in (project / "pkg" / "bad.py").read_text(encoding="utf-8")
    assert run_cli(["check", "--baseline", "baseline.json", "--fix", "--no-fix", "pkg"], project)[0] == 0


def test_standard_input_is_keyed_by_its_own_text(project: Path) -> None:
    _baselined(project)
    moved = ("import os\n\n" + BAD_RULE).encode()
    old = os.getcwd()
    os.chdir(project)
    try:
        result = CliRunner().invoke(main, ["check", "--baseline", "baseline.json", "--stdin-filename", "pkg/bad.py"], input=moved)
        edited = CliRunner().invoke(
            main, ["check", "--baseline", "baseline.json", "--stdin-filename", "pkg/bad.py"], input=moved.replace(b"dy * x", b"2 * dy * x")
        )
    finally:
        os.chdir(old)
    assert result.exit_code == 0, result.output
    assert edited.exit_code == 1 and "pkg/bad.py:12:9: SL102" in edited.output


def test_a_notebook_finding_is_keyed_by_its_cell_line(project: Path) -> None:
    nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extra")
    rule = BAD_RULE.split("\n", 3)[3]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("from array_api_compat import array_namespace"), nbformat.v4.new_code_cell(rule)]
    nbformat.write(nb, str(project / "pkg" / "last.ipynb"))
    code, _, err = run_cli(["check", "--baseline", "baseline.json", "pkg"], project)
    assert code == 0 and "with 7 findings" in err
    entries = json.loads((project / "baseline.json").read_text(encoding="utf-8"))["entries"]
    assert {"path": "pkg/last.ipynb", "code": "SL102", "line": "dx[n - 1] = dy * x[n - 1]", "count": 1} in entries
    # a cell added in front moves the finding to another cell: still known
    nb.cells.insert(0, nbformat.v4.new_markdown_cell("# notes"))
    nb.cells.insert(1, nbformat.v4.new_code_cell("import numpy as np\nx = np.ones(3)"))
    nbformat.write(nb, str(project / "pkg" / "last.ipynb"))
    code, out, _ = run_cli(["check", "--baseline", "baseline.json", "pkg"], project)
    assert code == 0, out
    assert run_cli(["check", "pkg"], project)[0] == 1
