"""Gathers and their adjoints: getindex, take, concatenate, repeat, sort.

The adjoint of a gather is a scatter-add, and with repeated indices the adds
must accumulate: a plain ``dx[idx] = dy`` silently keeps one of the duplicates
(and which one is unspecified on a GPU). :func:`scalarlint.rules._portable.scatter_add`
hides the one real API difference (``add.at`` versus ``index_add``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._core import Pullback, normalize_axis, positional_cotangents, size_of
from ._portable import (
    Array,
    arange_like,
    as_cotangent,
    fold_axes,
    namespace,
    scatter_add,
    unfold_axes,
)


def _check_integer_index(xp: Any, idx: Any) -> None:
    """Only integer *arrays* are gathers; a host int would be scalar indexing."""
    if isinstance(idx, (bool, int)):
        raise TypeError(
            "a host integer index selects one element (scalar indexing); "
            "pass a 1-element integer array instead"
        )
    if not hasattr(idx, "dtype") or not xp.isdtype(idx.dtype, "integral"):
        raise TypeError(f"index must be an integer array, got {getattr(idx, 'dtype', type(idx))}")


def _wrap_negative(xp: Any, idx: Array, n: int) -> Array:
    """Map negative indices to ``idx + n`` (NumPy semantics) with a ``where`` kernel."""
    return xp.where(idx < 0, idx + n, idx)


@positional_cotangents
def rrule_getindex(x: Array, idx: Array | Sequence[Array]) -> tuple[Array, Pullback]:
    """``y = x[idx]`` for integer-array ``idx`` (NumPy advanced indexing); ``idx`` has no cotangent.

    ``idx`` is one integer array (indexing axis 0; ``y.shape = idx.shape +
    x.shape[1:]``) or a tuple of integer arrays indexing the leading axes
    (broadcast together). Negative indices count from the end. Repeated indices
    ACCUMULATE in ``dx`` (``dx[j] = sum of dy[k] with idx[k] == j``): a
    scatter-add, never ``dx[idx] = dy``. Out-of-range indices raise in the
    forward, as NumPy does. A host integer is rejected: use a 1-element array.
    """
    xp = namespace(x)
    indices = tuple(idx) if isinstance(idx, (tuple, list)) else (idx,)
    if not indices or len(indices) > x.ndim:
        raise IndexError(f"getindex: {len(indices)} index arrays for an array of ndim {x.ndim}")
    for one in indices:
        _check_integer_index(xp, one)
    k = len(indices)
    lead = tuple(x.shape[:k])
    trail = tuple(x.shape[k:])
    wrapped = [_wrap_negative(xp, one, n) for one, n in zip(indices, lead)]
    if k > 1:
        wrapped = list(xp.broadcast_arrays(*wrapped))
    linear = wrapped[0]
    for one, n in zip(wrapped[1:], lead[1:]):
        linear = linear * n + one
    index_shape = tuple(linear.shape)
    flat_index = xp.reshape(linear, (-1,))
    rows = xp.reshape(x, (size_of(lead),) + trail)
    y = xp.reshape(xp.take(rows, flat_index, axis=0), index_shape + trail)
    shape = tuple(x.shape)

    def getindex_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        dy_rows = xp.reshape(dy, (flat_index.shape[0],) + trail)
        drows = scatter_add(xp, xp.zeros_like(rows), flat_index, dy_rows, axis=0)
        return xp.reshape(drows, shape), None

    return y, getindex_pullback


@positional_cotangents
def rrule_take(x: Array, idx: Array, axis: int | None = None) -> tuple[Array, Pullback]:
    """``y = take(x, idx, axis)`` (NumPy semantics); ``idx`` and ``axis`` have no cotangent.

    ``axis=None`` takes from the flattened array. ``idx`` may have any shape;
    ``y.shape = x.shape[:axis] + idx.shape + x.shape[axis+1:]``. Negative indices
    count from the end; repeated indices accumulate in ``dx`` (scatter-add).
    """
    xp = namespace(x)
    _check_integer_index(xp, idx)
    shape = tuple(x.shape)
    work = xp.reshape(x, (-1,)) if axis is None else x
    ax = 0 if axis is None else normalize_axis(axis, x.ndim)
    n = work.shape[ax]
    flat_index = xp.reshape(_wrap_negative(xp, idx, n), (-1,))
    before = tuple(work.shape[:ax])
    after = tuple(work.shape[ax + 1 :])
    y = xp.reshape(xp.take(work, flat_index, axis=ax), before + tuple(idx.shape) + after)

    def take_pullback(dy: Any) -> tuple[Array, None, None]:
        dy = as_cotangent(xp, dy, x)
        dy_work = xp.reshape(dy, before + (flat_index.shape[0],) + after)
        dwork = scatter_add(xp, xp.zeros_like(work), flat_index, dy_work, axis=ax)
        return xp.reshape(dwork, shape), None, None

    return y, take_pullback


@positional_cotangents
def rrule_concatenate(xs: Sequence[Array], axis: int | None = 0) -> tuple[Array, Pullback]:
    """``y = concatenate(xs, axis)``; the cotangent of ``xs`` is a tuple of slices of ``dy``.

    ``xs`` is a tuple or list of arrays; its cotangent is a tuple with one array
    per input (views of ``dy``, cut at host offsets taken from the shapes).
    ``axis=None`` concatenates the flattened inputs (NumPy). Empty inputs get
    empty cotangents.
    """
    arrays = tuple(xs)
    if not arrays:
        raise ValueError("concatenate: need at least one array")
    xp = namespace(*arrays)
    shapes = [tuple(a.shape) for a in arrays]
    if axis is None:
        parts = tuple(xp.reshape(a, (-1,)) for a in arrays)
        ax = 0
    else:
        parts = arrays
        ax = normalize_axis(axis, arrays[0].ndim)
    y = xp.concat(parts, axis=ax)
    lengths = [p.shape[ax] for p in parts]

    def concatenate_pullback(dy: Any) -> tuple[tuple[Array, ...], None]:
        dy = as_cotangent(xp, dy, y)
        pieces = []
        start = 0
        for length, shape in zip(lengths, shapes):
            cut = (slice(None),) * ax + (slice(start, start + length),)
            pieces.append(xp.reshape(dy[cut], shape))
            start += length
        return tuple(pieces), None

    return y, concatenate_pullback


@positional_cotangents
def rrule_repeat(x: Array, repeats: int, axis: int | None = None) -> tuple[Array, Pullback]:
    """``y = repeat(x, repeats, axis)`` (NumPy/array-API ``repeat``: each element ``repeats`` times).

    ``repeats`` must be a host non-negative int (an array of per-element counts
    would make the output shape data-dependent). ``axis=None`` repeats the
    flattened array. ``dx`` sums each run of ``repeats`` copies: a reshape and a
    sum, no scatter. ``repeats = 0`` gives an empty ``y`` and ``dx = 0``.
    ``repeats`` has no cotangent. (Julia's ``repeat`` tiles instead; use
    ``concatenate`` for that.)
    """
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 0:
        raise TypeError(f"repeat: repeats must be a host int >= 0, got {repeats!r}")
    xp = namespace(x)
    shape = tuple(x.shape)
    work = xp.reshape(x, (-1,)) if axis is None else x
    ax = 0 if axis is None else normalize_axis(axis, x.ndim)
    y = xp.repeat(work, repeats, axis=ax)
    grouped = tuple(work.shape[:ax]) + (work.shape[ax], repeats) + tuple(work.shape[ax + 1 :])

    def repeat_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        dx = xp.sum(xp.reshape(dy, grouped), axis=ax + 1)
        return xp.reshape(dx, shape), None

    return y, repeat_pullback


@positional_cotangents
def rrule_sort(x: Array, axis: int = -1) -> tuple[Array, Pullback]:
    """``y = sort(x, axis)`` (ascending, stable); ``dx`` routes each ``dy`` slot back.

    ``perm = argsort(x, stable=True)`` and ``y = take_along_axis(x, perm)``; the
    pullback scatters ``dy`` to the positions ``perm`` names (``dx[perm[k]] =
    dy[k]`` per slice, as one flat scatter with unique indices), so each input
    element receives the cotangent of the output slot it moved to. O(n), and no
    second sort in the pullback (a GPU sort may synchronize the stream). Ties keep
    their input order (stable sort), as ChainRules' ``sort`` rule via
    ``sortperm``. NaNs sort last (NumPy).
    """
    xp = namespace(x)
    ax = normalize_axis(axis, x.ndim)
    perm = xp.argsort(x, axis=ax, stable=True)
    y = xp.take_along_axis(x, perm, axis=ax)
    shape = tuple(x.shape)

    def sort_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        axes = (ax,)
        perm_rows, order, moved_shape = fold_axes(xp, perm, axes)
        dy_rows, _, _ = fold_axes(xp, dy, axes)
        n = moved_shape[-1] if moved_shape else 1
        rows = size_of(moved_shape[:-1])
        offsets = xp.reshape(arange_like(xp, rows, x) * n, (rows, 1))
        flat_index = xp.reshape(xp.reshape(perm_rows, (rows, n)) + offsets, (-1,))
        flat_dy = xp.reshape(dy_rows, (-1,))
        flat_dx = scatter_add(xp, xp.zeros_like(flat_dy), flat_index, flat_dy, axis=0)
        dx = unfold_axes(xp, xp.reshape(flat_dx, tuple(dy_rows.shape)), order, moved_shape)
        return xp.reshape(dx, shape), None

    return y, sort_pullback
