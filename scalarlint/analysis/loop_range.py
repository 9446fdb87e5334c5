"""What a ``for`` loop over ``range(...)`` scans: the length of the axis, the direction, the start.

Read once where a loop is matched: SL103 keeps it in its ``SearchLoop`` match, and the fixers
that rewrite loops over data (search, element and scatter-add loops) read the same answer:
``range(n)``, ``range(1, n)``, ``reversed(range(n))`` and ``range(n - 1, -1, -1)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from scalarlint.analysis.syntax import (
    call_name,
    integer_value,
    is_range_name,
    positional,
)


@dataclass(frozen=True)
class RangeInfo:
    """The scan of ``range(...)``: ``stop`` the length n of the axis, ``reverse`` whether it walks
    backwards, ``start`` its first index (0 or 1)."""

    stop: cst.BaseExpression  # the length n of the scanned axis
    reverse: bool
    start: int


def range_info(iterable: cst.BaseExpression) -> RangeInfo | None:
    reverse = False
    if isinstance(iterable, cst.Call) and call_name(iterable.func) == ["reversed"] and len(positional(iterable)) == 1:
        iterable, reverse = positional(iterable)[0], True
    if not (isinstance(iterable, cst.Call) and is_range_name(call_name(iterable.func))) or len(iterable.args) != len(positional(iterable)):
        return None
    args = positional(iterable)
    if len(args) == 1:
        return RangeInfo(args[0], reverse, 0)
    if len(args) == 2 and integer_value(args[0]) in (0, 1):
        return RangeInfo(args[1], reverse, integer_value(args[0]))  # type: ignore[arg-type]
    if len(args) == 3 and not reverse and integer_value(args[1]) == -1 and integer_value(args[2]) == -1:
        first = args[0]
        if isinstance(first, cst.BinaryOperation) and isinstance(first.operator, cst.Subtract) and integer_value(first.right) == 1:
            return RangeInfo(first.left, True, 0)
    return None
