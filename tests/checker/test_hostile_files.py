"""Hostile input, the rows the basic CLI tests do not cover: each bad path is reported for
itself (exit 2) and every other file is still checked.

Rows that need privileges a test may not have (an unreadable file or folder when the tests
run as root, who can read anything) are simulated at the system-call boundary, so they run
everywhere; where the real thing is possible it is tested too.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from scalarlint import engine
from scalarlint.config import Config

from cli_samples import run_cli  # tests/checker is on sys.path (pytest's default import mode)
from rule_samples import LOOP_RULE as RULE  # tests/ is on the path through its conftest



def run(args: list[str], cwd: Path) -> tuple[int, str]:
    """Exit code and everything the CLI wrote (reports and errors together)."""
    code, out, err = run_cli(args, cwd)
    return code, out + err


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "good.py").write_text(RULE)
    return tmp_path


def _checked_good(out: str) -> bool:
    return "good.py:8:13: SL102" in out


def test_wrong_coding_cookie(tree: Path) -> None:
    (tree / "liar.py").write_bytes(b"# -*- coding: ascii -*-\nname = 'caf\xc3\xa9'\n")
    code, out = run(["check", "."], tree)
    assert code == 2 and "liar.py:2:12: SL002 cannot decode as ascii" in out and _checked_good(out)


def test_device_file_is_never_opened(tree: Path) -> None:
    (tree / "null.py").symlink_to("/dev/null")
    code, out = run(["check", "."], tree)
    assert code == 2 and "null.py:1:1: SL002 not a regular file" in out and _checked_good(out)


def test_unreadable_file_simulated(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = tree / "secret.py"
    secret.write_text(RULE)
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "secret.py":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    code, out = run(["check", "--jobs", "1", "."], tree)
    assert code == 2 and "secret.py:1:1: SL002 cannot read: Permission denied" in out and _checked_good(out)


def test_unreadable_folder_simulated(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tree / "locked").mkdir()
    (tree / "locked" / "inside.py").write_text(RULE)
    real = os.scandir

    def scandir(path: object = ".") -> object:
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    code, out = run(["check", "."], tree)
    assert code == 2 and "locked:1:1: SL002 cannot read folder: Permission denied" in out and _checked_good(out)
    assert "inside.py" not in out


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root can list any folder (the simulated test above runs)")
def test_unreadable_folder(tree: Path) -> None:
    locked = tree / "locked"
    locked.mkdir()
    (locked / "inside.py").write_text(RULE)
    locked.chmod(0)
    try:
        code, out = run(["check", "."], tree)
    finally:
        locked.chmod(stat.S_IRWXU)
    assert code == 2 and "locked:1:1: SL002 cannot read folder" in out and _checked_good(out)


def test_file_that_vanishes_after_discovery(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tree / "ghost.py").write_text(RULE)
    real = engine.discover

    def discover_then_delete(paths: list[Path], config: Config):  # type: ignore[no-untyped-def]
        found = real(paths, config)
        (tree / "ghost.py").unlink()
        return found

    monkeypatch.setattr(engine, "discover", discover_then_delete)
    result = engine.check_paths([tree], Config(root=str(tree)), jobs=1)
    assert [(Path(e.filename).name, e.message) for e in result.errors] == [("ghost.py", "cannot read: No such file or directory")]
    assert [d.code for d in result.diagnostics] == ["SL104", "SL102", "SL101"]


@pytest.mark.slow
def test_a_file_over_the_time_limit_is_reported_and_the_run_goes_on(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tree / "slow.py").write_text(RULE.replace("rrule_last", "rrule_slow"))
    from scalarlint.analysis.analyzer import FileAnalyzer

    real = FileAnalyzer.run

    def crawl(self: FileAnalyzer, targets):  # type: ignore[no-untyped-def]
        if self.source.path.endswith("slow.py"):
            time.sleep(30)
        return real(self, targets)

    monkeypatch.setattr(FileAnalyzer, "run", crawl)
    started = time.monotonic()
    # 5 s: far more than good.py needs however loaded the machine, far less than slow.py's 30 s
    code, out = run(["check", "--jobs", "1", "--file-time-limit", "5", "."], tree)
    assert time.monotonic() - started < 25
    assert code == 2
    assert "slow.py:1:1: SL003 not checked: the analysis took longer than 5 s (file-time-limit)" in out
    assert _checked_good(out)


@pytest.mark.slow
def test_a_ten_megabyte_file_is_checked(tree: Path) -> None:
    """A generated 10 MB module (about 90,000 helpers) is read, indexed and checked like any
    other file, in bounded time (the per-file limit above turns a file that would take longer
    into a reported error)."""
    block = "def helper_{k}(a, b):\n    total = a + b * {k} - (a // 3)\n    return [total, total + 1, 'padding {k}']\n\n"
    count = 10_000_000 // len(block.format(k=1)) + 1
    body = "".join(block.format(k=k) for k in range(count))
    assert len(body) >= 10_000_000
    (tree / "big.py").write_text(body)
    code, out = run(["check", "--jobs", "1", "."], tree)
    assert code == 1, out
    assert "big.py" not in out and _checked_good(out) and "(2 files checked)" in out
