"""``scalarlint check --watch``: which changes count, a rerun on one change event, and the real
watcher (``watchfiles``) noticing a write."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from cli_samples import BAD_RULE, run_cli  # tests/checker is on sys.path (pytest's default import mode)
from scalarlint import watch as watching
from scalarlint.watch import WatchSession, relevant

MODIFIED = "modified"  # relevant() ignores the kind of change, as watchfiles' Change


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/p/pkg/rule.py", True),
        ("/p/nb.ipynb", True),
        ("/p/scalarlint.toml", True),
        ("/p/.scalarlint.toml", True),
        ("/p/pyproject.toml", True),
        ("/p/sub/.gitignore", True),
        ("/p/README.md", False),
        ("/p/pkg/rule.pyc", False),
        ("/p/pkg/__pycache__/rule.py", False),
        ("/p/.git/index", False),
        ("/p/.venv/lib/site.py", False),
        ("/p/x.egg-info/top.py", False),
    ],
)
def test_only_changes_that_can_change_the_report_count(path: str, expected: bool) -> None:
    assert relevant(MODIFIED, path) is expected


def test_a_session_checks_at_the_start_and_again_only_on_a_relevant_change() -> None:
    codes = iter([1, 0])
    said: list[str] = []
    session = WatchSession(lambda: next(codes), said.append)
    assert session.start() == 1 and session.runs == 1
    assert session.on_changes({(MODIFIED, "/p/notes.md")}) is False and session.runs == 1
    assert session.on_changes({(MODIFIED, "/p/b.py"), (MODIFIED, "/p/a.py")}) is True
    assert session.runs == 2 and session.last == 0
    assert said[-1] == "File change detected (/p/a.py, /p/b.py); checking again."


def test_one_change_event_reruns_the_whole_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rule = tmp_path / "bad.py"
    rule.write_text(BAD_RULE, encoding="utf-8")
    watched: list[list[Path]] = []

    def one_fix(paths: list[Path], stop_event: object) -> object:
        watched.append(paths)
        rule.write_text("x = 1\n", encoding="utf-8")  # the findings are fixed, then the event comes
        yield {(MODIFIED, str(rule))}

    monkeypatch.setattr(watching, "_watchfiles", one_fix)
    code, out, err = run_cli(["check", "--watch", "bad.py"], tmp_path)
    assert watched == [[tmp_path.resolve()]]
    assert "bad.py:10:9: SL102" in out and out.rstrip().endswith("All checks passed! (1 file checked)")
    assert "File change detected (bad.py); checking again." in err and err.index("Watching") < err.index("File change detected")
    assert code == 0  # the last run's


def test_a_configuration_broken_meanwhile_is_reported_and_the_watch_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    config = tmp_path / "scalarlint.toml"

    def break_then_mend(paths: list[Path], stop_event: object) -> object:
        config.write_text("select = [\n", encoding="utf-8")
        yield {(MODIFIED, str(config))}
        config.write_text('select = ["SL101"]\n', encoding="utf-8")
        yield {(MODIFIED, str(config))}

    monkeypatch.setattr(watching, "_watchfiles", break_then_mend)
    code, out, err = run_cli(["check", "--watch", "bad.py"], tmp_path)
    assert "cannot read config" in err and "end of document" in err
    assert code == 1 and out.count("SL102") == 1 and "SL101" in out.split("SL102")[-1]


def test_watch_refuses_what_cannot_be_repeated(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    for extra in (["--add-noqa"], ["--diff"], ["--show-files"], ["-"]):
        code, _, err = run_cli(["check", "--watch", *extra, "bad.py"], tmp_path)
        assert code == 2 and "--watch checks again and again" in err


@pytest.mark.slow
def test_watchfiles_sees_a_write(tmp_path: Path) -> None:
    """The real watcher: a write under the watched folder brings a second run. The waits are
    bounds on how long to look, not assertions on time."""
    pytest.importorskip("watchfiles")
    stop = threading.Event()
    session = WatchSession(lambda: 0, lambda line: None)
    thread = threading.Thread(target=watching.watch, args=([tmp_path], session), kwargs={"stop_event": stop}, daemon=True)
    thread.start()
    try:
        _wait_for(lambda: session.runs >= 1)
        time.sleep(0.5)  # let the watcher start listening before the write
        (tmp_path / "new.py").write_text("x = 1\n", encoding="utf-8")
        (tmp_path / "notes.md").write_text("not Python\n", encoding="utf-8")
        _wait_for(lambda: session.runs >= 2)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert session.runs >= 2 and not thread.is_alive()


def _wait_for(condition: object, bound: float = 30.0) -> None:
    deadline = time.monotonic() + bound
    while not condition() and time.monotonic() < deadline:  # type: ignore[operator]
        time.sleep(0.05)
    assert condition(), "the watcher did not report in time"  # type: ignore[operator]
