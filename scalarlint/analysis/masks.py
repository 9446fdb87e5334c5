"""Masks the inference cannot type: a comparison written as the only index selects by mask."""

from __future__ import annotations

import libcst as cst

from scalarlint.analysis.kinds import Kind, Tag

ORDERINGS = (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual, cst.Equal, cst.NotEqual)


def compared_to_mask(node: cst.Subscript, base: Kind) -> bool:
    """``s[x.data > 0]`` with ``s`` a device array, or ``x.data[x.data > 0]``: a comparison as
    the only index selects by mask (a Python bool would add an axis, which nobody writes),
    even where the compared values cannot be typed."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return False
    test = node.slice[0].slice.value
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, ORDERINGS):
        return False
    if base.tag is Tag.ARRAY and not base.doubt:
        return True
    return base.tag is Tag.UNKNOWN and test.left.deep_equals(node.value)
