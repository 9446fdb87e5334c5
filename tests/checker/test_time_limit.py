"""The per-file time limit holds where a signal cannot (issue 26, defect 10).

CPython's and libcst's parsers are C and Rust: ``SIGALRM`` waits until they return, so a
10 MB file took 11 s under ``--file-time-limit 1``, and an alarm that did fire inside
``ast.parse`` broke it (``SystemError: AST constructor recursion depth mismatch``). A parse
here is modelled by what makes it unstoppable, the alarm held back while it runs, so the tests
do not depend on how fast the machine parses.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import scalarlint.analysis.syntax_versions as syntax_versions
from scalarlint import engine, file_passes
from scalarlint.config import Config
from scalarlint.time_limit import (
    IN_PROCESS_BYTES_PER_SECOND,
    TimeLimitExceeded,
    may_outlast,
    parser_running,
    run_ended_at,
    time_limit,
)

from rule_samples import LOOP_RULE as RULE  # tests/ is on the path through its conftest

STUCK_SECONDS = 40  # how long a modelled parse holds the alarm back: past every bound asserted
LIMIT = 2.0


def _stuck_in_a_parser(seconds: float = STUCK_SECONDS) -> None:
    """What a long parse is to the alarm: it cannot fire until the parse returns."""
    with parser_running():
        time.sleep(seconds)


def _large_rule(marker: str) -> str:
    """A rule padded past what may run where only the alarm holds the limit."""
    padding = f"# {marker}\n" + "# padding\n" * (int(LIMIT * IN_PROCESS_BYTES_PER_SECOND) // 10 + 1)
    text = RULE + padding
    assert may_outlast(len(text.encode()), LIMIT)
    return text


def _stall_when(marker: str, real: Callable[..., object]) -> Callable[..., object]:
    def parse(text: str, *args: object, **kwargs: object) -> object:
        if marker in text:
            _stuck_in_a_parser()
        return real(text, *args, **kwargs)

    return parse


@pytest.mark.slow
@pytest.mark.parametrize(
    "stalled, message",
    [
        ("first pass", "reading it took longer than 2 s"),
        ("second pass", "the analysis took longer than 2 s"),
    ],
)
def test_a_parse_that_outlasts_the_limit_is_ended(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stalled: str, message: str) -> None:
    (tmp_path / "good.py").write_text(RULE)
    (tmp_path / "huge.py").write_text(_large_rule("stall here"))
    if stalled == "first pass":
        monkeypatch.setattr(file_passes, "ast_parse", _stall_when("stall here", file_passes.ast_parse))
    else:
        monkeypatch.setattr(syntax_versions, "parse_module", _stall_when("stall here", syntax_versions.parse_module))
    started = time.monotonic()
    result = engine.check_paths([tmp_path], Config(root=str(tmp_path), file_time_limit=LIMIT), jobs=1)
    assert time.monotonic() - started < STUCK_SECONDS / 2  # the alarm alone waited the whole parse
    assert [(Path(e.filename).name, e.message) for e in result.errors] == [("huge.py", f"not checked: {message} (file-time-limit)")]
    assert {Path(d.filename).name for d in result.diagnostics} == {"good.py"}


def test_the_alarm_waits_for_a_parser_and_fires_after_it() -> None:
    """An alarm that falls due inside a parser is raised when the parser returns, never in it."""
    started = time.monotonic()
    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.05):
            _stuck_in_a_parser(0.3)
            time.sleep(5)
    assert 0.3 <= time.monotonic() - started < 5


def test_an_alarm_never_fires_inside_ast_parse() -> None:
    """The flake: an alarm raised inside CPython's parser broke it (``SystemError``). With the
    alarm due many times over during parses, only ``TimeLimitExceeded`` comes out, outside."""
    text = "x = [" + ", ".join(f"({k}, 'a{k}')" for k in range(20_000)) + "]\n"
    for _ in range(5):
        with pytest.raises(TimeLimitExceeded):
            with time_limit(0.001):
                while True:
                    syntax_versions.ast_parse(text)


def _sleep_then(value: str) -> str:
    time.sleep(float(value))
    return value


def test_a_child_is_ended_at_the_limit_and_gives_its_result_within_it() -> None:
    assert run_ended_at(_sleep_then, "0", 10) == "0"
    started = time.monotonic()
    found = run_ended_at(_sleep_then, "60", 0.5)
    assert isinstance(found, TimeLimitExceeded) and str(found) == "took longer than 0.5 s"
    assert time.monotonic() - started < 10


def test_a_child_that_dies_is_reported() -> None:
    found = run_ended_at(signal.raise_signal, signal.SIGKILL, 30)
    assert isinstance(found, ChildProcessError) and "without a result" in str(found)
