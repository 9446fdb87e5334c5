"""Literal reads of an array whose rank the inference does not know (``x[0]``, ``x[-1]``,
``x[x.ndim * (0,)]``), and what in the code around them shows each is one element: the two ends
of an interval read together, a value made a scalar under a test that it has axes, one int
per axis of the array itself. ``element_access.selects_element`` asks these questions once
the kinds leave the rank open; they read only the syntax and the parent map.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.evidence import ndim_of
from scalarlint.analysis.syntax import integer_value, jax_at_base
from scalarlint.analysis.tree import walk

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView


def one_int_per_own_axis(node: cst.Subscript) -> bool:
    """``x[x.ndim * (0,)]``, ``x.at[(0,) * x.ndim]``: a tuple of one int per axis of the array
    itself, whatever its rank: the first element (a literal tuple times the array's ``ndim``)."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return False
    index = node.slice[0].slice.value
    array = jax_at_base(node) or node.value
    if not isinstance(index, cst.BinaryOperation) or not isinstance(index.operator, cst.Multiply) or not isinstance(array, cst.Name):
        return False
    for count, ints in ((index.left, index.right), (index.right, index.left)):
        if (
            isinstance(ints, cst.Tuple) and len(ints.elements) == 1 and integer_value(ints.elements[0].value) is not None
            and ndim_of(count) == array.value
        ):
            return True
    return False


def _end_index(node: cst.Subscript) -> int | None:
    """0 for ``x[0]``, -1 for ``x[-1]``, None for anything else."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    value = integer_value(node.slice[0].slice.value)
    return value if value in (0, -1) else None


def reads_both_ends(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``a, b = interval[0], interval[-1]``, ``span = t[-1] - t[0]``: one statement reading the
    first and the last entry of the same array takes the two ends of a grid or an interval, one
    value each (the rows of a matrix are not read in pairs like that)."""
    end = _end_index(node)
    if end is None or not isinstance(node.value, cst.Name):
        return False
    statement: cst.CSTNode | None = node
    while statement is not None and not isinstance(statement, cst.BaseSmallStatement):
        statement = inf.parents.get(statement)
    if statement is None:
        return False
    name = node.value.value
    return any(
        isinstance(other, cst.Subscript) and isinstance(other.value, cst.Name) and other.value.value == name
        and _end_index(other) == -1 - end
        for near in _with_neighbours(inf, statement) for other in walk(near)
    )


def _with_neighbours(inf: "InferenceView", statement: cst.CSTNode) -> list[cst.CSTNode]:
    """``statement`` and the statements right before and after it in its block: the two ends
    of an interval are often read one line each (``lo = interval[0] == -inf`` and then
    ``hi = interval[-1] == inf``)."""
    line = inf.parents.get(statement)
    block = inf.parents.get(line) if line is not None else None
    body = getattr(block, "body", None)
    if line is None or not isinstance(body, (list, tuple)):
        return [statement]
    where = next((k for k, item in enumerate(body) if item is line), None)
    if where is None:
        return [statement]
    return [statement, *body[max(where - 1, 0) : where], *body[where + 1 : where + 2]]


def scalar_made(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``if len(t.shape) > 0: t = t[0]``: a value rebound to its own first (or last) entry
    under a test that it has axes is being made a scalar; the author takes it as a vector of
    one value per entry (a time, a step), so the read is one element."""
    statement = inf.parents.get(node)
    if _end_index(node) is None or not isinstance(node.value, cst.Name) or not isinstance(statement, cst.Assign):
        return False
    name = node.value.value
    if statement.value is not node or not any(isinstance(t.target, cst.Name) and t.target.value == name for t in statement.targets):
        return False
    guard: cst.CSTNode | None = statement
    while guard is not None and not isinstance(guard, cst.If):
        guard = inf.parents.get(guard)
    return guard is not None and _has_axes_test(guard.test) == name


def _has_axes_test(test: cst.BaseExpression) -> str | None:
    """The name ``len(x.shape) > 0``, ``x.ndim >= 1``, ``x.ndim != 0`` or a bare ``x.ndim``
    tests for having axes; None for any other test."""
    if not isinstance(test, cst.Comparison):
        return ndim_of(test)
    if len(test.comparisons) != 1:
        return None
    compared = test.comparisons[0]
    bound = integer_value(compared.comparator)
    name = ndim_of(test.left)
    if name is None or bound is None:
        return None
    holds = {cst.GreaterThan: 0, cst.GreaterThanEqual: 1, cst.NotEqual: 0}.get(type(compared.operator))
    return name if holds == bound else None
