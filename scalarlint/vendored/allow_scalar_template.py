# scalarlint-vendored: allow_scalar v2
"""``allow_scalar``: declare an intended single-element access to an array.

``scalarlint vendor`` wrote this file so that the project can mark scalar
access without depending on scalarlint. Use it as ``with allow_scalar():``
or as a decorator, ``@allow_scalar`` or ``@allow_scalar()`` (plain and
``async`` functions). Inside the scope:

* where scalarlint is installed, ``scalarlint.runtime.allow_scalar`` runs it:
  the strict array and ``disallow_scalar()`` permit the access;
* otherwise, the sync checks the array libraries offer are relaxed, for a
  library the program has already imported: PyTorch's
  ``torch.cuda.set_sync_debug_mode`` (process-global, and only once CUDA is
  initialized) and CuPy's ``cupyx.allow_synchronize`` (per thread);
* otherwise it does nothing: the code runs as it would without the scope.

``to_host(x)`` copies a whole array to the host once (a NumPy array), so that
a loop can read its elements there instead of syncing once per element:
scalarlint's own ``to_host`` where installed, else CuPy's ``get()``,
PyTorch's ``detach().cpu().numpy()``, and ``numpy.asarray`` for anything
else (a NumPy array is returned as it is). NumPy is imported only then.

Scopes nest, restore the previous state on exit (exceptions included) and
are per thread and per asyncio task (a ``ContextVar``); ``scalar_allowed()``
says whether one is open.

Only the standard library is imported here. scalarlint is imported at the
first scope, where installed; PyTorch and CuPy are never imported, only used
when already in ``sys.modules``. ``scalarlint check`` notes when this copy is
older than the scalarlint running it, or edited; ``scalarlint vendor``
rewrites it. Remove the first line to make the file your own.
"""

from __future__ import annotations

import contextvars
import functools
import importlib
import sys
import threading
import warnings
from types import TracebackType
from typing import Any, Callable

__all__ = ["allow_scalar", "scalar_allowed", "to_host"]

_ALLOWED = contextvars.ContextVar("allow_scalar_vendored", default=False)
_CO_GENERATOR, _CO_COROUTINE, _CO_ASYNC_GENERATOR = 0x20, 0x80, 0x200
_UNRESOLVED = object()
_runtime: Any = _UNRESOLVED  # scalarlint.runtime, or None where not installed


def _scalarlint_runtime() -> Any:
    """scalarlint's runtime, imported on first use; ``None`` without it."""
    global _runtime
    if _runtime is _UNRESOLVED:
        try:  # not an import statement: scalarlint is no dependency here
            runtime = importlib.import_module("scalarlint.runtime")
        except ImportError:
            runtime = None
        _runtime = runtime if hasattr(runtime, "allow_scalar") else None
    return _runtime


def scalar_allowed() -> bool:
    """Whether an ``allow_scalar`` scope is open in the current context."""
    runtime = _scalarlint_runtime()
    if runtime is not None and hasattr(runtime, "scalar_allowed"):
        return bool(runtime.scalar_allowed())
    return _ALLOWED.get()


def to_host(x: Any) -> Any:
    """A host (NumPy) copy of the array ``x``: one transfer, after which its elements
    are read without a device sync each."""
    runtime = _scalarlint_runtime()
    if runtime is not None and hasattr(runtime, "to_host"):
        return runtime.to_host(x)  # scalarlint: ignore[SL105] (the copy asked for)
    library = type(x).__module__.partition(".")[0]
    if library == "numpy":
        return x
    if library == "cupy":
        return x.get()
    if library == "torch":
        return x.detach().cpu().numpy()  # scalarlint: ignore[SL105]
    return importlib.import_module("numpy").asarray(x)


class _TorchSyncDebug:
    """PyTorch's sync debug mode set to "default" while any scope is open.

    The mode is process-global, so the scopes of all threads share one
    reference count; the mode found by the first is restored by the last.
    Without initialized CUDA (a CPU-only build, or no CUDA work yet) the mode
    cannot have been set, and ``torch.cuda`` is not touched.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0
        self._saved: Any = 0
        self._cuda: Any = None

    def acquire(self) -> bool:
        cuda: Any = getattr(sys.modules.get("torch"), "cuda", None)
        if not hasattr(cuda, "set_sync_debug_mode"):
            return False
        try:
            if not cuda.is_initialized():
                return False
            with self._lock:
                if self._count == 0:
                    self._cuda = cuda
                    self._saved = cuda.get_sync_debug_mode()
                    if self._saved != 0:
                        cuda.set_sync_debug_mode(0)
                self._count += 1
        except Exception:  # a broken CUDA setup: nothing to relax
            return False
        return True

    def release(self) -> None:
        with self._lock:
            self._count -= 1
            if self._count or self._saved == 0:
                return
            if self._cuda.get_sync_debug_mode() == 0:  # not changed meanwhile
                self._cuda.set_sync_debug_mode(self._saved)


class _CupyAllowSynchronize:
    """``cupyx.allow_synchronize(True)`` while a scope of this thread is open.

    CuPy's switch is per thread and restores the value it found, so one
    manager per thread is held from the first scope to the last: asyncio
    tasks that interleave scopes in one thread cannot restore a stale value.
    The switch is deprecated since CuPy 10 and warns; the warning is dropped.
    """

    def __init__(self) -> None:
        self._local = threading.local()

    def acquire(self) -> bool:
        switch = getattr(sys.modules.get("cupyx"), "allow_synchronize", None)
        if switch is None:
            return False
        count = getattr(self._local, "count", 0)
        if count == 0:
            manager = switch(True)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                manager.__enter__()
            self._local.manager = manager
        self._local.count = count + 1
        return True

    def release(self) -> None:
        self._local.count -= 1
        if self._local.count == 0:
            manager, self._local.manager = self._local.manager, None
            manager.__exit__(None, None, None)


_BACKENDS = (_TorchSyncDebug(), _CupyAllowSynchronize())


class allow_scalar:  # noqa: N801 - used like a function
    """Allow scalar access to device arrays inside this scope.

    A context manager, and a decorator (``@allow_scalar`` or
    ``@allow_scalar()``) that opens a fresh scope per call; generator
    functions are refused, as a scope across ``yield`` would leak.
    """

    def __new__(cls, func: Callable[..., Any] | None = None) -> Any:
        scope = super().__new__(cls)
        if func is None:
            return scope
        if not callable(func):
            raise TypeError("allow_scalar() takes no arguments but a function")
        return scope(func)  # each call opens a scope of its own

    def __init__(self, func: None = None) -> None:
        # per entry: scalarlint's scope, or (token, backends relaxed)
        self._entries: list[Any] = []

    def __enter__(self) -> allow_scalar:
        runtime = _scalarlint_runtime()
        if runtime is not None:
            inner = runtime.allow_scalar()
            inner.__enter__()
            self._entries.append(inner)
            return self
        relaxed: tuple[Any, ...] = ()
        if not _ALLOWED.get():
            relaxed = tuple(b for b in _BACKENDS if b.acquire())
        self._entries.append((_ALLOWED.set(True), relaxed))
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        entry = self._entries.pop()
        if not isinstance(entry, tuple):
            entry.__exit__(exc_type, exc, tb)
            return
        token, relaxed = entry
        _ALLOWED.reset(token)
        for backend in reversed(relaxed):
            backend.release()

    def __call__(self, func: Callable[..., Any]) -> Any:
        flags = getattr(getattr(func, "__code__", None), "co_flags", 0)
        if flags & (_CO_GENERATOR | _CO_ASYNC_GENERATOR):
            raise TypeError(
                "allow_scalar cannot decorate a generator function: "
                "use `with allow_scalar():` inside it"
            )
        if flags & _CO_COROUTINE:

            @functools.wraps(func)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                with allow_scalar():
                    return await func(*args, **kwargs)

            return async_wrapper

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with allow_scalar():
                return func(*args, **kwargs)

        return wrapper

    def __repr__(self) -> str:
        return "allow_scalar()"
