"""What a run reads: ``--stdin-filename`` means stdin (as in ruff), and an empty selection is
said out loud instead of passing silently."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from scalarlint.cli import main

from cli_samples import BAD_RULE  # tests/checker is on sys.path (pytest's default import mode)

NO_PYTHON = "warning: No Python files found under the given path(s)"


def run(args: list[str], cwd: Path, stdin: str | None = None) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """A folder whose only Python file does not parse: checking it instead of stdin shows."""
    (tmp_path / "broken.py").write_text("def f(:\n", encoding="utf-8")
    return tmp_path


def test_stdin_filename_without_a_dash_reads_stdin(folder: Path) -> None:
    code, out, _ = run(["check", "--stdin-filename", "pkg/rule.py"], folder, stdin=BAD_RULE)
    assert code == 1
    assert "pkg/rule.py:10:9: SL102" in out and "pkg/rule.py:10:26: SL101" in out
    assert "broken.py" not in out
    assert "(1 file checked)" in out


def test_stdin_filename_without_a_dash_fixes_stdin(folder: Path) -> None:
    code, out, err = run(["check", "--fix", "--stdin-filename", "rule.py"], folder, stdin=BAD_RULE)
    assert code == 0  # the source from stdin was fixed; the folder was not walked
    assert "dx[n - 1:n] = dy * x[n - 1:n]" in out  # the fixed source goes to stdout
    assert "Fixed 2 findings" in err and "broken.py" not in out + err


def test_stdin_filename_with_paths_checks_stdin_and_says_the_paths_are_ignored(folder: Path) -> None:
    code, out, err = run(["check", "--stdin-filename", "rule.py", "broken.py"], folder, stdin=BAD_RULE)
    assert code == 1 and "rule.py:10:9: SL102" in out and "broken.py" not in out
    assert "warning: ignoring broken.py in favour of standard input (--stdin-filename)" in err


def test_a_folder_without_python_files_warns_and_exits_0(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x[0]\n", encoding="utf-8")
    code, out, err = run(["check", "."], tmp_path)
    assert code == 0
    assert NO_PYTHON in err and NO_PYTHON not in out
    assert "All checks passed! (0 files checked)" in out


def test_fix_on_a_folder_without_python_files_warns_too(tmp_path: Path) -> None:
    code, _, err = run(["check", "--fix", "."], tmp_path)
    assert code == 0 and NO_PYTHON in err


def test_no_warning_when_files_were_found(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("x = 1\n", encoding="utf-8")
    code, _, err = run(["check", "."], tmp_path)
    assert code == 0 and "No Python files" not in err


def test_no_warning_when_every_file_failed(folder: Path) -> None:
    """Files were found (they did not parse): the report says so, not "no files"."""
    code, _, err = run(["check", "."], folder)
    assert code == 2 and "No Python files" not in err
