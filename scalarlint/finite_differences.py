"""``check_rule_fd``: an AD rule's pullback against central finite differences, in float64
on NumPy (re-exported by ``scalarlint.testing``, where users import it from).

Apart from ``check_rule`` because it checks something else (the derivative itself, not how
the rule behaves on device arrays) and needs no backend. Imports NumPy and the runtime only.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .rule_calls import (
    COTANGENT_SEED,
    arg_labels,
    call_rule,
    check_cotangent_tuple,
    default_cotangent,
    difference,
    host_copy,
    map_tree,
    rule_name,
)
from .runtime import StrictArray, to_host


def _replace(args: list[Any], path: tuple[int, ...], value: Any) -> list[Any]:
    """A copy of ``args`` with the leaf at ``path`` replaced (tuples rebuilt)."""

    def put(container: Any, rest: tuple[int, ...]) -> Any:
        if not rest:
            return value
        items = list(container)
        items[rest[0]] = put(items[rest[0]], rest[1:])
        if isinstance(container, list):
            return items
        return type(container)(*items) if hasattr(container, "_fields") else type(container)(items)

    return put(args, path)


def _float_leaves(arg: Any, dx: Any, path: tuple[int, ...]) -> list[tuple[tuple[int, ...], Any, Any]]:
    """(path, value, cotangent) for every real float leaf with a cotangent."""
    if dx is None:
        return []
    if isinstance(arg, (tuple, list)):
        if not isinstance(dx, (tuple, list)) or len(dx) != len(arg):
            raise AssertionError(f"argument {path[0]}: cotangent should be a sequence of {len(arg)}")
        return [leaf for k, (a, d) in enumerate(zip(arg, dx)) for leaf in _float_leaves(a, d, (*path, k))]
    if isinstance(arg, np.ndarray) and arg.dtype.kind == "f":
        return [(path, arg, dx)]
    if isinstance(arg, float):
        return [(path, arg, dx)]
    return []


def _inner(dy: Any, y: Any) -> float:
    """``<dy, y>`` over the float outputs (``None`` cotangents skip an output)."""
    if dy is None:
        return 0.0
    if isinstance(dy, (tuple, list)):
        return sum(_inner(d, v) for d, v in zip(dy, y))
    return float(np.sum(np.asarray(dy, dtype=np.float64) * np.asarray(y, dtype=np.float64)))


def _to_float64(value: Any) -> Any:
    value = host_copy(value)
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return value.astype(np.float64)
    return value


def check_rule_fd(
    rrule: Callable[..., Any],
    *args: Any,
    eps: float = 1e-6,
    rtol: float = 1e-5,
    atol: float = 1e-7,
    **kwargs: Any,
) -> None:
    """Check the pullback of ``rrule`` against central finite differences.

    On NumPy in float64: with a deterministic random cotangent ``dy``, the
    vector-Jacobian product the pullback returns for each differentiable
    real float argument (an array, a Python float, or one inside a tuple or
    list) must match ``(<dy, f(x + eps e_j)> - <dy, f(x - eps e_j)>) / 2 eps``
    for every element ``j`` (two forward passes per element: keep the inputs
    small). Arguments whose cotangent is ``None`` are taken as
    non-differentiable and skipped; integer outputs do not contribute.
    Evaluate away from kinks and ties (e.g. a max with a repeated maximum).
    """
    rule = rule_name(rrule)
    labels = arg_labels(rrule, len(args))
    base = [map_tree(a, _to_float64) for a in args]
    kwargs = {k: map_tree(v, host_copy) for k, v in kwargs.items()}
    rng = np.random.default_rng(COTANGENT_SEED)
    where = f"check_rule_fd({rule})"
    holder: dict[str, Any] = {}

    def cotangent(y: Any) -> Any:
        holder["dy"] = default_cotangent(y, rng)
        return holder["dy"]

    _, dx = call_rule(rrule, base, kwargs, cotangent, f"check_rule_fd: rule {rule} on NumPy")
    dx = check_cotangent_tuple(dx, len(args), where)
    dy = holder["dy"]

    def objective(new_args: list[Any]) -> float:
        return _inner(dy, rrule(*new_args, **kwargs)[0])

    for i, (arg, d) in enumerate(zip(base, dx)):
        for path, leaf, grad in _float_leaves(arg, d, (i,)):
            label = labels[i] + "".join(f"[{k}]" for k in path[1:])
            got = to_host(grad) if isinstance(grad, StrictArray) else np.asarray(grad, dtype=np.float64)
            if got.shape != np.shape(leaf):
                raise AssertionError(
                    f"{where}: cotangent of argument {label} has shape {got.shape}, "
                    f"its argument {np.shape(leaf)}"
                )
            expected = np.empty(np.shape(leaf))
            for j in np.ndindex(*np.shape(leaf)):
                if isinstance(leaf, np.ndarray):
                    plus, minus = leaf.copy(), leaf.copy()
                    plus[j] += eps
                    minus[j] -= eps
                else:
                    plus, minus = leaf + eps, leaf - eps
                upper = objective(_replace(base, path, plus))
                lower = objective(_replace(base, path, minus))
                expected[j] = (upper - lower) / (2 * eps)
            problem = difference(got, expected, rtol, atol)
            if problem:
                raise AssertionError(
                    f"{where}: cotangent of argument {label} disagrees with central finite "
                    f"differences (eps={eps:g}): {problem}\n"
                    f"  pullback:           {np.array2string(got, threshold=20)}\n"
                    f"  finite differences: {np.array2string(expected, threshold=20)}"
                )
