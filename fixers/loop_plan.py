"""The vector form of a loop over one element at a time: what a loop body reads and how it reads
whole.

``LoopPlan`` answers, for a ``for`` loop over ``range(n)`` (or ``enumerate``), which subscripts
touch element ``i`` (``a[i]``, the diagonal ``A[i, i]``, the mirror ``a[n - 1 - i]``), which
expressions are elementwise in ``i``, and rewrites them to whole-array expressions
(``a[:n]``, ``A[xp.arange(n), xp.arange(n)]``, ``xp.flip(a[:n])``). Every loop fixer
(element loops, scans, scatters, suffix sums, products of the others, ``while`` searches)
builds on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.loop_range import RangeInfo
from scalarlint.analysis.syntax import call_name, integer_value
from scalarlint.analysis.tree import walk

from .array_evidence import known_array
from .cst_helpers import names_in
from .edits import axis_arg, bare, parenthesized, xp_call
from .elementwise import ARITHMETIC, is_elementwise_call, module_function
from .index_facts import index_values

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile


class LoopPlan:
    def __init__(
        self, analyzer: AnalyzedFile, loop: cst.For, rng: RangeInfo, xp: str,
        index: str | None = None, elements: dict[str, cst.BaseExpression] | None = None,
    ) -> None:
        self.analyzer = analyzer
        self.loop = loop
        self.rng = rng
        self.xp = xp
        assert index is not None or isinstance(loop.target, cst.Name)
        self.index = index if index is not None else loop.target.value  # type: ignore[attr-defined]
        # names bound to element i of an array by the header (``v`` of ``enumerate(x)``)
        self.elements = elements or {}
        # names assigned once per trip from elementwise values: vectors after the rewrite
        self.temps: set[str] = set()
        self.whole = self._range_array()
        self.assigned = {n.value for n in walk(loop.body) if isinstance(n, cst.Name) and is_assignment_target(analyzer, n)}
        # ``A[i, i]`` (the same loop variable on every axis) is the diagonal; only the element
        # loop fixer vectorizes it (``A[r, r]`` with ``r = xp.arange(n)``)
        self.diagonal = False

    def _range_array(self) -> str | None:
        n = self.rng.stop
        code = self.analyzer.module.code_for_node
        if isinstance(n, cst.Call) and call_name(n.func) == ["len"] and len(n.args) == 1:
            return code(n.args[0].value)
        if isinstance(n, cst.Subscript) and isinstance(n.value, cst.Attribute) and n.value.attr.value == "shape":
            values = index_values(n)
            if values and len(values) == 1 and integer_value(values[0]) == 0:
                return code(n.value.value)
        if isinstance(n, cst.Attribute) and n.attr.value == "size":
            return code(n.value) + ".flat"  # range(x.size) runs over every element of x.flat
        return None

    def flat_array(self, base: cst.BaseExpression) -> cst.BaseExpression | None:
        """``x`` for ``x.flat`` (the array read in C order), else None."""
        if isinstance(base, cst.Attribute) and base.attr.value == "flat":
            if known_array(self.analyzer, base.value):
                return base.value
        return None

    # -- checks -----------------------------------------------------------------------------------
    def shifted_access(self, node: cst.CSTNode) -> int | None:
        """``a[i + c]`` or ``a[i - c]`` (``c`` a literal): the offset ``c`` (``-c``), read as the
        slice ``a[start + c:n + c]``. A negative offset needs ``start >= c``: ``a[i - 1]`` at
        ``i = 0`` reads ``a[-1]``, the last element, which no slice reproduces."""
        values = index_values(node) if isinstance(node, cst.Subscript) else None
        if not (self.diagonal and values and len(values) == 1 and isinstance(values[0], cst.BinaryOperation)):
            return None
        index = values[0]
        if not isinstance(index.operator, (cst.Add, cst.Subtract)):
            return None
        left, right = index.left, index.right
        if isinstance(left, cst.Name) and left.value == self.index and integer_value(right) is not None:
            offset = integer_value(right) if isinstance(index.operator, cst.Add) else -integer_value(right)  # type: ignore[operator]
        elif isinstance(right, cst.Name) and right.value == self.index and isinstance(index.operator, cst.Add) and integer_value(left) is not None:
            offset = integer_value(left)
        else:
            return None
        if not offset or self.rng.start + offset < 0:  # type: ignore[operator]
            return None
        if not known_array(self.analyzer, node.value):  # type: ignore[attr-defined]
            return None
        if names_in(node.value) & (self.assigned | {self.index}):  # type: ignore[attr-defined]
            return None
        return offset

    def element_access(self, node: cst.CSTNode) -> bool:
        values = index_values(node) if isinstance(node, cst.Subscript) else None
        return (
            values is not None
            and (len(values) == 1 or self.diagonal and len(values) > 1 and self.rng.start == 0)
            and all(isinstance(v, cst.Name) and v.value == self.index for v in values)
            and (
                known_array(self.analyzer, node.value)  # type: ignore[attr-defined]
                or len(values) == 1 and self.flat_array(node.value) is not None  # type: ignore[attr-defined]
            )
            and self._indexes_every_axis(node.value, len(values))  # type: ignore[attr-defined]
            and not (names_in(node.value) & (self.assigned | {self.index}))  # type: ignore[attr-defined]
        )

    def _indexes_every_axis(self, array: cst.BaseExpression, indices: int) -> bool:
        """``out[i]`` of ``out = np.empty((n, m))`` is a row, not an element: a loop writing
        rows is not the elementwise loop its vector form would be. An array of unknown rank is
        taken at its indices' word."""
        rank = self.analyzer.context.inference.kind(array).rank
        return rank is None or rank == indices

    def mirror_access(self, node: cst.CSTNode) -> bool:
        """``a[n - 1 - i]`` (or ``a[n - i - 1]``) with ``n`` the range's length: the array read
        back to front, ``xp.flip(a[:n])``."""
        values = index_values(node) if isinstance(node, cst.Subscript) else None
        if self.rng.start != 0:
            return False
        if not (self.diagonal and values and len(values) == 1 and isinstance(values[0], cst.BinaryOperation)):
            return False
        index = values[0]
        code = self.analyzer.module.code_for_node
        stop = code(bare(self.rng.stop))
        if not isinstance(index.operator, cst.Subtract):
            return False
        left, right = index.left, index.right
        if isinstance(right, cst.Name) and right.value == self.index:  # (n - 1) - i
            ok = isinstance(left, cst.BinaryOperation) and isinstance(left.operator, cst.Subtract) and integer_value(left.right) == 1 and code(bare(left.left)) == stop
        elif integer_value(right) == 1:  # (n - i) - 1
            ok = (
                isinstance(left, cst.BinaryOperation) and isinstance(left.operator, cst.Subtract)
                and isinstance(left.right, cst.Name) and left.right.value == self.index and code(bare(left.left)) == stop
            )
        else:
            return False
        return (
            ok
            and known_array(self.analyzer, node.value)  # type: ignore[attr-defined]
            and not (names_in(node.value) & (self.assigned | {self.index}))  # type: ignore[attr-defined]
        )

    def column_reduction(self, node: cst.CSTNode) -> bool:
        """``xp.argmax(A[:, i])`` (or ``argmin``/``sum``/``max``/``min``/``prod``/``mean``) of
        column ``i``: all the columns at once with ``axis=0``."""
        if not (self.diagonal and self.rng.start == 0 and isinstance(node, cst.Call) and len(node.args) == 1 and not node.args[0].keyword):
            return False
        if module_function(self.analyzer, node) not in _COLUMN_REDUCTIONS:
            return False
        column = node.args[0].value
        if not (isinstance(column, cst.Subscript) and len(column.slice) == 2):
            return False
        rows, position = (e.slice for e in column.slice)
        return (
            isinstance(rows, cst.Slice) and rows.lower is None and rows.upper is None and rows.step is None
            and isinstance(position, cst.Index) and isinstance(position.value, cst.Name) and position.value.value == self.index
            and known_array(self.analyzer, column.value)
            and not (names_in(column.value) & (self.assigned | {self.index}))
        )

    def per_column_access(self, node: cst.CSTNode) -> bool:
        """``A[r, i]`` with ``r`` a temporary of this loop: one element per column, the
        positions ``(r, xp.arange(n))``."""
        values = index_values(node) if isinstance(node, cst.Subscript) else None
        return (
            self.diagonal and self.rng.start == 0 and values is not None and len(values) == 2
            and isinstance(values[0], cst.Name) and values[0].value in self.temps
            and isinstance(values[1], cst.Name) and values[1].value == self.index
            and known_array(self.analyzer, node.value)  # type: ignore[attr-defined]
            and not (names_in(node.value) & (self.assigned | {self.index}))  # type: ignore[attr-defined]
        )

    def elementwise(self, node: cst.CSTNode) -> bool:
        if self.column_reduction(node) or self.per_column_access(node):
            return True
        if isinstance(node, cst.Subscript):
            if self.element_access(node) or self.mirror_access(node) or self.shifted_access(node) is not None:
                return True
            return not (names_in(node) & (self.assigned | {self.index}))
        if isinstance(node, cst.Name):
            if node.value in self.elements or node.value in self.temps:
                return True
            return node.value != self.index and node.value not in self.assigned
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
            return True
        if isinstance(node, cst.Attribute):
            return not (names_in(node) & (self.assigned | {self.index}))
        if isinstance(node, cst.BinaryOperation):
            return isinstance(node.operator, ARITHMETIC) and self.elementwise(node.left) and self.elementwise(node.right)
        if isinstance(node, cst.UnaryOperation):
            return self.elementwise(node.expression)
        if isinstance(node, cst.Comparison):
            if any(isinstance(c.operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)) for c in node.comparisons):
                return False
            middle_ok = all(_pure(c.comparator) for c in node.comparisons[:-1])
            return middle_ok and self.elementwise(node.left) and all(self.elementwise(c.comparator) for c in node.comparisons)
        if isinstance(node, cst.IfExp):
            return is_boolean(node.test) and all(self.elementwise(part) for part in (node.test, node.body, node.orelse))
        if isinstance(node, cst.BooleanOperation):
            return is_boolean(node.left) and is_boolean(node.right) and self.elementwise(node.left) and self.elementwise(node.right)
        if isinstance(node, cst.Call):
            if is_elementwise_call(self.analyzer, node):
                return all(self.elementwise(a.value) for a in node.args)
            return not (names_in(node) & (self.assigned | {self.index}))
        return False

    # -- rewriting -----------------------------------------------------------------------------------
    def vectorized(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        return expr.visit(_Vectorize(self))  # type: ignore[return-value]

    def block(self, base: cst.BaseExpression, offset: int = 0) -> cst.BaseExpression:
        """``a`` for the range's own array, else ``a[:n]``; ``x.flat`` reads ``xp.reshape(x, (-1,))``;
        from a start ``s`` or at an offset ``c``, ``a[s + c:n + c]``."""
        base = base.with_changes(lpar=(), rpar=()) if getattr(base, "lpar", None) else base
        if offset or self.rng.start:
            return self.window(base, offset)
        whole = self.whole is not None and self.analyzer.module.code_for_node(base) == self.whole
        flat = self.flat_array(base)
        if flat is not None:
            minus_one = cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer("1"))
            shape = cst.Tuple(elements=[cst.Element(minus_one, comma=cst.Comma())])
            base = xp_call(self.xp, "reshape", flat, shape)
        return base if whole else self.prefix(base)

    def window(self, base: cst.BaseExpression, offset: int) -> cst.Subscript:
        """``a[s + c:n + c]``: the elements the loop reads at ``i + c`` for ``i`` in ``range(s, n)``."""
        stop = bare(self.rng.stop)
        lower = self.rng.start + offset
        # ``n - k`` shifted by ``c`` is ``n - (k - c)``: fold the constants
        base_stop, constant = stop, 0
        if isinstance(stop, cst.BinaryOperation) and isinstance(stop.operator, (cst.Add, cst.Subtract)) and integer_value(stop.right) is not None:
            base_stop = stop.left
            constant = integer_value(stop.right) * (1 if isinstance(stop.operator, cst.Add) else -1)  # type: ignore[operator]
        total = constant + offset
        if total > 0:
            upper: cst.BaseExpression = cst.BinaryOperation(left=base_stop, operator=cst.Add(), right=cst.Integer(str(total)))
        elif total < 0:
            upper = cst.BinaryOperation(left=base_stop, operator=cst.Subtract(), right=cst.Integer(str(-total)))
        else:
            upper = base_stop
        first = cst.Integer(str(lower)) if lower else None
        return cst.Subscript(value=base, slice=[cst.SubscriptElement(slice=cst.Slice(lower=first, upper=upper))])

    def prefix(self, base: cst.BaseExpression) -> cst.Subscript:
        stop = bare(self.rng.stop)
        return cst.Subscript(value=base, slice=[cst.SubscriptElement(slice=cst.Slice(lower=None, upper=stop))])

    def diagonal_of(self, subscript: cst.Subscript) -> cst.Subscript:
        """``A[i, i]`` -> ``A[xp.arange(n), xp.arange(n)]``: the same positions, one gather."""
        stop = bare(self.rng.stop)
        positions = xp_call(self.xp, "arange", stop)
        return subscript.with_changes(slice=[element.with_changes(slice=cst.Index(positions)) for element in subscript.slice])

    def arange(self) -> cst.Call:
        stop = bare(self.rng.stop)
        return xp_call(self.xp, "arange", stop)

    def per_column(self, subscript: cst.Subscript) -> cst.Subscript:
        """``A[r, i]`` -> ``A[r, xp.arange(n)]``."""
        first, _ = subscript.slice
        return subscript.with_changes(slice=[first, subscript.slice[1].with_changes(slice=cst.Index(self.arange()))])

    def written(self, subscript: cst.Subscript) -> cst.Subscript:
        """What an element write ``a[i] = ...`` (or ``A[i, i] = ...``, ``A[r, i] = ...``) becomes."""
        if self.per_column_access(subscript):
            return self.per_column(subscript)
        return self.diagonal_of(subscript) if len(subscript.slice) > 1 else self.target(subscript.value)

    def target(self, base: cst.BaseExpression) -> cst.Subscript:
        """Written in place: ``a[:]`` for the range's own array, else ``a[:n]``."""
        block = self.block(base)
        if isinstance(block, cst.Subscript) and block is not base:
            return block
        return cst.Subscript(value=base, slice=[cst.SubscriptElement(slice=cst.Slice(lower=None, upper=None))])


class _Vectorize(cst.CSTTransformer):
    def __init__(self, plan: LoopPlan) -> None:
        self.plan = plan

    def on_visit(self, node: cst.CSTNode) -> bool:
        accessed = isinstance(node, cst.Subscript) and (
            self.plan.element_access(node) or self.plan.mirror_access(node) or self.plan.per_column_access(node)
            or self.plan.shifted_access(node) is not None
        )
        return not accessed and not self.plan.column_reduction(node) and super().on_visit(node)

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        if self.plan.per_column_access(original):
            return self.plan.per_column(original)
        if self.plan.element_access(original):
            return self.plan.diagonal_of(original) if len(original.slice) > 1 else self.plan.block(original.value)
        offset = self.plan.shifted_access(original)
        if offset is not None:
            return self.plan.block(original.value, offset)
        if self.plan.mirror_access(original):
            return xp_call(self.plan.xp, "flip", self.plan.block(original.value), axis=0)
        return updated

    def leave_IfExp(self, original: cst.IfExp, updated: cst.IfExp) -> cst.BaseExpression:
        return xp_call(self.plan.xp, "where", *(bare(part) for part in (updated.test, updated.body, updated.orelse)))

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        array = self.plan.elements.get(original.value)
        parent = self.plan.analyzer.parents.get(original)
        if array is None or isinstance(parent, (cst.Attribute, cst.Arg)) and getattr(parent, "keyword", None) is original:
            return updated
        if isinstance(parent, cst.Attribute) and parent.attr is original:
            return updated
        return self.plan.block(array)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if self.plan.column_reduction(original):
            column = original.args[0].value
            columns = column.with_changes(  # type: ignore[attr-defined]
                slice=[column.slice[0], column.slice[1].with_changes(slice=cst.Slice(lower=None, upper=self.plan.rng.stop))]  # type: ignore[attr-defined]
            )
            return updated.with_changes(args=[cst.Arg(columns), axis_arg(0)])
        if call_name(original.func) == ["abs"]:
            return updated.with_changes(func=cst.Attribute(value=cst.Name(self.plan.xp), attr=cst.Name("abs")))
        return updated

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        if len(updated.comparisons) == 1:
            return updated
        parts: list[cst.BaseExpression] = []
        left = updated.left
        for target in updated.comparisons:
            parts.append(cst.Comparison(left=bare(left), comparisons=[target], lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
            left = target.comparator
        result = parts[0]
        for part in parts[1:]:
            result = cst.BinaryOperation(left=result, operator=cst.BitAnd(), right=part)
        return result.with_changes(lpar=updated.lpar, rpar=updated.rpar)

    def leave_BooleanOperation(self, original: cst.BooleanOperation, updated: cst.BooleanOperation) -> cst.BaseExpression:
        op = cst.BitAnd() if isinstance(original.operator, cst.And) else cst.BitOr()
        return cst.BinaryOperation(left=parenthesized(updated.left), operator=op, right=parenthesized(updated.right), lpar=updated.lpar, rpar=updated.rpar)

    def leave_UnaryOperation(self, original: cst.UnaryOperation, updated: cst.UnaryOperation) -> cst.BaseExpression:
        if isinstance(original.operator, cst.Not):
            return cst.UnaryOperation(operator=cst.BitInvert(), expression=parenthesized(updated.expression), lpar=updated.lpar, rpar=updated.rpar)
        return updated


_COLUMN_REDUCTIONS = ("argmax", "argmin", "sum", "max", "min", "prod", "mean")


def _pure(expr: cst.BaseExpression) -> bool:
    """Safe to evaluate twice (the middle of a chained comparison is duplicated): no calls."""
    return not any(isinstance(n, (cst.Call, cst.NamedExpr, cst.Await, cst.Yield, cst.Lambda)) for n in walk(expr))


def is_boolean(expr: cst.BaseExpression) -> bool:
    """Whether ``expr`` is a comparison or a boolean combination of them: a mask once vectorized."""
    if isinstance(expr, cst.Comparison):
        return True
    if isinstance(expr, cst.BooleanOperation):
        return is_boolean(expr.left) and is_boolean(expr.right)
    return isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not) and is_boolean(expr.expression)


def is_assignment_target(analyzer: AnalyzedFile, name: cst.Name) -> bool:
    """Whether ``name`` is written here (an assignment, augmented or annotated target)."""
    parent = analyzer.parents.get(name)
    if isinstance(parent, cst.AssignTarget) or (isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is name):
        return True
    return isinstance(parent, (cst.For, cst.CompFor)) and parent.target is name


def single_small_statement(stmt: cst.BaseStatement) -> cst.BaseSmallStatement | None:
    """The one small statement of a simple line (``a = b``), None for compound or multi-statement lines."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        return stmt.body[0]
    return None
