"""Classify an index key the way CuPy executes it.

What matters on a GPU is not the syntax but what the key makes the device
do: host integers that pick out a single element are scalar access; slices
and integer arrays (host or device) are one kernel; a 0-d *device* integer is
a gather/scatter kernel with no sync; a boolean mask has a data-dependent
output size (a sync); a device scalar used as a slice bound must be turned
into a host int (a sync). A host integer on the leading axis of a 2-D array
selects a row, which is a view, not scalar access.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ._context import scalar_allowed
from ._errors import scalar_error
from ._report import refuse

__all__ = ["prepare_key"]


def _is_host_int(part: Any) -> bool:
    if isinstance(part, (bool, np.bool_)):
        return False
    if isinstance(part, (int, np.integer)):
        return True
    if isinstance(part, np.ndarray):
        return part.ndim == 0 and part.dtype.kind in "iu"
    return False


def _host_slice(part: slice, shape: tuple[int, ...], device_cls: type) -> slice:
    bounds = []
    for bound in (part.start, part.stop, part.step):
        if isinstance(bound, device_cls):
            if not scalar_allowed():
                refuse(scalar_error("a slice bound", shape, "slice-bound"))
            bound = operator.index(bound._data)  # type: ignore[attr-defined]
        bounds.append(bound)
    return slice(*bounds)


def prepare_key(key: Any, shape: tuple[int, ...], device_cls: type, *, write: bool) -> Any:
    """Check ``key`` for scalar access and return it with device arrays unwrapped.

    Raises :class:`ScalarIndexingError` (unless scalar access is allowed) for
    single-element access with host integers, boolean masks, and device
    scalars used as slice bounds.
    """
    operation = "setindex" if write else "getindex"
    allowed = scalar_allowed()
    parts = key if type(key) is tuple else (key,)
    prepared: list[Any] = []
    host_ints = 0
    non_scalar = False  # slices, new axes and array indices never select one element
    for part in parts:
        if isinstance(part, device_cls):
            data = part._data  # type: ignore[attr-defined]
            if data.dtype == np.bool_ and not allowed:
                refuse(scalar_error(f"{operation} with a boolean mask", shape, "data-dependent"))
            non_scalar = True  # gather/scatter kernel, no sync
            prepared.append(data)
        elif _is_host_int(part):
            host_ints += 1
            prepared.append(part)
        elif isinstance(part, slice):
            non_scalar = True
            prepared.append(_host_slice(part, shape, device_cls))
        elif part is Ellipsis:
            prepared.append(part)
        elif part is None or isinstance(part, (bool, np.bool_)):
            non_scalar = True
            prepared.append(part)
        else:
            array = part if isinstance(part, np.ndarray) else np.asarray(part)
            if array.dtype == np.bool_ and not allowed:
                refuse(scalar_error(f"{operation} with a boolean mask", shape, "data-dependent"))
            non_scalar = True  # integer-array index: one kernel
            prepared.append(array)
    if not allowed and not non_scalar and host_ints and host_ints == len(shape):
        shown = ", ".join("..." if p is Ellipsis else str(int(p)) for p in parts)
        refuse(scalar_error(
            f"{operation} x[{shown}]" + (" = ..." if write else ""),
            shape,
            operation,
            detail=" with host integer indices",
        ))
    return tuple(prepared) if type(key) is tuple else prepared[0]
