"""Masks the inference cannot type: a comparison written as the only index selects by mask,
and so does an index its author named a mask."""

from __future__ import annotations

import libcst as cst

from scalarlint.analysis.kinds import Kind, Tag
from scalarlint.analysis.syntax import final_name

ORDERINGS = (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual, cst.Equal, cst.NotEqual)


def compared_to_mask(node: cst.Subscript, base: Kind) -> bool:
    """``s[x.data > 0]`` with ``s`` a device array, or ``x.data[x.data > 0]`` (``x.data`` of any
    kind the inference gives, unknown or a doubtful array): a comparison as
    the only index selects by mask (a Python bool would add an axis, which nobody writes),
    even where the compared values cannot be typed."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return False
    test = node.slice[0].slice.value
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, ORDERINGS):
        return False
    if base.tag is Tag.ARRAY and not base.doubt:
        return True
    compared = [test.left, *(c.comparator for c in test.comparisons)]
    # the indexed value compared itself (``_out[out != _out]``): the result has its shape, a
    # mask of it, whatever doubt the inference keeps about the value
    return base.tag in (Tag.UNKNOWN, Tag.ARRAY) and any(side.deep_equals(node.value) for side in compared)


def mask_name(node: cst.Subscript) -> str | None:
    """The name of the only index when its author called it a mask (``x[mask]``,
    ``grad[self.valid_mask]``): an array of booleans by the universal convention, as integer
    index arrays are called ``idx``, ``keep`` or ``inds``. The caller checks that the index is
    not known to be something else (a host int, a list)."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    index = node.slice[0].slice.value
    name = final_name(index)
    return name if name is not None and "mask" in name.lower() else None
