"""A time limit per file, so that one pathological file is reported instead of stalling a run.

A generated or hostile file can make parsing or analysis take a very long time. Each file's
first and second pass run under ``time_limit``; when it runs out, the file becomes a
``FileError`` and the run goes on. The limit uses ``SIGALRM``, so it works in the main thread
of a process (the CLI, and every worker process) on POSIX; elsewhere (the editor server's
checker thread, Windows) there is no limit, and the editor server drops stale checks instead.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

DEFAULT_SECONDS = 60.0


class TimeLimitExceeded(BaseException):
    """The file took longer than the limit. A ``BaseException``, like ``KeyboardInterrupt``, so
    that the broad ``except Exception`` around a parser cannot swallow it."""


def _supported() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeLimitExceeded` in the block after ``seconds`` (``None`` or 0: no limit)."""
    if not seconds or seconds <= 0 or not _supported():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitExceeded(f"took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
