"""Backend-portable building blocks for the reference rules.

Every rule gets its namespace from :func:`namespace` (``array_api_compat`` when it is
installed, a tiny built-in shim otherwise) and leans on the helpers below for the
few operations where array libraries still disagree: scatter-add with repeated
indices (NumPy/CuPy ``add.at`` versus PyTorch ``index_add``), cumulative scans
(``cumulative_sum`` is new in the standard), and creating index vectors on the
right device. Keeping these in one module means a new backend is one edit.

None of these helpers reads an element to the host: every branch below is on a
Python type, a host shape or a module name, never on array data.
"""

from __future__ import annotations

from typing import Any

from ._core import size_of

try:  # pragma: no cover - exercised by the import itself
    import array_api_compat as _compat
except ImportError:  # pragma: no cover - the GPU box path; tested via the shim
    _compat = None

Array = Any
Namespace = Any


def namespace(*xs: Any) -> Namespace:
    """The array namespace for ``xs`` (Python scalars and ``None`` are skipped).

    ``array_api_compat.array_namespace`` when available; otherwise
    :func:`scalarlint.rules._shim.namespace`, which covers NumPy, CuPy and any
    array with ``__array_namespace__`` (enough to run the rules on a GPU machine
    that lacks array-api-compat).
    """
    if _compat is not None:
        return _compat.array_namespace(*xs)
    from . import _shim

    return _shim.namespace(*xs)


def is_complex(xp: Namespace, x: Array) -> bool:
    """Whether ``x`` has a complex dtype (a host check on the dtype, not the data)."""
    return xp.isdtype(x.dtype, "complex floating")


def backend_kind(x: Array) -> str:
    """``"numpy"``, ``"cupy"``, ``"torch"`` or ``"other"``, by the array's type."""
    if _compat is not None:
        if _compat.is_numpy_array(x):
            return "numpy"
        if _compat.is_cupy_array(x):
            return "cupy"
        if _compat.is_torch_array(x):
            return "torch"
        return "other"
    module = type(x).__module__.split(".")[0]
    return module if module in ("numpy", "cupy", "torch") else "other"


def device_of(x: Array) -> Any:
    """The device of ``x`` in the form the namespace's creation functions accept."""
    if _compat is not None:
        try:
            return _compat.device(x)
        except (AttributeError, TypeError):
            return None
    return getattr(x, "device", None)


def arange_like(xp: Namespace, n: int, like: Array) -> Array:
    """``xp.arange(n)`` (default integer dtype) on the device of ``like``."""
    dev = device_of(like)
    if dev is None:
        return xp.arange(n)
    return xp.arange(n, device=dev)


def full_like_device(xp: Namespace, shape: tuple[int, ...], fill: Any, like: Array) -> Array:
    """``xp.full(shape, fill)`` with ``like``'s dtype, on ``like``'s device."""
    dev = device_of(like)
    if dev is None:
        return xp.full(shape, fill, dtype=like.dtype)
    return xp.full(shape, fill, dtype=like.dtype, device=dev)


def as_cotangent(xp: Namespace, dy: Any, like: Array) -> Array:
    """Turn an incoming cotangent into an array of ``like``'s dtype family.

    Python numbers are converted with ``like``'s dtype so that a ``1.0`` seed does
    not promote a float32 rule to float64. Arrays pass through untouched.
    """
    if isinstance(dy, (bool, int, float, complex)):
        dev = device_of(like)
        if dev is None:
            return xp.asarray(dy, dtype=like.dtype)
        return xp.asarray(dy, dtype=like.dtype, device=dev)
    return dy


def zeros_where_not(xp: Namespace, mask: Array, values: Array) -> Array:
    """``values`` where ``mask`` holds, exact zeros elsewhere (broadcasting).

    Unlike ``values * mask`` this keeps ``inf``/``nan`` cotangents out of the
    masked-off elements.
    """
    return xp.where(mask, values, xp.zeros_like(values))


def cumsum(xp: Namespace, x: Array, axis: int) -> Array:
    """Inclusive cumulative sum along ``axis``."""
    fn = getattr(xp, "cumulative_sum", None)
    if fn is not None:
        return fn(x, axis=axis)
    return xp.cumsum(x, axis=axis)


def cumprod(xp: Namespace, x: Array, axis: int) -> Array:
    """Inclusive cumulative product along ``axis``."""
    fn = getattr(xp, "cumulative_prod", None)
    if fn is not None:
        return fn(x, axis=axis)
    return xp.cumprod(x, axis=axis)


def count_along(xp: Namespace, mask: Array, axis: int) -> Array:
    """Inclusive running count of ``True`` along ``axis`` (default int dtype)."""
    return cumsum(xp, xp.astype(mask, xp.int64), axis)


def reverse_cumsum(xp: Namespace, x: Array, axis: int) -> Array:
    """``out[i] = sum(x[i:])`` along ``axis`` (the adjoint of cumsum)."""
    return xp.flip(cumsum(xp, xp.flip(x, axis=axis), axis), axis=axis)


def _slice_along(ndim: int, axis: int, sl: slice) -> tuple[slice, ...]:
    """An indexing tuple applying ``sl`` on ``axis`` and ``:`` elsewhere."""
    return (slice(None),) * axis + (sl,) + (slice(None),) * (ndim - axis - 1)


def shift_along(xp: Namespace, x: Array, axis: int, fill: float, reverse: bool = False) -> Array:
    """Shift ``x`` by one along ``axis``, filling the vacated slot with ``fill``.

    ``reverse=False``: ``out[0] = fill, out[i] = x[i-1]`` (an exclusive scan from an
    inclusive one); ``reverse=True``: ``out[-1] = fill, out[i] = x[i+1]``. Host-int
    slices only, so this is a view plus one concatenation kernel.
    """
    ndim = x.ndim
    n = x.shape[axis]
    pad_shape = tuple(1 if i == axis else s for i, s in enumerate(x.shape))
    pad = full_like_device(xp, pad_shape, fill, x)
    if n == 0:
        return x
    if reverse:
        body = x[_slice_along(ndim, axis, slice(1, n))]
        return xp.concat((body, pad), axis=axis)
    body = x[_slice_along(ndim, axis, slice(0, n - 1))]
    return xp.concat((pad, body), axis=axis)


def exclusive_cumprod(xp: Namespace, x: Array, axis: int, reverse: bool = False) -> Array:
    """Product of the elements strictly before (``reverse``: after) each element.

    ``prod(x) / x[i]`` without a division: ``exclusive_cumprod(x) *
    exclusive_cumprod(x, reverse=True)`` is exact for zeros and for underflow.
    """
    if reverse:
        inclusive = xp.flip(cumprod(xp, xp.flip(x, axis=axis), axis), axis=axis)
    else:
        inclusive = cumprod(xp, x, axis)
    return shift_along(xp, inclusive, axis, 1, reverse=reverse)


def one_hot_along(xp: Namespace, index: Array, n: int, axis: int, ndim: int, like: Array) -> Array:
    """Boolean mask, ``True`` where the position along ``axis`` equals ``index``.

    ``index`` is a device integer array with a size-1 ``axis`` (``keepdims``
    shape), e.g. an ``argmax(..., keepdims=True)``. This is the device idiom for
    "write one element": a compare kernel instead of a host-indexed store.
    """
    positions = arange_like(xp, n, like)
    positions = xp.reshape(positions, tuple(n if i == axis else 1 for i in range(ndim)))
    return positions == index


def last_true_along(xp: Namespace, mask: Array, axis: int) -> Array:
    """Index (keepdims) of the last ``True`` of ``mask`` along ``axis``.

    ``n - 1 - argmax(flip(mask))``: device-resident, no sync. Where a slice has no
    ``True`` the result is ``n - 1``; callers AND the one-hot with ``mask``.
    """
    n = mask.shape[axis]
    flipped_first = xp.argmax(xp.flip(xp.astype(mask, xp.int8), axis=axis), axis=axis, keepdims=True)
    return (n - 1) - flipped_first


def first_true_along(xp: Namespace, mask: Array, axis: int) -> Array:
    """Index (keepdims) of the first ``True`` of ``mask`` along ``axis`` (0 if none)."""
    return xp.argmax(xp.astype(mask, xp.int8), axis=axis, keepdims=True)


def unbroadcast(xp: Namespace, g: Array, shape: tuple[int, ...]) -> Array:
    """Sum a broadcast cotangent back down to ``shape`` (the adjoint of broadcasting)."""
    if tuple(g.shape) == tuple(shape):
        return g
    n_leading = g.ndim - len(shape)
    axes = list(range(n_leading))
    for i, d in enumerate(shape):
        if d == 1 and g.shape[n_leading + i] != 1:
            axes.append(n_leading + i)
    if axes:
        g = xp.sum(g, axis=tuple(axes), keepdims=True)
    return xp.reshape(g, tuple(shape))


def scatter_add(xp: Namespace, out: Array, idx: Array, values: Array, axis: int = 0) -> Array:
    """Return ``out`` plus ``values`` added at integer positions ``idx`` along ``axis``.

    Repeated indices accumulate (the adjoint of a gather). ``idx`` is 1-D and
    ``values.shape`` equals ``out.shape`` with ``axis`` of length ``len(idx)``.

    - NumPy and CuPy: ``add.at`` (CuPy: an atomic-add kernel);
    - PyTorch: ``index_add`` (atomics on CUDA);
    - anything else: ``xp.add.at`` if the namespace offers it (NumPy-like
      namespaces such as the strict array's), else a sort-based segmented sum
      built from standard functions only (``argsort``, ``cumulative_sum``,
      ``searchsorted``): exact in structure, but its sums are differences of
      prefix sums, so expect rounding at the level of the running total.
    """
    kind = backend_kind(out)
    if kind == "torch":
        return out.index_add(axis, idx, values)
    if kind == "numpy":
        import numpy

        result = numpy.array(out, copy=True)
        numpy.add.at(result, (slice(None),) * axis + (idx,), values)
        return result
    if kind == "cupy":
        import cupy

        result = out.copy()
        add = getattr(cupy, "add")
        if hasattr(add, "at"):
            add.at(result, (slice(None),) * axis + (idx,), values)
        else:  # CuPy < 13
            import cupyx

            cupyx.scatter_add(result, (slice(None),) * axis + (idx,), values)
        return result
    add = getattr(xp, "add", None)
    if add is not None and hasattr(add, "at"):
        result = xp.asarray(out, copy=True)
        add.at(result, (slice(None),) * axis + (idx,), values)
        return result
    return out + _segment_sum(xp, idx, values, out.shape[axis], axis)


def _segment_sum(xp: Namespace, idx: Array, values: Array, n: int, axis: int) -> Array:
    """Scatter-add by sorting: ``out[j] = sum(values[k] for k where idx[k] == j)``.

    Standard-only fallback for :func:`scatter_add`. Sorts the indices, takes an
    exclusive prefix sum of the reordered values, and reads each output slot's
    segment as ``prefix[right(j)] - prefix[left(j)]`` with two ``searchsorted``
    calls: no atomics, no data-dependent shapes.
    """
    order = xp.argsort(idx, stable=True)
    sorted_idx = xp.take(idx, order)
    sorted_vals = xp.take(values, order, axis=axis)
    prefix = shift_along(xp, cumsum(xp, sorted_vals, axis), axis, 0)
    total = xp.sum(sorted_vals, axis=axis, keepdims=True)
    prefix = xp.concat((prefix, total), axis=axis)
    targets = xp.astype(arange_like(xp, n, idx), sorted_idx.dtype)
    left = xp.searchsorted(sorted_idx, targets, side="left")
    right = xp.searchsorted(sorted_idx, targets, side="right")
    return xp.take(prefix, right, axis=axis) - xp.take(prefix, left, axis=axis)


def flat_size(x: Array) -> int:
    """Number of elements from the host shape (``x.size`` may be ``None`` for lazy arrays)."""
    return size_of(x.shape)


def fold_axes(xp: Namespace, x: Array, axes: tuple[int, ...]) -> tuple[Array, tuple[int, ...], tuple[int, ...]]:
    """Move ``axes`` to the end and merge them into one trailing axis.

    Returns ``(folded, perm, permuted_shape)``; :func:`unfold_axes` undoes it.
    Lets a rule written for "one axis" serve ``axis=None`` and tuples of axes.
    Shapes only: a transpose/reshape, no element access.
    """
    from ._core import moved_last_permutation

    perm = moved_last_permutation(x.ndim, axes)
    permuted = xp.permute_dims(x, perm) if perm != tuple(range(x.ndim)) else x
    permuted_shape = tuple(permuted.shape)
    kept = permuted_shape[: x.ndim - len(axes)]
    folded = xp.reshape(permuted, kept + (size_of(permuted_shape[x.ndim - len(axes):]),))
    return folded, perm, permuted_shape


def unfold_axes(xp: Namespace, g: Array, perm: tuple[int, ...], permuted_shape: tuple[int, ...]) -> Array:
    """Inverse of :func:`fold_axes` for an array with the folded shape."""
    from ._core import inverse_permutation

    g = xp.reshape(g, permuted_shape)
    if perm == tuple(range(len(perm))):
        return g
    return xp.permute_dims(g, inverse_permutation(perm))
