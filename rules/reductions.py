"""Reductions: sum, mean, prod, maximum/minimum, findmax/findmin.

The classic GPU offenders here are ``prod`` (``y / x`` divides by zero, so CPU
code special-cases zeros with a loop) and ``maximum`` (ChainRules-style rules
search for the winning index with ``findfirst`` and write one element). Both are
written below with whole-array kernels: exclusive cumulative products from both
sides, and ``argmax`` turned into a one-hot mask.
"""

from __future__ import annotations

from typing import Any

from ._core import (
    Axis,
    Pullback,
    keepdims_shape,
    normalize_axes,
    positional_cotangents,
    size_of,
)
from ._portable import (
    Array,
    arange_like,
    as_cotangent,
    device_of,
    exclusive_cumprod,
    fold_axes,
    namespace,
    one_hot_along,
    unfold_axes,
    zeros_where_not,
)


def _reduce_axis_arg(axis: Axis, axes: tuple[int, ...]) -> tuple[int, ...] | None:
    """What to pass as ``axis=`` to a namespace reduction (``None`` for all)."""
    return None if axis is None else axes


@positional_cotangents
def rrule_sum(x: Array, axis: Axis = None) -> tuple[Array, Pullback]:
    """``y = sum(x, axis)``; ``dx = dy`` broadcast back over the reduced axes.

    ``axis`` is ``None`` (all), an int or a tuple of ints. An empty reduced axis
    gives ``y = 0`` and an empty ``dx``. ``axis`` has no cotangent.
    """
    xp = namespace(x)
    axes = normalize_axes(axis, x.ndim)
    y = xp.sum(x, axis=_reduce_axis_arg(axis, axes))
    kshape = keepdims_shape(x.shape, axes)

    def sum_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        dx = xp.zeros_like(x) + xp.reshape(dy, kshape)
        return dx, None

    return y, sum_pullback


@positional_cotangents
def rrule_mean(x: Array, axis: Axis = None) -> tuple[Array, Pullback]:
    """``y = mean(x, axis)``; ``dx = dy / count`` broadcast over the reduced axes.

    ``count`` is the number of reduced elements (a host int from the shape).
    The mean over an empty axis is NaN (NumPy warns) and ``dx`` is empty.
    """
    xp = namespace(x)
    axes = normalize_axes(axis, x.ndim)
    y = xp.mean(x, axis=_reduce_axis_arg(axis, axes))
    kshape = keepdims_shape(x.shape, axes)
    count = size_of([x.shape[a] for a in axes])

    def mean_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        dx = xp.zeros_like(x) + xp.reshape(dy, kshape) / max(count, 1)
        return dx, None

    return y, mean_pullback


@positional_cotangents
def rrule_prod(x: Array, axis: Axis = None) -> tuple[Array, Pullback]:
    """``y = prod(x, axis)``; ``dx[i] = dy * prod(x[j] for j != i)``.

    The "product of the others" is the product of the exclusive cumulative
    products from the left and from the right, never ``y / x[i]``. So every case
    is exact (up to the rounding of the products themselves):

    - no zero: the usual ``y / x[i]``;
    - one zero at ``k``: ``dx[k] = dy * prod(others)``, every other ``dx[i] = 0``;
    - two or more zeros: ``dx = 0``;
    - ``y`` underflowed to 0 without a zero (e.g. ``[1e-200, 1e-200, 2]``):
      ``dx[2] = 0`` (it underflows too) but ``dx[0] = dy * 2e-200``, not ``0/x``.

    ChainRules' ``prod`` rule distinguishes the zero counts with a loop; the
    result agrees. An empty reduced axis gives ``y = 1`` and an empty ``dx``.
    """
    xp = namespace(x)
    axes = normalize_axes(axis, x.ndim)
    y = xp.prod(x, axis=_reduce_axis_arg(axis, axes))

    def prod_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        folded, perm, permuted_shape = fold_axes(xp, x, axes)
        last = folded.ndim - 1
        others = exclusive_cumprod(xp, folded, last) * exclusive_cumprod(xp, folded, last, reverse=True)
        dy_folded = xp.reshape(dy, tuple(folded.shape[:last]) + (1,))
        dx = unfold_axes(xp, others * dy_folded, perm, permuted_shape)
        return dx, None

    return y, prod_pullback


def _extremum_rule(x: Array, axis: Axis, largest: bool) -> tuple[Array, Pullback]:
    """Shared body of maximum/minimum: cotangent to the first extremal index."""
    xp = namespace(x)
    axes = normalize_axes(axis, x.ndim)
    reduce = xp.max if largest else xp.min
    y = reduce(x, axis=_reduce_axis_arg(axis, axes))

    def extremum_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        folded, perm, permuted_shape = fold_axes(xp, x, axes)
        last = folded.ndim - 1
        arg = xp.argmax if largest else xp.argmin
        winner = arg(folded, axis=last, keepdims=True)
        mask = one_hot_along(xp, winner, folded.shape[last], last, folded.ndim, folded)
        dy_folded = xp.reshape(dy, tuple(folded.shape[:last]) + (1,))
        dx = unfold_axes(xp, zeros_where_not(xp, mask, dy_folded), perm, permuted_shape)
        return dx, None

    return y, extremum_pullback


@positional_cotangents
def rrule_maximum(x: Array, axis: Axis = None) -> tuple[Array, Pullback]:
    """``y = max(x, axis)``; the whole cotangent goes to the FIRST maximal element.

    Per reduced slice, the winner is ``argmax`` (first occurrence, as the array
    API standard and Julia's ``findmax`` specify), written as a one-hot mask: no
    host index, no search loop. Ties therefore do not split the cotangent
    (ChainRules' ``maximum`` rule also picks one element via ``findmax``). A
    NaN counts as the maximum, as in NumPy's ``argmax``. Not defined for an empty
    reduced axis (the forward raises, as NumPy does).
    """
    return _extremum_rule(x, axis, largest=True)


@positional_cotangents
def rrule_minimum(x: Array, axis: Axis = None) -> tuple[Array, Pullback]:
    """``y = min(x, axis)``; the whole cotangent goes to the FIRST minimal element.

    Mirror image of :func:`rrule_maximum` (``argmin``, first occurrence).
    """
    return _extremum_rule(x, axis, largest=False)


def _find_extremum_rule(x: Array, axis: int | None, largest: bool) -> tuple[tuple[Array, Array], Pullback]:
    """Shared body of findmax/findmin: ``(value, index)`` with ``index`` from argmax."""
    xp = namespace(x)
    arg = xp.argmax if largest else xp.argmin
    if axis is None:
        flat = xp.reshape(x, (-1,))
        index = arg(flat)
        value = xp.take(flat, xp.reshape(index, (1,)))
        value = xp.reshape(value, ())
        red_axis = 0
        work = flat
    else:
        red_axis = normalize_axes(axis, x.ndim)[0]
        index = arg(x, axis=red_axis, keepdims=True)
        value = xp.take_along_axis(x, index, axis=red_axis)
        value = xp.squeeze(value, axis=red_axis)
        work = x
        index = xp.squeeze(index, axis=red_axis)
    shape = tuple(x.shape)

    def find_extremum_pullback(dy: Any) -> tuple[Array, None]:
        dvalue = dy
        if isinstance(dy, (tuple, list)):
            dvalue, _ = dy
        if dvalue is None:
            return xp.zeros_like(x), None
        dvalue = as_cotangent(xp, dvalue, x)
        winner = xp.expand_dims(index, axis=red_axis)
        mask = one_hot_along(xp, winner, work.shape[red_axis], red_axis, work.ndim, work)
        dx = zeros_where_not(xp, mask, xp.expand_dims(dvalue, axis=red_axis))
        return xp.reshape(dx, shape), None

    return (value, index), find_extremum_pullback


@positional_cotangents
def rrule_findmax(x: Array, axis: int | None = None) -> tuple[tuple[Array, Array], Pullback]:
    """``(value, index) = findmax(x)``: the maximum and the index of its FIRST occurrence.

    ``index`` is ``argmax`` (flat index for ``axis=None``; per-slice indices for
    an int ``axis``), a device integer array: it is an output without a cotangent.
    The pullback accepts ``(dvalue, dindex)`` (``dindex`` ignored, as ChainRules'
    ``findmax`` pullback does) or a bare ``dvalue``; ``dx`` is ``dvalue`` at the
    returned index (a one-hot write) and zero elsewhere. ``dvalue=None`` means a
    zero cotangent.
    """
    return _find_extremum_rule(x, axis, largest=True)


@positional_cotangents
def rrule_findmin(x: Array, axis: int | None = None) -> tuple[tuple[Array, Array], Pullback]:
    """``(value, index) = findmin(x)``; mirror image of :func:`rrule_findmax`."""
    return _find_extremum_rule(x, axis, largest=False)


@positional_cotangents
def rrule_median(x: Array) -> tuple[Array, Pullback]:
    """``y = median(x)`` over all elements: the middle element of the sorted values, or
    the mean of the two middle ones for an even count (NumPy's ``median``).

    The cotangent goes to the middle element(s) as the stable sort orders them (``dy``
    to one, or ``dy / 2`` to each of two; ties keep their original order). The middle
    positions are read with ``take`` of a size-2 index array and compared with ``arange``,
    so no element is read on the host. An empty ``x`` gives NaN and an empty ``dx``.
    """
    xp = namespace(x)
    flat = xp.reshape(x, (-1,))
    n = flat.shape[0]
    if n == 0:
        return xp.asarray(float("nan"), dtype=x.dtype), lambda dy: (xp.zeros_like(x),)
    order = xp.argsort(flat, stable=True)
    dev = device_of(order)
    positions = [(n - 1) // 2, n // 2]
    wanted = xp.asarray(positions, dtype=order.dtype) if dev is None else xp.asarray(positions, dtype=order.dtype, device=dev)
    middle = xp.take(order, wanted)
    y = xp.mean(xp.take(flat, middle))
    shape = tuple(x.shape)

    def median_pullback(dy: Any) -> tuple[Array]:
        dy = as_cotangent(xp, dy, y)
        hits = xp.astype(xp.expand_dims(arange_like(xp, n, order), axis=-1) == middle, flat.dtype)
        dx = xp.sum(hits, axis=-1) * (dy / 2)
        return (xp.reshape(dx, shape),)

    return y, median_pullback
