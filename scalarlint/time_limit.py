"""A time limit per file, so that one pathological file is reported instead of stalling a run.

A generated or hostile file can make parsing or analysis take a very long time. Each file's
first and second pass run under a limit; when it runs out, the file becomes a ``FileError``
and the run goes on. Two mechanisms, because a signal cannot stop C code:

* ``time_limit``: ``SIGALRM`` raises :class:`TimeLimitExceeded` in the Python code of the
  analysis. It works in the main thread of a process (the CLI, every worker process) on
  POSIX; elsewhere (the editor server's checker thread, Windows) there is no limit, and the
  editor server drops stale checks instead. The parsers (``ast.parse`` and libcst's native
  parser) run under ``parser_running``: the alarm waits until they return, since an
  exception raised inside CPython's parser left it in a broken state (``SystemError: AST
  constructor recursion depth mismatch``), and they could not be stopped there anyway.
* ``run_ended_at``: a file whose parse alone could outlast the limit (``may_outlast``: more
  than ``IN_PROCESS_BYTES_PER_SECOND`` bytes per second of limit) runs in a child process of
  its own, which is ended when the limit runs out, even in the middle of a parse.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_SECONDS = 60.0
# Source a file may have per second of limit and still run where only the alarm can stop it:
# libcst's parser, the slower one, reads over 1 MB/s, so such a file's parse takes at most a
# tenth of the limit and the limit holds to within that.
IN_PROCESS_BYTES_PER_SECOND = 100_000


class TimeLimitExceeded(BaseException):
    """The file took longer than the limit. A ``BaseException``, like ``KeyboardInterrupt``, so
    that the broad ``except Exception`` around a parser cannot swallow it."""


def _supported() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _message(seconds: float) -> str:
    return f"took longer than {seconds:g} s"


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeLimitExceeded` in the block after ``seconds`` (``None`` or 0: no limit)."""
    if not seconds or seconds <= 0 or not _supported():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitExceeded(_message(seconds))

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def parser_running() -> Iterator[None]:
    """Hold ``SIGALRM`` back while a parser runs: an alarm that falls due meanwhile is raised
    when the block ends, in Python code. A no-op where the alarm is not used."""
    if not hasattr(signal, "pthread_sigmask") or not _supported():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def may_outlast(size: int, seconds: float | None) -> bool:
    """Whether a file of ``size`` bytes could spend longer than ``seconds`` in a parser, where
    the alarm cannot stop it (then ``run_ended_at`` runs it)."""
    return bool(seconds) and seconds > 0 and size > seconds * IN_PROCESS_BYTES_PER_SECOND  # type: ignore[operator]


def run_ended_at(func: Callable[[T], R], item: T, seconds: float) -> R | TimeLimitExceeded | ChildProcessError:
    """``func(item)`` in a child process that is ended after ``seconds``: the child's result,
    :class:`TimeLimitExceeded` when it was ended, ``ChildProcessError`` when it died without a
    result (killed for memory, a crash)."""
    import multiprocessing  # here: a run with no such file never pays for it

    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else multiprocessing.get_context()
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_send_result, args=(func, item, sender), daemon=True)
    child.start()
    sender.close()
    try:
        if receiver.poll(seconds):
            try:
                return receiver.recv()  # type: ignore[no-any-return]
            except EOFError:
                child.join()
                return ChildProcessError(f"its process ended without a result (exit code {child.exitcode})")
        return TimeLimitExceeded(_message(seconds))
    finally:
        receiver.close()
        if child.is_alive():
            child.kill()
        child.join()


def _send_result(func: Callable[[T], R], item: T, sender: Connection) -> None:
    sender.send(func(item))
    sender.close()
