"""One count of fixes: the report's ``N fixable``, ``--diff``'s ``Would fix N`` and ``--fix``'s
``Fixed N`` agree, and ``--diff`` says how many unsafe fixes it left out."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from scalarlint.cli import main
from scalarlint.diagnostics import Applicability, Diagnostic, Edit, Fix, Location, Severity
from scalarlint.fix_counts import tally

REPO = Path(__file__).resolve().parents[2]
NORMS = REPO / "examples" / "norm_inf_pullback.py"


def run(args: list[str], cwd: Path) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, ["check", "--no-cache", "--no-color", *args], catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def _number(pattern: str, text: str) -> int:
    found = re.search(pattern, text)
    return int(found.group(1)) if found else 0


def _sample_tree(root: Path) -> Path:
    """The checker's corpus and the example: safe, unsafe and display-only fixes, searches
    whose fix takes the index reads with it, and files without findings."""
    for source in [*sorted((REPO / "tests" / "corpus").glob("*.py")), NORMS]:
        shutil.copy(source, root / source.name)
    return root


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_report_diff_and_fix_count_the_same_fixes(tmp_path: Path, unsafe: bool) -> None:
    root = _sample_tree(tmp_path)
    flag = ["--unsafe-fixes"] if unsafe else []
    _, report, _ = run([*flag, "."], root)
    before = _number(r"Found (\d+) findings", report)
    fixable = _number(r"(\d+) fixable with `--fix`\.", report)
    assert fixable > 0 and before > fixable

    _, _, diff_err = run(["--diff", *flag, "."], root)
    assert _number(r"Would fix (\d+) finding", diff_err) == fixable

    _, fix_out, _ = run(["--fix", *flag, "."], root)
    fixed, remaining = (int(n) for n in re.search(r"Fixed (\d+) findings? \((\d+) remaining\)", fix_out).groups())  # type: ignore[union-attr]
    carried = _number(r"(\d+) more went away with those fixes", fix_out)
    raised = _number(r"The fixes raised (\d+) new finding", fix_out)
    assert fixed == fixable
    assert before - fixed - carried + raised == remaining  # every finding is accounted for

    _, after, _ = run([*flag, "."], root)
    assert _number(r"Found (\d+) findings", after) == remaining


def test_diff_without_unsafe_fixes_says_how_many_it_left_out(tmp_path: Path) -> None:
    (tmp_path / "norms.py").write_text(NORMS.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run(["--diff", "--ignore", "SL106", "norms.py"], tmp_path)
    assert code == 0 and out == ""
    assert err.strip() == "No fixes available (1 fix available with `--unsafe-fixes`)."
    code, out, err = run(["--diff", "--unsafe-fixes", "--ignore", "SL106", "norms.py"], tmp_path)
    assert code == 1 and out.startswith("--- ./norms.py")
    assert err.strip() == "Would fix 1 finding in 1 file (3 more would go away with them)."


def test_diff_with_safe_fixes_adds_the_unsafe_ones_left_out(tmp_path: Path) -> None:
    root = _sample_tree(tmp_path)
    _, report, _ = run(["."], root)
    hidden = _number(r"(\d+) more fixable with `--fix --unsafe-fixes`", report)
    fixable = _number(r"(\d+) fixable with `--fix`\.", report)
    code, _, err = run(["--diff", "."], root)
    assert code == 1 and hidden > 1
    assert err.strip() == f"Would fix {fixable} findings in 2 files ({hidden} more fixes available with `--unsafe-fixes`)."


def _finding(code: str, row: int, fix: Applicability | None = None, rule: str = "r") -> Diagnostic:
    fixes = () if fix is None else (Fix(fix, "fix", (Edit("", Location(row, 1), Location(row, 2)),)),)
    return Diagnostic(code, "name", "message", "f.py", Location(row, 1), Location(row, 2), Severity.ERROR, rule, fixes)


def test_tally_counts_a_finding_fixed_only_when_fewer_of_its_kind_remain() -> None:
    safe, unsafe = Applicability.SAFE, Applicability.UNSAFE
    original = [_finding("SL103", 1, unsafe), _finding("SL101", 2), _finding("SL101", 3, safe), _finding("SL104", 4, safe)]
    # the search was not applied (safe run); one SL101 read went away, the fixable one is left
    # with its fix; the SL104 fix raised an SL107
    remaining = [_finding("SL103", 1, unsafe), _finding("SL101", 2, safe), _finding("SL107", 5)]
    counts = tally(original, remaining, unsafe=False)
    assert [d.code for d in counts.fixed] == ["SL104"]
    assert [d.location.row for d in counts.carried] == [2]  # the one without a fix went away
    assert counts.raised == 1
    assert len(original) - len(counts.fixed) - len(counts.carried) + counts.raised == len(remaining)


def test_tally_counts_unsafe_fixes_only_when_they_may_apply() -> None:
    original = [_finding("SL103", 1, Applicability.UNSAFE), _finding("SL102", 2, Applicability.DISPLAY_ONLY)]
    assert tally(original, [], unsafe=False).fixed == []
    counts = tally(original, [], unsafe=True)
    assert [d.code for d in counts.fixed] == ["SL103"] and [d.code for d in counts.carried] == ["SL102"]
