"""Strict JAX: ``disallow_scalar()`` arms JAX's own device-to-host transfer guard.

JAX offers the check itself: ``jax.transfer_guard_device_to_host("disallow")`` makes every
*implicit* device-to-host transfer of a ``jax.Array`` raise (``float(x)``, ``x.item()``,
``np.asarray(x)``, ``bool(x)`` in an ``if``, printing the values), while ``jax.device_get``
(an explicit transfer) stays allowed. The guard is a thread-local JAX configuration set by
a context manager, so the policy enters it per thread and ``allow_scalar()`` enters
``"allow"`` on top of it while its block is open, as the CuPy hook does.

What it cannot see is written down in ``docs/runtime.md`` ("What each backend's mode
misses"): element reads and writes (``x[i]``, ``x.at[i].set``) and iteration are device
operations in JAX, not transfers, and a refused transfer is JAX's own error, not a
``ScalarIndexingError``, so record mode does not count it. This module imports JAX; the
policy imports it only when JAX is already imported or asked for.
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager
from typing import Any

import jax

from ._context import add_transition_hook, remove_transition_hook

__all__ = ["acquire", "release"]

_local = threading.local()
_lock = threading.Lock()
_active = 0


def _stack() -> list[tuple[AbstractContextManager[Any], str]]:
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def _enter(level: str, source: str) -> None:
    guard = jax.transfer_guard_device_to_host(level)
    guard.__enter__()
    _stack().append((guard, source))


def _exit(source: str) -> None:
    stack = _stack()
    for position in range(len(stack) - 1, -1, -1):
        if stack[position][1] == source:
            guard, _ = stack.pop(position)
            guard.__exit__(None, None, None)
            return


def _on_transition(allowed: bool, entering: bool) -> None:
    """``allow_scalar()`` inside a policy in this thread: allow transfers until it closes."""
    stack = _stack()
    if entering and stack:  # only threads inside a policy
        _enter("allow" if allowed else "disallow", "scope")
    elif not entering and stack and stack[-1][1] == "scope":
        _exit("scope")


def acquire() -> None:
    """Disallow implicit device-to-host transfers in this thread until :func:`release`."""
    global _active
    with _lock:
        if _active == 0:
            add_transition_hook(_on_transition)
        _active += 1
    _enter("disallow", "policy")


def release() -> None:
    """Undo this thread's latest :func:`acquire`."""
    global _active
    _exit("policy")
    with _lock:
        _active -= 1
        if _active == 0:
            remove_transition_hook(_on_transition)
