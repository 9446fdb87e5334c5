"""Whether scalar access is allowed here, and the scopes that change it.

The state lives in a :class:`contextvars.ContextVar`, the Python analogue of
the task-local storage GPUArrays uses for ``@allowscalar``:

* each thread has its own value, and a *new* thread starts from the default
  (scalar access disallowed), whatever the spawning thread had;
* each asyncio task runs in a copy of the context of the code that created it,
  so a task inherits the creator's setting and its own changes never leak
  into other tasks;
* ``with`` blocks restore the previous value on exit, exceptions included,
  so scopes nest.

To carry the setting into a worker thread or executor, run the work in a copy
of the current context::

    ctx = contextvars.copy_context()
    threading.Thread(target=ctx.run, args=(work,)).start()
    executor.submit(contextvars.copy_context().run, work)

Other parts of the runtime (the backend hooks of ``disallow_scalar``) need to
know when the state flips; they register *transition hooks* here instead of
this module importing them, so ``allow_scalar`` stays dependency-free.
"""

from __future__ import annotations

import functools
import threading
from contextvars import ContextVar, Token
from types import TracebackType
from typing import Any, Callable, ClassVar, TypeVar

__all__ = [
    "allow_scalar",
    "scalar_allowed",
    "add_transition_hook",
    "remove_transition_hook",
    "ScalarScope",
]

_F = TypeVar("_F", bound=Callable[..., Any])

_SCALAR_ALLOWED: ContextVar[bool] = ContextVar("scalarlint_scalar_allowed", default=False)

# Code-object flags (stable CPython constants, also in ``inspect``).
_CO_GENERATOR = 0x20
_CO_COROUTINE = 0x80
_CO_ASYNC_GENERATOR = 0x200

# hook(allowed, entering): the new state, and whether a scope is being entered
# (True) or exited (False). Enter and exit events of one thread nest.
TransitionHook = Callable[[bool, bool], None]
_hooks: tuple[TransitionHook, ...] = ()
_hooks_lock = threading.Lock()


def scalar_allowed() -> bool:
    """Return whether scalar access is allowed in the current context."""
    return _SCALAR_ALLOWED.get()


def add_transition_hook(hook: TransitionHook) -> None:
    """Call ``hook(allowed, entering)`` whenever a scope flips the state (any thread)."""
    global _hooks
    with _hooks_lock:
        _hooks = (*_hooks, hook)


def remove_transition_hook(hook: TransitionHook) -> None:
    """Undo :func:`add_transition_hook` (a no-op if ``hook`` is absent)."""
    global _hooks
    with _hooks_lock:
        _hooks = tuple(h for h in _hooks if h is not hook)


def _notify(allowed: bool, entering: bool) -> None:
    for hook in _hooks:
        hook(allowed, entering)


def run_with_scalar_allowed(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run ``func`` with scalar access allowed, without firing transition hooks.

    Used by the strict array around NumPy's own implementation: NumPy's
    internals are "device code" and are not the rule author's scalar access.
    """
    token = _SCALAR_ALLOWED.set(True)
    try:
        return func(*args, **kwargs)
    finally:
        _SCALAR_ALLOWED.reset(token)


class ScalarScope:
    """A scope that sets the scalar-access state; a context manager and decorator.

    One instance may be entered repeatedly and nested within one context (the
    tokens form a stack); as a decorator it creates a fresh scope per call, so
    a decorated function is safe to call from many threads and tasks at once.
    """

    _allowed: ClassVar[bool]

    def __new__(cls, func: Callable[..., Any] | None = None, /, **kwargs: Any) -> Any:
        # Bare `@allow_scalar` (no parentheses) passes the function here.
        scope = super().__new__(cls)
        if func is None:
            return scope
        if not callable(func):
            raise TypeError(f"{cls.__name__}() takes no positional arguments except a function to decorate")
        scope.__init__(**kwargs)
        return scope(func)

    def __init__(self, func: None = None, /) -> None:
        self._tokens: list[tuple[Token[bool], bool]] = []

    def _fresh(self) -> ScalarScope:
        """A new, unentered scope with this one's settings (for decorators)."""
        return type(self)()

    def __enter__(self) -> ScalarScope:
        previous = _SCALAR_ALLOWED.get()
        token = _SCALAR_ALLOWED.set(self._allowed)
        self._tokens.append((token, previous))
        if previous != self._allowed:
            _notify(self._allowed, True)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        token, previous = self._tokens.pop()
        _SCALAR_ALLOWED.reset(token)
        if previous != self._allowed:
            _notify(previous, False)

    def __call__(self, func: _F) -> _F:
        flags = getattr(getattr(func, "__code__", None), "co_flags", 0)
        if flags & (_CO_GENERATOR | _CO_ASYNC_GENERATOR):
            # The scope would cover only the creation of the generator, and a
            # scope that spans `yield`s would leak into the consumer.
            raise TypeError(
                f"{type(self).__name__}() cannot decorate the generator function "
                f"{getattr(func, '__qualname__', func)!r}: use a `with` block "
                "inside it around the code that needs it"
            )
        if flags & _CO_COROUTINE:

            @functools.wraps(func)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                with self._fresh():
                    return await func(*args, **kwargs)

            return async_wrapper  # type: ignore[return-value]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self._fresh():
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class allow_scalar(ScalarScope):  # noqa: N801 - used like a function, as in GPUArrays
    """Allow scalar access to strict (device) arrays inside this scope.

    The Python spelling of GPUArrays' ``@allowscalar``: it declares that the
    single-element access inside is intended (one sync, not one per element).
    Use it as ``with allow_scalar(): ...`` or as a decorator, ``@allow_scalar``
    or ``@allow_scalar()`` (plain and ``async`` functions; not generator
    functions). Scopes nest and restore
    the previous state on exit, also when an exception escapes.

    The state is per thread and per asyncio task (a ``ContextVar``). A new
    thread starts with scalar access *disallowed*; to carry an
    ``allow_scalar`` scope into a worker thread, run the work in a copy of the
    current context: ``threading.Thread(target=contextvars.copy_context().run,
    args=(work,))`` or ``executor.submit(contextvars.copy_context().run, work)``.

    Inside an active ``disallow_scalar()`` policy this also relaxes the
    policy's backend hooks (PyTorch's sync debug mode is process-global, so
    that relaxation is process-global too while the block is open).

    The checker treats code inside ``with allow_scalar():`` as intended and
    does not report it; it does not offer this fix inside loops, because it
    would bless a per-element loop.
    """

    _allowed = True
