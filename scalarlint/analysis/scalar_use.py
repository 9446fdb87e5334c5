"""Evidence that a value is one element, from where the code uses it.

A row compares and scales elementwise, so ``x[i] > 0`` or ``x[i] * 2`` alone says nothing; but
only one element can be the test of an ``if``/``while``/``assert``, an index, a slice bound, a
``range()`` bound or the argument of ``int()``/``float()``. The same holds one binding away:
``idx = rois_idx[i]; ...; int(idx)``. These answers need the tree and the scopes only, no kinds.
"""

from __future__ import annotations

from typing import Mapping

import libcst as cst
from libcst.metadata import Scope

from scalarlint.analysis.syntax import is_converter_call


class ScalarUses:
    def __init__(self, parents: Mapping[cst.CSTNode, cst.CSTNode], scopes: Mapping[cst.CSTNode, Scope | None]) -> None:
        self.parents = parents
        self.scopes = scopes
        self._bindings: dict[cst.Name, bool] = {}

    def used_as_scalar(self, node: cst.BaseExpression, follow: bool = True) -> bool:
        """Tested, compared in a test, used as an index or a slice bound, converted; with
        ``follow``, also through the one name the value is bound to (no chains)."""
        node = arithmetic_top(node, self.parents)  # ts[1] - ts[0]: broadcasting never shrinks
        parent = self.parents.get(node)
        if isinstance(parent, cst.ComparisonTarget):
            parent = self.parents.get(parent)
        if isinstance(parent, cst.Comparison):
            operands = [parent.left, *(c.comparator for c in parent.comparisons)]
            if any(is_python_marker(o) for o in operands):
                return False  # subscript[0] == Ellipsis, kind == "f": Python data, not an element
            return self.is_test(parent) or (follow and self._bound_and_tested(parent))
        if isinstance(parent, cst.Index):  # y[idx[k]]: an index picks with an int
            return isinstance(self.parents.get(parent), cst.SubscriptElement)
        if isinstance(parent, cst.Slice):
            return True
        if isinstance(parent, cst.Arg) and (is_converter_call(self.parents.get(parent)) or _is_range(self.parents.get(parent))):
            return True  # int(v), float(v), range(start, end)
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
            return follow and self._bound_to_scalar(parent.targets[0].target)  # idx = rois_idx[i]; int(idx)
        return self.is_test(node)

    def numeric_use_as_scalar(self, node: cst.BaseExpression) -> bool:
        """``direction = ts[1] - ts[0]; if direction < 0:``: numeric arithmetic whose result is
        used as one value; evidence strong enough for a value whose kind is only probable."""
        top = arithmetic_top(node, self.parents, numeric_only=True)
        return top is not node and self.used_as_scalar(top)

    def _bound_and_tested(self, comparison: cst.Comparison) -> bool:
        """``reversed_order = x[0] > x[-1]; if reversed_order:``: a comparison kept under a
        name that an ``if``/``while`` then tests."""
        assign = self.parents.get(comparison)
        if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)):
            return False
        return any(self.is_test(read) for read in self._reads_of(assign.targets[0].target))

    def _feeds_an_index(self, use: cst.Name) -> bool:
        """``nz = col_idx[idz]; hi = nz // nlon; kx[:, :, hi, wi]``: index arithmetic one binding
        further that ends as an index or a bound (one hop, no chains)."""
        target = _arithmetic_target(use, self.parents)
        return target is not None and any(self.used_as_scalar(read, follow=False) for read in self._reads_of(target))

    def _bound_to_scalar(self, target: cst.Name) -> bool:
        cached = self._bindings.get(target)
        if cached is None:
            cached = any(self.used_as_scalar(read, follow=False) or self._feeds_an_index(read) for read in self._reads_of(target))
            self._bindings[target] = cached
        return cached

    def _reads_of(self, target: cst.Name) -> list[cst.Name]:
        """The names that read what the assignment to ``target`` binds."""
        scope = self.scopes.get(target)
        for assignment in scope.assignments[target.value] if scope is not None else ():
            if getattr(assignment, "node", None) is target:
                return [access.node for access in assignment.references if isinstance(access.node, cst.Name)]
        return []

    def is_test(self, node: cst.CSTNode) -> bool:
        """``node`` is the test of an ``if``/``while``/conditional/``assert`` (through
        ``and``/``or``/``not``)."""
        parent = self.parents.get(node)
        while isinstance(parent, (cst.BooleanOperation, cst.UnaryOperation)):
            node, parent = parent, self.parents.get(parent)
        return isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.Assert)) and getattr(parent, "test", None) is node


def is_python_marker(node: cst.BaseExpression) -> bool:
    """A string, ``Ellipsis`` or ``None``: what Python data, never an element, is compared with."""
    return isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)) or (
        isinstance(node, cst.Name) and node.value in ("Ellipsis", "None")
    )


def _arithmetic_target(node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> cst.Name | None:
    """``hi = nz // width``: the name that index arithmetic on ``node`` is bound to."""
    parent = parents.get(node)
    if not isinstance(parent, cst.BinaryOperation) or not isinstance(parent.operator, INDEX_ARITHMETIC):
        return None
    assign = parents.get(parent)
    if isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name):
        return assign.targets[0].target
    return None


INDEX_ARITHMETIC = (cst.FloorDivide, cst.Modulo, cst.Add, cst.Subtract, cst.Multiply)
ARITHMETIC = (cst.BinaryOperation, cst.UnaryOperation)
NUMERIC_OPERATORS = (cst.Subtract, cst.Divide, cst.FloorDivide, cst.Power)  # what strings and lists lack


def arithmetic_top(node: cst.BaseExpression, parents: Mapping[cst.CSTNode, cst.CSTNode], numeric_only: bool = False) -> cst.BaseExpression:
    """The whole arithmetic expression ``node`` is an operand of (``node`` itself if none):
    the result is at least as large as each operand, so one element out means one element in.
    ``numeric_only``: only through operators strings, lists and tuples lack (``-``, ``/``,
    ``//``, ``**``), which also rule out that ``node`` is Python text or a sequence."""
    parent = parents.get(node)
    while isinstance(parent, ARITHMETIC) and _operand_of(node, parent) and (not numeric_only or _numeric_only(parent)):
        node, parent = parent, parents.get(parent)
    return node


def _numeric_only(operation: cst.CSTNode) -> bool:
    if isinstance(operation, cst.UnaryOperation):
        return isinstance(operation.operator, cst.Minus)
    return isinstance(operation, cst.BinaryOperation) and isinstance(operation.operator, NUMERIC_OPERATORS)


def _operand_of(node: cst.CSTNode, operation: cst.CSTNode) -> bool:
    """``node`` is an operand of arithmetic (not ``not``, whose result is a Python bool of any
    size-1 value, and not ``@``, which contracts)."""
    if isinstance(operation, cst.UnaryOperation):
        return isinstance(operation.operator, (cst.Minus, cst.Plus, cst.BitInvert))
    assert isinstance(operation, cst.BinaryOperation)
    return not isinstance(operation.operator, cst.MatrixMultiply)


def _is_range(call: cst.CSTNode | None) -> bool:
    """``range(zstart, zend)``: Python asks each bound for one host int."""
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "range"
