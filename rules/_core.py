"""Pure-Python bookkeeping shared by the reference rules.

Nothing here touches array *data*: only shapes, axes and the calling convention.
Everything is host-side structural work (tuples of ints), which is free on a GPU
and never a scalar access.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

Axis = int | tuple[int, ...] | None
Pullback = Callable[[Any], tuple[Any, ...]]
RRule = Callable[..., tuple[Any, Pullback]]

F = TypeVar("F", bound=Callable[..., Any])


def positional_cotangents(rrule: F) -> F:
    """Trim a rule's cotangent tuple to the positional arguments of the call.

    The rule set's contract is *one cotangent per positional argument*: a caller
    that writes ``norm(x, 2)`` gets ``(dx, None)`` and one that writes
    ``norm(x, p=2)`` gets ``(dx,)``. Each rule's own pullback returns one entry
    per parameter of its signature (in order); this wrapper counts the positional
    arguments actually passed and keeps that many, so the counting lives in one
    place instead of in every rule.
    """
    params = [
        p
        for p in inspect.signature(rrule).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    max_positional = len(params)

    @functools.wraps(rrule)
    def wrapped(*args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
        if len(args) > max_positional:
            raise TypeError(
                f"{rrule.__name__} takes at most {max_positional} positional "
                f"arguments ({len(args)} given)"
            )
        n_positional = len(args)
        y, full_pullback = rrule(*args, **kwargs)

        def trimmed_pullback(dy: Any) -> tuple[Any, ...]:
            return tuple(full_pullback(dy))[:n_positional]

        return y, trimmed_pullback

    return wrapped  # type: ignore[return-value]


def normalize_axes(axis: Axis, ndim: int) -> tuple[int, ...]:
    """Return ``axis`` as a sorted tuple of non-negative axes (``None`` = all)."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"axis {a} is out of bounds for an array of ndim {ndim}")
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {axis!r}")
    return tuple(sorted(out))


def normalize_axis(axis: int, ndim: int) -> int:
    """Return one axis as a non-negative int, checking bounds."""
    (a,) = normalize_axes(axis, ndim)
    return a


def keepdims_shape(shape: Sequence[int], axes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape a reduction over ``axes`` has with ``keepdims=True``."""
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def size_of(shape: Sequence[int]) -> int:
    """Number of elements of an array with this (host) shape."""
    n = 1
    for s in shape:
        n *= s
    return n


def moved_last_permutation(ndim: int, axes: tuple[int, ...]) -> tuple[int, ...]:
    """A permutation that moves ``axes`` (in order) behind all other axes."""
    kept = tuple(i for i in range(ndim) if i not in axes)
    return kept + axes


def inverse_permutation(perm: Sequence[int]) -> tuple[int, ...]:
    """Inverse of a host permutation (structural, on axes)."""
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


def broadcast_shapes(shapes: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """NumPy broadcasting of a sequence of host shapes (no data involved)."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        padded = (1,) * (ndim - len(s)) + tuple(s)
        for i, d in enumerate(padded):
            if d == 1:
                continue
            if out[i] not in (1, d):
                raise ValueError(f"shapes {shapes} cannot be broadcast together")
            out[i] = d
    return tuple(out)


def reduced_axes_for_unbroadcast(
    full_shape: Sequence[int], target_shape: Sequence[int]
) -> tuple[tuple[int, ...], int]:
    """Axes of ``full_shape`` to sum so that the result fits ``target_shape``.

    Returns ``(axes, n_leading)``: the axes to sum (with ``keepdims=True``), and
    how many leading axes are extra and must be dropped after the sum.
    """
    n_leading = len(full_shape) - len(target_shape)
    axes = list(range(n_leading))
    for i, d in enumerate(target_shape):
        if d == 1 and full_shape[n_leading + i] != 1:
            axes.append(n_leading + i)
    return tuple(axes), n_leading
