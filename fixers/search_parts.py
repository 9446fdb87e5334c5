"""Building blocks of the search fixers: the found index from a mask (first or last match),
the predicate of a search as a whole-array mask, and whether the found index may become a
0-d device value where it is used next.

Shared by ``vectorized_search`` (``for`` loops) and ``comprehension_search`` (``next``,
``max``/``min`` of generators, comprehensions indexed at ``[0]``/``[-1]``, ``nonzero``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from scalarlint.analysis.inference import call_name, positional
from scalarlint.analysis.loop_range import RangeInfo
from scalarlint.analysis.syntax import integer_value

from .array_evidence import known_array
from .cst_helpers import ancestors, assignments_of, binding_value, names_in, within
from .edits import bare, parenthesized, xp_call
from .elementwise import ARITHMETIC, BOOLEAN_FUNCTIONS, ELEMENTWISE_FUNCTIONS, is_elementwise_call, module_function
from .index_facts import index_values
from .mask_argmax import mask_argmax

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile

DEVICE_INDEX_FUNCTIONS = ELEMENTWISE_FUNCTIONS | {"where"}


# -- building blocks ---------------------------------------------------------------------------
def _atom(expr: cst.BaseExpression) -> cst.BaseExpression:
    """``expr`` parenthesized unless it binds at least as tightly as a subtraction operand."""
    if isinstance(expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer)) or getattr(expr, "lpar", None):
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def found_index(
    xp: str, mask: cst.BaseExpression, last: bool, n: cst.BaseExpression, reducer: str = "argmax", numeric: bool = False
) -> cst.BaseExpression:
    """``xp.argmax(mask)`` or ``n - 1 - xp.argmax(xp.flip(mask))``; with ``numeric`` (a boolean
    mask in an array-API namespace, see ``mask_argmax``) the argument is cast to ``int8`` first."""
    mask = bare(mask)
    if last:
        mask = xp_call(xp, "flip", mask)
    found = mask_argmax(xp, mask, numeric) if reducer == "argmax" else xp_call(xp, reducer, mask)
    if not last:
        return found
    head = cst.BinaryOperation(left=_atom(n), operator=cst.Subtract(), right=cst.Integer("1"))
    return cst.BinaryOperation(left=head, operator=cst.Subtract(), right=found)


class VectorizeReads(cst.CSTTransformer):
    """``a[j]`` -> ``a``, ``abs`` -> ``xp.abs``, ``and``/``or``/``not`` -> ``&``/``|``/``~``."""

    def __init__(self, reads: set[int], xp: str) -> None:
        self.reads = reads
        self.xp = xp

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        if id(original) in self.reads:
            return updated.value.with_changes(lpar=updated.lpar, rpar=updated.rpar)
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if call_name(original.func) == ["abs"]:
            return updated.with_changes(func=cst.Attribute(value=cst.Name(self.xp), attr=cst.Name("abs")))
        return updated

    def leave_BooleanOperation(self, original: cst.BooleanOperation, updated: cst.BooleanOperation) -> cst.BaseExpression:
        op = cst.BitAnd() if isinstance(original.operator, cst.And) else cst.BitOr()
        return cst.BinaryOperation(
            left=parenthesized(updated.left), operator=op, right=parenthesized(updated.right), lpar=updated.lpar, rpar=updated.rpar
        )

    def leave_UnaryOperation(self, original: cst.UnaryOperation, updated: cst.UnaryOperation) -> cst.BaseExpression:
        if isinstance(original.operator, cst.Not):
            return cst.UnaryOperation(operator=cst.BitInvert(), expression=parenthesized(updated.expression), lpar=updated.lpar, rpar=updated.rpar)
        return updated


def _is_element_read(analyzer: AnalyzedFile, node: cst.Subscript, index: str) -> bool:
    values = index_values(node)
    return (
        values is not None
        and len(values) == 1
        and isinstance(values[0], cst.Name)
        and values[0].value == index
        and known_array(analyzer, node.value)
    )


def _boolean_valued(analyzer: AnalyzedFile, expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Comparison):
        return True
    if isinstance(expr, cst.BooleanOperation):
        return _boolean_valued(analyzer, expr.left) and _boolean_valued(analyzer, expr.right)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        return _boolean_valued(analyzer, expr.expression)
    if isinstance(expr, cst.Call):
        return module_function(analyzer, expr) in BOOLEAN_FUNCTIONS
    return False


def vectorize_predicate(
    analyzer: AnalyzedFile, test: cst.BaseExpression, index: str, xp: str, forbidden: frozenset[str] = frozenset()
) -> tuple[cst.BaseExpression, list[cst.BaseExpression]] | None:
    """The mask of an elementwise predicate over ``a[index]`` reads, and the arrays read."""
    if not _boolean_valued(analyzer, test):
        return None
    reads: list[cst.Subscript] = []
    if not elementwise_reads(analyzer, test, index, forbidden, reads) or not reads:
        return None
    mask = test.visit(VectorizeReads({id(r) for r in reads}, xp))
    return mask, [r.value for r in reads]  # type: ignore[return-value]


def elementwise_reads(analyzer: AnalyzedFile, node: cst.CSTNode, index: str, forbidden: frozenset[str], reads: list[cst.Subscript]) -> bool:
    """Whether ``node`` is elementwise in ``a[index]`` reads (collected in ``reads``) and names not in ``forbidden``."""
    if isinstance(node, cst.Subscript):
        if _is_element_read(analyzer, node, index):
            if names_in(node.value) & (forbidden | {index}):
                return False
            reads.append(node)
            return True
        return not (names_in(node) & (forbidden | {index}))
    if isinstance(node, cst.Name):
        return node.value not in forbidden and node.value != index
    if isinstance(node, cst.Comparison):
        if len(node.comparisons) != 1 or isinstance(node.comparisons[0].operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)):
            return False
        return elementwise_reads(analyzer, node.left, index, forbidden, reads) and elementwise_reads(
            analyzer, node.comparisons[0].comparator, index, forbidden, reads
        )
    if isinstance(node, cst.BooleanOperation):
        return elementwise_reads(analyzer, node.left, index, forbidden, reads) and elementwise_reads(analyzer, node.right, index, forbidden, reads)
    if isinstance(node, cst.BinaryOperation):
        return isinstance(node.operator, ARITHMETIC) and elementwise_reads(analyzer, node.left, index, forbidden, reads) and elementwise_reads(
            analyzer, node.right, index, forbidden, reads
        )
    if isinstance(node, cst.UnaryOperation):
        return elementwise_reads(analyzer, node.expression, index, forbidden, reads)
    if isinstance(node, cst.Call):
        if is_elementwise_call(analyzer, node):
            return all(elementwise_reads(analyzer, a.value, index, forbidden, reads) for a in node.args)
        return not (names_in(node) & (forbidden | {index}))  # loop-invariant: computed once
    if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(node, cst.Attribute):
        return not (names_in(node) & (forbidden | {index}))
    return False


def _size_of(analyzer: AnalyzedFile, n: cst.BaseExpression, depth: int = 0) -> str | None:
    """The code of the array whose length ``n`` is (``len(a)``, ``a.shape[0]``), if any."""
    code = analyzer.module.code_for_node
    if isinstance(n, cst.Call) and call_name(n.func) == ["len"] and len(positional(n)) == 1:
        return code(bare(positional(n)[0]))
    if isinstance(n, cst.Subscript) and isinstance(n.value, cst.Attribute) and n.value.attr.value == "shape":
        values = index_values(n)
        if values and len(values) == 1 and integer_value(values[0]) == 0:
            return code(bare(n.value.value))
    if isinstance(n, cst.Name) and depth < 3:
        assignments = assignments_of(analyzer, n)
        if assignments and len(assignments) == 1 and isinstance(assignments[0].node, cst.Name):
            value = binding_value(analyzer, assignments[0].node)
            if value is not None:
                return _size_of(analyzer, value, depth + 1)
    return None


def range_covers(analyzer: AnalyzedFile, rng: RangeInfo, bases: list[cst.BaseExpression]) -> bool:
    """Whether the scanned range is the length of one of the arrays read, so the mask has the loop's length."""
    array = _size_of(analyzer, rng.stop)
    return array is not None and array in {analyzer.module.code_for_node(bare(b)) for b in bases}


# -- uses of the found index ---------------------------------------------------------------------
def device_use_ok(analyzer: AnalyzedFile, node: cst.CSTNode) -> bool:
    """Whether a 0-d device index in place of ``node`` keeps working without a sync."""
    child = node
    for parent in ancestors(analyzer, node):
        if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)) and not (
            isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not)
        ):
            if isinstance(parent, cst.BinaryOperation) and not isinstance(parent.operator, ARITHMETIC):
                return False
            child = parent
            continue
        if isinstance(parent, (cst.ComparisonTarget,)):
            child = parent
            continue
        if isinstance(parent, cst.Comparison):
            if len(parent.comparisons) != 1:
                return False
            child = parent  # a device boolean: must itself land somewhere harmless
            continue
        if isinstance(parent, cst.Index):
            element = analyzer.parents.get(parent)
            sub = analyzer.parents.get(element) if element is not None else None
            return (
                isinstance(sub, cst.Subscript)
                and len(sub.slice) == 1
                and child is parent.value
                and known_array(analyzer, sub.value)
            )
        if isinstance(parent, cst.Arg):
            call = analyzer.parents.get(parent)
            return (
                isinstance(call, cst.Call)
                and parent.keyword is None
                and module_function(analyzer, call) in DEVICE_INDEX_FUNCTIONS
            )
        if isinstance(parent, cst.Return):
            return True
        if isinstance(parent, (cst.Element, cst.Tuple)):
            child = parent
            continue
        return False
    return False


def uses_after_ok(analyzer: AnalyzedFile, assignments: list[Assignment], after: cst.CSTNode) -> bool:
    """Whether every use of these assignments after ``after`` keeps working with a 0-d device index."""
    start = analyzer.positions[after].start.line
    for assignment in assignments:
        for access in assignment.references:
            use = access.node
            if within(analyzer, use, after):
                continue  # inside the code being replaced
            if use not in analyzer.positions or analyzer.positions[use].start.line < start:
                return False  # read before the search: it would see another value
            if not device_use_ok(analyzer, use):
                return False
    return True


def bound_name_ok(analyzer: AnalyzedFile, expr: cst.CSTNode) -> bool:
    """For a search expression: its value is used only in device-friendly ways."""
    parent = analyzer.parents.get(expr)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        target = parent.targets[0].target
        scope = analyzer.scopes.get(target)
        if scope is None:
            return False
        mine = [a for a in scope.assignments[target.value] if isinstance(a, Assignment)]
        if len(mine) != 1 or mine[0].node is not target:
            return False
        return uses_after_ok(analyzer, mine, parent)
    return device_use_ok(analyzer, expr)


