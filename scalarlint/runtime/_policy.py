"""``disallow_scalar()``: the analogue of Julia's ``CUDA.allowscalar(false)``.

On the strict array, scalar access is already disallowed by default; this
scope makes that explicit (overriding an enclosing ``allow_scalar()``) and,
for real GPU libraries, switches on the sync detector each one offers:

``torch``
    ``torch.cuda.set_sync_debug_mode("error")``: raises on synchronizing CUDA
    calls. It is **process-global**, so the hook keeps a reference count
    (nested and concurrent policies share one setting), saves the mode found
    on first entry and restores it on last exit. It only sees syncs that go
    through PyTorch's own checks (``.item()``, ``.cpu()``, ``nonzero``,
    boolean masks, ``if tensor:``): PyTorch documents it as experimental and
    incomplete (``torch.distributed`` and ``torch.sparse`` are not covered),
    an explicit ``torch.cuda.synchronize()`` is not flagged, nor are syncs in
    custom CUDA extensions or other libraries sharing the device; CPU tensors
    are never checked, and it is armed only when CUDA is available.
``cupy``
    ``cupyx.allow_synchronize(False)`` (deprecated since CuPy 10: it warns on
    entry; the warning is filtered here). It is thread-local and only sees
    the syncs CuPy declares itself, i.e. device-to-host copies through
    ``ndarray.get()`` and ``Device.synchronize()``: host conversions that
    bypass ``get()`` (``int(x)``, ``bool(x)`` fast paths, depending on the
    version), ``Stream.synchronize()``, events, raw runtime copies and syncs
    in other libraries go unseen. Because the flag is thread-local, asyncio
    tasks that interleave scopes in one thread share it.

``torch-cpu``
    Strict CPU tensors (``scalarlint.runtime._torch_strict``): a
    ``torch.overrides.TorchFunctionMode`` pushed on the *thread's* mode stack
    while the policy is open, refusing what ``StrictArray`` refuses. It is
    per thread: threads started inside the policy (a ``DataLoader`` worker,
    an executor) are not covered unless they open their own policy, while the
    autograd engine's CPU work runs on the thread that called ``backward()``
    and is covered. It sees only calls that reach ``__torch_function__``:
    C++ extensions, TorchScript and ``torch.compile``-d graphs, code that
    works on ``tensor.numpy()`` views taken before the policy opened, and
    ``torch.equal``/``torch.allclose`` (Python bools, a sync on a GPU) pass
    unseen.

``jax``
    ``jax.transfer_guard_device_to_host("disallow")`` (``_jax_strict``), JAX's
    own thread-local guard: implicit device-to-host transfers of ``jax.Array``s
    raise JAX's error (not a ``ScalarIndexingError``: record mode does not
    count them); ``jax.device_get`` stays allowed. Element reads and writes
    and iteration are device operations in JAX and pass unseen.

Neither GPU detector sees per-element *launches* (a loop of ``dx[i] = v`` never
syncs, it is just slow): only the strict array and the static checker catch
those. Backend libraries are imported lazily: a hook is used only when its
library is already imported (``sys.modules``) or explicitly requested with
``backends=``; a missing library, a CPU-only build or a library without the
hook makes that hook a no-op.

Inside an active policy, ``allow_scalar()`` relaxes the hooks too (it
restores the mode found on entry while the block is open). For PyTorch this
is process-global: an ``allow_scalar`` block open in any thread relaxes the
check for all threads. The strict array's own check is per context and exact.
"""

from __future__ import annotations

import importlib
import sys
import threading
import warnings
from types import TracebackType
from typing import Any, Callable, ContextManager, Iterable

from ._context import ScalarScope, add_transition_hook, remove_transition_hook

__all__ = ["disallow_scalar", "KNOWN_BACKENDS"]

KNOWN_BACKENDS = ("torch", "torch-cpu", "cupy", "jax")


def _import_if(name: str, explicit: bool) -> Any:
    """Import ``name`` only if it is already imported or explicitly requested."""
    if not explicit and name not in sys.modules:
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


class _TorchSyncDebug:
    """Process-global ``torch.cuda`` sync debug mode, reference counted."""

    name = "torch"

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._active = 0
        self._relaxed = 0
        self._saved: Any = None
        self._cuda: Any = None

    def _find(self, explicit: bool) -> Any:
        torch = _import_if("torch", explicit)
        cuda = getattr(torch, "cuda", None)
        if cuda is None or not hasattr(cuda, "set_sync_debug_mode"):
            return None
        try:
            return cuda if cuda.is_available() else None
        except Exception:  # a broken CUDA setup is "no hook", not a test failure
            return None

    def acquire(self, explicit: bool) -> bool:
        cuda = self._find(explicit)
        if cuda is None:
            return False
        with self._lock:
            if self._active == 0:
                self._cuda = cuda
                self._saved = cuda.get_sync_debug_mode()
                self._relaxed = 0
                add_transition_hook(self._on_transition)
            self._active += 1
            self._apply()
        return True

    def release(self) -> None:
        with self._lock:
            self._active -= 1
            if self._active:
                self._apply()
                return
            remove_transition_hook(self._on_transition)
            self._cuda.set_sync_debug_mode(self._saved)
            self._cuda = None

    def _on_transition(self, allowed: bool, entering: bool) -> None:
        with self._lock:
            if not self._active:
                return
            # Scopes opened before the policy may close during it: clamp at 0.
            self._relaxed = self._relaxed + 1 if allowed else max(self._relaxed - 1, 0)
            self._apply()

    def _apply(self) -> None:
        target = self._saved if self._relaxed else "error"
        if self._cuda.get_sync_debug_mode() != _torch_mode_number(target):
            self._cuda.set_sync_debug_mode(target)


def _torch_mode_number(mode: Any) -> Any:
    return {"default": 0, "warn": 1, "error": 2}.get(mode, mode)


class _LazyStrictModule:
    """A strict mode kept in a module of its own, imported on first use (so
    ``import scalarlint.runtime`` stays light) and only when its library is in use."""

    name = ""
    library = ""  # the package whose arrays the mode watches
    module = ""  # the sibling module that holds the mode: acquire() and release()

    def __init__(self) -> None:
        self._module: Any = None  # imported on first use, for acquire and release alike

    def supported(self, library: Any) -> bool:
        raise NotImplementedError

    def acquire(self, explicit: bool) -> bool:
        if not self.supported(_import_if(self.library, explicit)):
            return False
        if self._module is None:
            self._module = importlib.import_module(f"{__package__}.{self.module}")
        self._module.acquire()
        return True

    def release(self) -> None:
        self._module.release()


class _TorchStrictCpu(_LazyStrictModule):
    """Strict CPU tensors (``_torch_strict``): a per-thread ``TorchFunctionMode``."""

    name, library, module = "torch-cpu", "torch", "_torch_strict"

    def supported(self, torch: Any) -> bool:
        # not PyTorch, or one too old for function modes
        return getattr(torch, "overrides", None) is not None and hasattr(torch.overrides, "TorchFunctionMode")


class _JaxTransferGuard(_LazyStrictModule):
    """JAX's thread-local device-to-host transfer guard (``_jax_strict``)."""

    name, library, module = "jax", "jax", "_jax_strict"

    def supported(self, jax: Any) -> bool:
        return hasattr(jax, "transfer_guard_device_to_host")  # JAX 0.3.16 or newer


class _CupyAllowSynchronize:
    """Thread-local ``cupyx.allow_synchronize``, as a per-thread stack of scopes."""

    name = "cupy"

    def __init__(self) -> None:
        self._local = threading.local()
        self._lock = threading.Lock()
        self._active = 0
        self._function: Callable[[bool], ContextManager[Any]] | None = None

    def _stack(self) -> list[tuple[ContextManager[Any], str]]:
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    def _enter(self, allow: bool, source: str) -> None:
        assert self._function is not None
        manager = self._function(allow)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*allow_synchronize.*")
            manager.__enter__()
        self._stack().append((manager, source))

    def _exit(self, source: str) -> None:
        stack = self._stack()
        for position in range(len(stack) - 1, -1, -1):
            if stack[position][1] == source:
                manager, _ = stack.pop(position)
                manager.__exit__(None, None, None)
                return

    def acquire(self, explicit: bool) -> bool:
        if _import_if("cupy", explicit) is None:
            return False
        cupyx = _import_if("cupyx", True)
        function = getattr(cupyx, "allow_synchronize", None)
        if function is None:
            return False
        with self._lock:
            if self._active == 0:
                self._function = function
                add_transition_hook(self._on_transition)
            self._active += 1
        self._enter(False, "policy")
        return True

    def release(self) -> None:
        self._exit("policy")
        with self._lock:
            self._active -= 1
            if self._active == 0:
                remove_transition_hook(self._on_transition)

    def _on_transition(self, allowed: bool, entering: bool) -> None:
        stack = self._stack()
        if entering and stack:  # only threads inside a policy
            self._enter(allowed, "scope")
        elif not entering and stack and stack[-1][1] == "scope":
            self._exit("scope")


_HOOKS = {
    "torch": _TorchSyncDebug(),
    "torch-cpu": _TorchStrictCpu(),
    "cupy": _CupyAllowSynchronize(),
    "jax": _JaxTransferGuard(),
}


class disallow_scalar(ScalarScope):  # noqa: N801 - used like a function
    """Disallow scalar access in this scope, and arm the GPU libraries' sync checks.

    The analogue of ``CUDA.allowscalar(false)``. A context manager and a
    decorator. ``backends=None`` (default) arms the hook of each known
    library that is already imported; ``backends=("torch",)`` imports and
    arms exactly those; ``backends=()`` arms none (strict arrays only).
    :attr:`hooks` names the hooks armed by the innermost open entry. An
    ``allow_scalar()`` nested inside re-allows scalar access (declared
    intent wins, as ``@allowscalar`` inside ``allowscalar(false)``).

    See the module documentation for what each backend's detector misses.
    """

    _allowed = False

    def __init__(self, func: None = None, /, *, backends: Iterable[str] | None = None) -> None:
        super().__init__()
        self._requested = None if backends is None else tuple(backends)
        for name in self._requested or ():
            if name not in _HOOKS:
                raise ValueError(f"unknown backend {name!r}; known: {', '.join(KNOWN_BACKENDS)}")
        self._armed: list[tuple[str, ...]] = []

    def _fresh(self) -> disallow_scalar:
        return type(self)(backends=self._requested)

    @property
    def hooks(self) -> tuple[str, ...]:
        """Names of the backend hooks armed by the innermost open entry."""
        return self._armed[-1] if self._armed else ()

    def __enter__(self) -> disallow_scalar:
        names = KNOWN_BACKENDS if self._requested is None else self._requested
        explicit = self._requested is not None
        armed: list[str] = []
        recorded = False
        try:
            for name in names:
                if _HOOKS[name].acquire(explicit):
                    armed.append(name)
            self._armed.append(tuple(armed))
            recorded = True
            super().__enter__()
        except BaseException:
            for name in reversed(armed):
                _HOOKS[name].release()
            if recorded:
                self._armed.pop()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            super().__exit__(exc_type, exc, tb)
        finally:
            for name in reversed(self._armed.pop()):
                _HOOKS[name].release()

    def __repr__(self) -> str:
        backends = "" if self._requested is None else f"backends={self._requested!r}"
        return f"disallow_scalar({backends})"
