"""Facts about the index of an element access: whether it is a host integer, whether it is
certainly non-negative, and whether it comes out of a search or accumulation loop.

They decide which fix an element access can take: ``x[i:i + 1]`` only for an index known to be
``>= 0`` (else ``x[-1:]`` would be needed), and no fix of its own for an index that the search
fixer is about to turn into a device value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from scalarlint.analysis.kinds import Tag
from scalarlint.analysis.syntax import call_name, integer_value, is_range_name, positional
from scalarlint.analysis.tree import walk

from .cst_helpers import ancestors, assignments_of, binding_value

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile


def is_host_int(analyzer: AnalyzedFile, expr: cst.BaseExpression) -> bool:
    return analyzer.context.inference.kind(expr).tag is Tag.HOST_INT


def _is_size(analyzer: AnalyzedFile, expr: cst.BaseExpression) -> bool:
    """``len(a)``, ``a.shape[k]``, ``a.size``: a size, never negative."""
    if isinstance(expr, cst.Call) and call_name(expr.func) == ["len"]:
        return True
    if isinstance(expr, cst.Attribute) and expr.attr.value in ("size", "ndim"):
        return True
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape":
        return True
    return False


def known_nonnegative(analyzer: AnalyzedFile, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """Whether a host integer index is certainly ``>= 0`` whenever the indexing succeeds.

    Literals, sizes (``len``, ``.shape[k]``, ``.size``), sums and products of those, loop
    variables of ``range`` with a non-negative start and positive step, names only ever bound
    to such values, and ``size - 1`` (negative only for an empty array, where ``x[-1]`` raised
    anyway). Parameters and anything else are unknown: an index that may be ``-1`` needs
    ``x[-1:]``, not ``x[i:i+1]``.
    """
    if depth > 8:
        return False
    value = integer_value(expr)
    if value is not None:
        return value >= 0
    if _is_size(analyzer, expr):
        return True
    if isinstance(expr, cst.BinaryOperation):
        op = expr.operator
        if isinstance(op, (cst.Add, cst.Multiply, cst.FloorDivide)):
            return known_nonnegative(analyzer, expr.left, depth + 1) and known_nonnegative(analyzer, expr.right, depth + 1)
        if isinstance(op, cst.Modulo):
            return known_nonnegative(analyzer, expr.right, depth + 1)
        if isinstance(op, cst.Subtract) and integer_value(expr.right) == 1:
            return _is_size_like(analyzer, expr.left, depth + 1)
        return False
    if isinstance(expr, cst.Name):
        assignments = assignments_of(analyzer, expr)
        if not assignments:
            return False
        return all(_assignment_nonnegative(analyzer, a, depth + 1) for a in assignments)
    return False


def _is_size_like(analyzer: AnalyzedFile, expr: cst.BaseExpression, depth: int) -> bool:
    if _is_size(analyzer, expr):
        return True
    if isinstance(expr, cst.Name) and depth <= 8:
        assignments = assignments_of(analyzer, expr)
        if not assignments:
            return False
        for a in assignments:
            value = binding_value(analyzer, a.node) if isinstance(a.node, cst.Name) else None
            if value is None or not _is_size(analyzer, value):
                return False
        return True
    return False


def _assignment_nonnegative(analyzer: AnalyzedFile, assignment: Assignment, depth: int) -> bool:
    target = assignment.node
    if not isinstance(target, cst.Name):
        return False
    value = binding_value(analyzer, target)
    if value is not None:
        return known_nonnegative(analyzer, value, depth)
    parent = analyzer.parents.get(target)
    if isinstance(parent, cst.AugAssign) and isinstance(parent.operator, (cst.AddAssign, cst.MultiplyAssign)):
        return known_nonnegative(analyzer, parent.value, depth)
    if isinstance(parent, (cst.For, cst.CompFor)) and parent.target is target:
        return range_is_nonnegative(analyzer, parent.iter, depth)
    return False


def range_is_nonnegative(analyzer: AnalyzedFile, iterable: cst.BaseExpression, depth: int = 0) -> bool:
    if isinstance(iterable, cst.Call) and call_name(iterable.func) == ["reversed"] and positional(iterable):
        iterable = positional(iterable)[0]
    if not (isinstance(iterable, cst.Call) and is_range_name(call_name(iterable.func))):
        return False
    args = positional(iterable)
    if len(args) == 1:
        return True
    if len(args) == 2:
        return known_nonnegative(analyzer, args[0], depth + 1)
    if len(args) == 3:
        step = integer_value(args[2])
        return step is not None and step > 0 and known_nonnegative(analyzer, args[0], depth + 1)
    return False


def assigned_in_loop(analyzer: AnalyzedFile, name: cst.Name) -> bool:
    """Whether some assignment reaching ``name`` happens inside a loop body (not as the
    loop's own target): the value is the result of a search or an accumulation."""
    assignments = assignments_of(analyzer, name)
    if not assignments:
        return False
    for a in assignments:
        target = a.node
        if not isinstance(target, cst.Name):
            continue
        parent = analyzer.parents.get(target)
        if isinstance(parent, (cst.For, cst.CompFor)) and parent.target is target:
            continue
        for up in ancestors(analyzer, target):
            if isinstance(up, (cst.FunctionDef, cst.Lambda)):
                break
            if isinstance(up, (cst.For, cst.While)):
                return True
    return False


def index_names(node: cst.Subscript) -> list[cst.Name]:
    out: list[cst.Name] = []
    for element in node.slice:
        if isinstance(element.slice, cst.Index):
            out.extend(n for n in walk(element.slice.value) if isinstance(n, cst.Name))
    return out


def index_values(node: cst.Subscript) -> list[cst.BaseExpression] | None:
    values: list[cst.BaseExpression] = []
    for element in node.slice:
        if not isinstance(element.slice, cst.Index) or element.slice.star is not None:
            return None
        values.append(element.slice.value)
    return values


def deferred_to_search(analyzer: AnalyzedFile, node: cst.Subscript) -> bool:
    """An element access whose index comes out of a search or accumulation loop.

    The search fixer turns such an index into a 0-d device array, after which the access is a
    gather/scatter (no finding). A size-1 view or an ``allow_scalar`` block offered now would
    be applied in the same round as the search fix and become wrong or pointless (slice bounds
    that are device values sync), so these accesses get no fix of their own.
    """
    return any(assigned_in_loop(analyzer, name) for name in index_names(node))
