"""ruff's names and fix flags: ``--output-format`` (``--format`` kept), ``--fix-only``,
``--exit-non-zero-on-fix``, ``--no-fix``."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_samples import (  # tests/checker is on sys.path (pytest's default import mode)
    BAD_RULE,
    run_cli,
)

# BAD_RULE's line 10 once its two safe fixes (size-1 views) are in
FIXED_LINE = "        dx[n - 1:n] = dy * x[n - 1:n]\n"


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_output_format_and_format_give_the_same_report(project: Path, fmt: str) -> None:
    new = run_cli(["check", "--output-format", fmt, "bad.py"], project)
    old = run_cli(["check", "--format", fmt, "bad.py"], project)
    assert new == old
    assert new[0] == 1 and "SL102" in new[1]


def test_fix_only_fixes_and_reports_nothing_else(project: Path) -> None:
    code, out, err = run_cli(["check", "--fix-only", "bad.py"], project)
    assert code == 0
    assert out == "Fixed 2 findings.\n" and err == ""
    assert FIXED_LINE in (project / "bad.py").read_text(encoding="utf-8")


def test_fix_only_exits_1_on_a_fix_with_exit_non_zero_on_fix(project: Path) -> None:
    code, out, _ = run_cli(["check", "--fix-only", "--exit-non-zero-on-fix", "bad.py"], project)
    assert code == 1 and out == "Fixed 2 findings.\n"
    # nothing left to fix: the file is not rewritten, and the exit is 0
    code, out, _ = run_cli(["check", "--fix-only", "--exit-non-zero-on-fix", "bad.py"], project)
    assert code == 0 and out == "Fixed 0 findings.\n"


def test_fix_with_exit_non_zero_on_fix_fails_even_when_nothing_remains(project: Path) -> None:
    code, out, _ = run_cli(["check", "--fix", "bad.py"], project)
    assert code == 0 and "Fixed 2 findings (0 remaining)." in out
    (project / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    code, out, _ = run_cli(["check", "--fix", "--exit-non-zero-on-fix", "bad.py"], project)
    assert code == 1 and "Fixed 2 findings (0 remaining)." in out
    code, _, _ = run_cli(["check", "--fix", "--exit-non-zero-on-fix", "bad.py"], project)
    assert code == 0  # a clean file is not rewritten


def test_exit_non_zero_on_fix_alone_changes_nothing(project: Path) -> None:
    assert run_cli(["check", "--exit-non-zero-on-fix", "bad.py"], project) == run_cli(["check", "bad.py"], project)
    assert (project / "bad.py").read_text(encoding="utf-8") == BAD_RULE


def test_no_fix_overrides_an_earlier_fix(project: Path) -> None:
    code, out, _ = run_cli(["check", "--fix", "--no-fix", "bad.py"], project)
    assert code == 1 and "bad.py:10:9: SL102 [*]" in out and "Fixed" not in out
    assert (project / "bad.py").read_text(encoding="utf-8") == BAD_RULE
    # as in ruff, the last of the two wins
    code, out, _ = run_cli(["check", "--no-fix", "--fix", "bad.py"], project)
    assert code == 0 and FIXED_LINE in (project / "bad.py").read_text(encoding="utf-8")
