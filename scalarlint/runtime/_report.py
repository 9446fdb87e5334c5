"""Where a scalar access came from, and what happens to it: raise, or record and go on.

Every strict check (the strict array's and strict PyTorch's) hands its error to
:func:`refuse`. It finds the line of the *caller's* code (the innermost frame
outside scalarlint's runtime and the array libraries: NumPy's operator mixins
and PyTorch's dispatch are plumbing, not the code to fix), names it in the
message, and raises. In record mode (``pytest --scalarlint-record``) a
recorder is installed instead: it is told about the access and the operation
goes on as if it were allowed, so one test run finds every access, not only the
first one.

Host-side helpers of PyTorch itself (``torch.testing``, ``torch.autograd.gradcheck``)
compare or print values on the host on purpose; an access made from inside them
is never refused, so a strict test's own assertions keep working.
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from types import FrameType
from typing import Callable

from ._errors import ScalarIndexingError

__all__ = ["Site", "refuse", "set_recorder", "recorder"]

_RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_LIBRARIES = ("numpy", "torch")
_EXEMPT = (("torch", ("testing" + os.sep, os.path.join("autograd", "gradcheck.py"))),)


@dataclass(frozen=True)
class Site:
    """One scalar access: where (the caller's line, its function) and what."""

    path: str
    line: int
    function: str  # the qualified name of the code object (``Fn.backward``, ``rule.<locals>.pullback``)
    function_line: int  # the first line of that function (its first decorator's)
    operation: str
    code: str | None  # SL101 ... SL106


Recorder = Callable[[Site], None]
_recorder: Recorder | None = None
_lock = threading.Lock()
_prefixes: dict[str, str] = {}


def set_recorder(new: Recorder | None) -> Recorder | None:
    """Install ``new`` (``None``: raise again); returns the previous recorder. Process-wide:
    a record run records every thread."""
    global _recorder
    with _lock:
        previous, _recorder = _recorder, new
    return previous


def recorder() -> Recorder | None:
    """The recorder installed now, if any."""
    return _recorder


def _library_prefix(name: str) -> str | None:
    """The directory of an *imported* library (never imports it)."""
    if name not in _prefixes:
        module = sys.modules.get(name)
        file = getattr(module, "__file__", None)
        if not file:
            return None
        _prefixes[name] = os.path.dirname(os.path.abspath(file)) + os.sep
    return _prefixes[name]


def find_caller(frame: FrameType | None) -> tuple[FrameType | None, bool]:
    """The innermost frame outside the runtime and the array libraries, and whether a
    frame on the way there belongs to a library's host-side helpers (exempt)."""
    libraries = [p for p in map(_library_prefix, _LIBRARIES) if p]
    exempt = [(_library_prefix(name), tails) for name, tails in _EXEMPT]
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(_RUNTIME_DIR):
            frame = frame.f_back
            continue
        library = next((p for p in libraries if filename.startswith(p)), None)
        if library is None:
            return frame, False
        for prefix, tails in exempt:
            if prefix == library and filename[len(prefix):].startswith(tails):
                return frame, True
        frame = frame.f_back
    return None, False


def refuse(error: ScalarIndexingError, frame: FrameType | None = None) -> None:
    """Raise ``error``, naming the caller's line; in record mode record it and return.

    Returns without doing anything when the access comes from a library's own
    host-side helper (``torch.testing.assert_close``): the operation goes on.
    """
    caller, exempt = find_caller(frame if frame is not None else sys._getframe(1))
    if exempt:
        return
    if caller is not None:
        code = caller.f_code
        error.location = (code.co_filename, caller.f_lineno)
        error.args = (f"{error.args[0]}\nAt {code.co_filename}:{caller.f_lineno}.",)
    active = _recorder
    if active is None:
        raise error
    if caller is not None:
        code = caller.f_code
        name = getattr(code, "co_qualname", code.co_name)
        active(Site(code.co_filename, caller.f_lineno, name, code.co_firstlineno, error.operation or "", error.code))
