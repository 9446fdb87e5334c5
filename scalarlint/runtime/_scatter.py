"""``index_add``: a scatter-add that accumulates repeated indices, on every array library.

``dx[idx] += v`` is not a scatter-add: with a repeated index NumPy, CuPy and PyTorch keep one
of the writes, not their sum. Every library has the real operation under another name; a rule
that wants to run on all of them calls :func:`index_add` instead of a Python loop of
``dx[idx[k]] += v[k]`` (one kernel launch per element on a GPU). Dispatch is on the array's
type, and each library is imported only when its array is passed in, so the runtime stays
import-light.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._strict import StrictArray

__all__ = ["index_add"]


def index_add(target: Any, indices: Any, values: Any) -> Any:
    """Add ``values`` into ``target`` at ``indices`` along axis 0, summing repeated indices.

    ``indices`` is a 1-D integer array (device or host); ``values`` has the shape
    ``(len(indices), *target.shape[1:])`` or broadcasts to it. Use the result:
    ``dx = index_add(dx, idx, v)``. NumPy, the strict array, CuPy and PyTorch update
    ``target`` in place and return it (``np.add.at``, ``cupyx.scatter_add``,
    ``Tensor.index_add_``); JAX arrays are immutable and get ``target.at[indices].add``; any
    other array-API array gets a new array from a one-hot product, which needs no scatter.
    """
    if isinstance(target, (np.ndarray, StrictArray)):
        np.add.at(target, indices, values)
        return target
    library = type(target).__module__.split(".")[0]
    if library == "cupy":
        import cupyx

        cupyx.scatter_add(target, indices, values)
        return target
    if library == "torch":
        import torch

        rows = torch.remainder(torch.as_tensor(indices, device=target.device), target.shape[0])  # -1: the last row
        shape = (rows.shape[0], *target.shape[1:])
        return target.index_add_(0, rows, torch.broadcast_to(torch.as_tensor(values, dtype=target.dtype, device=target.device), shape))
    if library in ("jax", "jaxlib"):
        return target.at[indices].add(values)
    return one_hot_add(target.__array_namespace__(), target, indices, values)


def one_hot_add(xp: Any, target: Any, indices: Any, values: Any) -> Any:
    """``index_add`` in the array API alone: a (n, k) one-hot matrix of the indices times the
    values (as rows), added to ``target``. A new array; O(n k) work, no scatter needed."""
    rows = target.shape[0]
    indices = xp.asarray(indices)
    onehot = xp.astype(xp.arange(rows)[:, None] == indices[None, :], target.dtype)
    values = xp.broadcast_to(xp.asarray(values, dtype=target.dtype), (indices.shape[0], *target.shape[1:]))
    flat = xp.reshape(values, (indices.shape[0], -1))
    return target + xp.reshape(onehot @ flat, target.shape)
