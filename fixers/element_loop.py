"""Whole-array statements for loops that touch one element per iteration (SL101, SL102).

What it rewrites
    A ``for`` loop over ``range(n)`` whose body only writes element ``i`` of arrays from an
    elementwise expression of element ``i`` of arrays, becomes the same statements on the
    first ``n`` elements, one kernel each instead of one launch (and often one sync) per
    element::

        for i in range(len(x)):                  dx[:len(x)] = xp.sign(x) * dy[:len(x)]
            dx[i] = xp.sign(x[i]) * dy[i]   ->

    An array whose length *is* the range (``x`` in ``range(len(x))``) is used whole; every
    other array is cut to the loop's length (``dy[:len(x)]``), so the result is exact even if
    it is longer. ``+=`` and the other augmented writes are kept. A loop whose body is one
    ``if`` guarding one such write becomes a masked write::

        for i in range(len(x)):                  dx[:len(x)] = xp.where((lo <= x) & (x <= hi),
            if lo <= x[i] <= hi:            ->                   dy[:len(x)], dx[:len(x)])
                dx[i] = dy[i]

    (``and``/``or``/``not`` become ``&``/``|``/``~``, chained comparisons a conjunction).

When it is offered
    Every subscript in the loop indexes an array with exactly the loop variable (so each
    iteration touches its own element and the order of iterations does not matter), values
    are elementwise (arithmetic, comparisons, elementwise array functions, builtin ``abs``),
    everything else is loop-invariant, the loop variable is not used after the loop, the loop
    has no ``else``/``break``/``continue``, and an array module alias is in scope. The loop
    runs over ``range(n)``, ``range(0, n)`` or their ``reversed``.

Applicability
    Unsafe. Each element gets the same value as in the loop, but the fix assumes the arrays
    do not overlap in memory (a view ``b = a[1:]`` written while ``a`` is read would see
    updated values in the loop and old ones in the vector form), that the arrays written and
    read have at least ``n`` elements along their first axis (the loop would raise
    ``IndexError`` otherwise; slices do not), and a masked write evaluates the value on every
    element, which may warn (``1 / 0``) where the loop skipped it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.kinds import Tag
from scalarlint.diagnostics import Applicability, Edit, Fix

from . import _common as C
from .loop_names import index_unused_after, only_used_in
from .loop_ranges import RangeInfo, range_info

if TYPE_CHECKING:
    from scalarlint.analysis.analyzer import FileAnalyzer
    from scalarlint.checks.base import Finding

CODES = frozenset({"SL101", "SL102"})
MESSAGE = "Vectorize the element loop into whole-array statements"


def fixes(finding: Finding, analyzer: FileAnalyzer) -> list[Fix]:
    ctx = analyzer.context
    loops = ctx.enclosing_loops(finding.node)
    if not loops or not isinstance(loops[0], cst.For) or not ctx.is_data_loop(loops[0]):
        return []
    if any(ctx.is_data_loop(outer) for outer in loops[1:]):
        return []  # a nest of data loops: not one element per iteration
    edit = _vectorize_loop(analyzer, loops[0])
    return [Fix(Applicability.UNSAFE, MESSAGE, (edit,))] if edit is not None else []


class LoopPlan:
    def __init__(
        self, analyzer: FileAnalyzer, loop: cst.For, rng: RangeInfo, xp: str,
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
        self.assigned = {n.value for n in C.walk(loop.body) if isinstance(n, cst.Name) and _is_target(analyzer, n)}
        # ``A[i, i]`` (the same loop variable on every axis) is the diagonal; only the element
        # loop fixer vectorizes it (``A[r, r]`` with ``r = xp.arange(n)``)
        self.diagonal = False

    def _range_array(self) -> str | None:
        n = self.rng.stop
        code = self.analyzer.module.code_for_node
        if isinstance(n, cst.Call) and C.call_name(n.func) == ["len"] and len(n.args) == 1:
            return code(n.args[0].value)
        if isinstance(n, cst.Subscript) and isinstance(n.value, cst.Attribute) and n.value.attr.value == "shape":
            values = C.index_values(n)
            if values and len(values) == 1 and C.integer_value(values[0]) == 0:
                return code(n.value.value)
        return None

    # -- checks -----------------------------------------------------------------------------------
    def element_access(self, node: cst.CSTNode) -> bool:
        values = C.index_values(node) if isinstance(node, cst.Subscript) else None
        return (
            values is not None
            and (len(values) == 1 or self.diagonal and len(values) > 1)
            and all(isinstance(v, cst.Name) and v.value == self.index for v in values)
            and self.analyzer.context.inference.kind(node.value).tag is Tag.ARRAY  # type: ignore[attr-defined]
            and not (C.names_in(node.value) & (self.assigned | {self.index}))  # type: ignore[attr-defined]
        )

    def mirror_access(self, node: cst.CSTNode) -> bool:
        """``a[n - 1 - i]`` (or ``a[n - i - 1]``) with ``n`` the range's length: the array read
        back to front, ``xp.flip(a[:n])``."""
        values = C.index_values(node) if isinstance(node, cst.Subscript) else None
        if not (self.diagonal and values and len(values) == 1 and isinstance(values[0], cst.BinaryOperation)):
            return False
        index = values[0]
        code = self.analyzer.module.code_for_node
        stop = code(_bare(self.rng.stop))
        if not isinstance(index.operator, cst.Subtract):
            return False
        left, right = index.left, index.right
        if isinstance(right, cst.Name) and right.value == self.index:  # (n - 1) - i
            ok = isinstance(left, cst.BinaryOperation) and isinstance(left.operator, cst.Subtract) and C.integer_value(left.right) == 1 and code(_bare(left.left)) == stop
        elif C.integer_value(right) == 1:  # (n - i) - 1
            ok = (
                isinstance(left, cst.BinaryOperation) and isinstance(left.operator, cst.Subtract)
                and isinstance(left.right, cst.Name) and left.right.value == self.index and code(_bare(left.left)) == stop
            )
        else:
            return False
        return (
            ok
            and self.analyzer.context.inference.kind(node.value).tag is Tag.ARRAY  # type: ignore[attr-defined]
            and not (C.names_in(node.value) & (self.assigned | {self.index}))  # type: ignore[attr-defined]
        )

    def elementwise(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Subscript):
            return self.element_access(node) or self.mirror_access(node) or not (C.names_in(node) & (self.assigned | {self.index}))
        if isinstance(node, cst.Name):
            if node.value in self.elements or node.value in self.temps:
                return True
            return node.value != self.index and node.value not in self.assigned
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
            return True
        if isinstance(node, cst.Attribute):
            return not (C.names_in(node) & (self.assigned | {self.index}))
        if isinstance(node, cst.BinaryOperation):
            return isinstance(node.operator, C.ARITHMETIC) and self.elementwise(node.left) and self.elementwise(node.right)
        if isinstance(node, cst.UnaryOperation):
            return self.elementwise(node.expression)
        if isinstance(node, cst.Comparison):
            if any(isinstance(c.operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)) for c in node.comparisons):
                return False
            middle_ok = all(_pure(c.comparator) for c in node.comparisons[:-1])
            return middle_ok and self.elementwise(node.left) and all(self.elementwise(c.comparator) for c in node.comparisons)
        if isinstance(node, cst.BooleanOperation):
            return _boolean(node.left) and _boolean(node.right) and self.elementwise(node.left) and self.elementwise(node.right)
        if isinstance(node, cst.Call):
            if C.is_elementwise_call(self.analyzer, node):
                return all(self.elementwise(a.value) for a in node.args)
            return not (C.names_in(node) & (self.assigned | {self.index}))
        return False

    # -- rewriting -----------------------------------------------------------------------------------
    def vectorized(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        return expr.visit(_Vectorize(self))  # type: ignore[return-value]

    def block(self, base: cst.BaseExpression) -> cst.BaseExpression:
        """``a`` for the range's own array, else ``a[:n]``."""
        base = base.with_changes(lpar=(), rpar=()) if getattr(base, "lpar", None) else base
        if self.whole is not None and self.analyzer.module.code_for_node(base) == self.whole:
            return base
        return self.prefix(base)

    def prefix(self, base: cst.BaseExpression) -> cst.Subscript:
        stop = self.rng.stop.with_changes(lpar=(), rpar=()) if getattr(self.rng.stop, "lpar", None) else self.rng.stop
        return cst.Subscript(value=base, slice=[cst.SubscriptElement(slice=cst.Slice(lower=None, upper=stop))])

    def diagonal_of(self, subscript: cst.Subscript) -> cst.Subscript:
        """``A[i, i]`` -> ``A[xp.arange(n), xp.arange(n)]``: the same positions, one gather."""
        stop = self.rng.stop.with_changes(lpar=(), rpar=()) if getattr(self.rng.stop, "lpar", None) else self.rng.stop
        positions = cst.Call(func=cst.Attribute(value=cst.Name(self.xp), attr=cst.Name("arange")), args=[cst.Arg(stop)])
        return subscript.with_changes(slice=[element.with_changes(slice=cst.Index(positions)) for element in subscript.slice])

    def written(self, subscript: cst.Subscript) -> cst.Subscript:
        """What an element write ``a[i] = ...`` (or ``A[i, i] = ...``) becomes."""
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
        accessed = isinstance(node, cst.Subscript) and (self.plan.element_access(node) or self.plan.mirror_access(node))
        return not accessed and super().on_visit(node)

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        if self.plan.element_access(original):
            return self.plan.diagonal_of(original) if len(original.slice) > 1 else self.plan.block(original.value)
        if self.plan.mirror_access(original):
            axis = cst.Arg(cst.Integer("0"), keyword=cst.Name("axis"), equal=_EQUAL)
            flip = cst.Attribute(value=cst.Name(self.plan.xp), attr=cst.Name("flip"))
            return cst.Call(func=flip, args=[cst.Arg(self.plan.block(original.value)), axis])
        return updated

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        array = self.plan.elements.get(original.value)
        parent = self.plan.analyzer.parents.get(original)
        if array is None or isinstance(parent, (cst.Attribute, cst.Arg)) and getattr(parent, "keyword", None) is original:
            return updated
        if isinstance(parent, cst.Attribute) and parent.attr is original:
            return updated
        return self.plan.block(array)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if C.call_name(original.func) == ["abs"]:
            return updated.with_changes(func=cst.Attribute(value=cst.Name(self.plan.xp), attr=cst.Name("abs")))
        return updated

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        if len(updated.comparisons) == 1:
            return updated
        parts: list[cst.BaseExpression] = []
        left = updated.left
        for target in updated.comparisons:
            parts.append(cst.Comparison(left=_bare(left), comparisons=[target], lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
            left = target.comparator
        result = parts[0]
        for part in parts[1:]:
            result = cst.BinaryOperation(left=result, operator=cst.BitAnd(), right=part)
        return result.with_changes(lpar=updated.lpar, rpar=updated.rpar)

    def leave_BooleanOperation(self, original: cst.BooleanOperation, updated: cst.BooleanOperation) -> cst.BaseExpression:
        op = cst.BitAnd() if isinstance(original.operator, cst.And) else cst.BitOr()
        return cst.BinaryOperation(left=_paren(updated.left), operator=op, right=_paren(updated.right), lpar=updated.lpar, rpar=updated.rpar)

    def leave_UnaryOperation(self, original: cst.UnaryOperation, updated: cst.UnaryOperation) -> cst.BaseExpression:
        if isinstance(original.operator, cst.Not):
            return cst.UnaryOperation(operator=cst.BitInvert(), expression=_paren(updated.expression), lpar=updated.lpar, rpar=updated.rpar)
        return updated


_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def _bare(expr: cst.BaseExpression) -> cst.BaseExpression:
    return expr.with_changes(lpar=(), rpar=()) if getattr(expr, "lpar", None) else expr


def _paren(expr: cst.BaseExpression) -> cst.BaseExpression:
    if getattr(expr, "lpar", None) or isinstance(expr, (cst.Name, cst.Call, cst.Attribute, cst.Subscript, cst.UnaryOperation)):
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _pure(expr: cst.BaseExpression) -> bool:
    """Safe to evaluate twice (the middle of a chained comparison is duplicated): no calls."""
    return not any(isinstance(n, (cst.Call, cst.NamedExpr, cst.Await, cst.Yield, cst.Lambda)) for n in C.walk(expr))


def _boolean(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Comparison):
        return True
    if isinstance(expr, cst.BooleanOperation):
        return _boolean(expr.left) and _boolean(expr.right)
    return isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not) and _boolean(expr.expression)


def _is_target(analyzer: FileAnalyzer, name: cst.Name) -> bool:
    parent = analyzer.parents.get(name)
    if isinstance(parent, cst.AssignTarget) or (isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is name):
        return True
    return isinstance(parent, (cst.For, cst.CompFor)) and parent.target is name


def _simple(stmt: cst.BaseStatement) -> cst.BaseSmallStatement | None:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        return stmt.body[0]
    return None


def _header(analyzer: FileAnalyzer, loop: cst.For) -> tuple[RangeInfo, str, dict[str, cst.BaseExpression]] | None:
    """The range, the index name and the element names of ``for i in range(...)`` or
    ``for i, v in enumerate(x)`` (``v`` is ``x[i]``)."""
    if isinstance(loop.target, cst.Name):
        rng = range_info(loop.iter)
        return (rng, loop.target.value, {}) if rng is not None and rng.start == 0 else None
    target, iterable = loop.target, loop.iter
    if not (isinstance(target, cst.Tuple) and len(target.elements) == 2 and all(isinstance(e.value, cst.Name) for e in target.elements)):
        return None
    if not (isinstance(iterable, cst.Call) and C.call_name(iterable.func) == ["enumerate"] and len(iterable.args) == 1):
        return None
    array = iterable.args[0].value
    if iterable.args[0].keyword or iterable.args[0].star or not isinstance(array, (cst.Name, cst.Attribute)):
        return None
    if analyzer.context.inference.kind(array).tag is not Tag.ARRAY:
        return None
    index, element = (e.value.value for e in target.elements)  # type: ignore[attr-defined]
    length = cst.Call(func=cst.Name("len"), args=[cst.Arg(array)])
    return RangeInfo(length, False, 0), index, {element: array}


def _temporaries(plan: LoopPlan, body: list[cst.BaseStatement]) -> list[cst.Assign] | None:
    """Leading ``a = <elementwise in i>`` statements (each name bound once in the loop); they
    become vector statements ahead of the writes. None when one cannot."""
    temps: list[cst.Assign] = []
    targets = [n.value for n in C.walk(plan.loop.body) if isinstance(n, cst.Name) and _is_target(plan.analyzer, n)]
    while len(body) > 1:
        small = _simple(body[0])
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)):
            break
        name = small.targets[0].target
        if targets.count(name.value) != 1 or not plan.elementwise(small.value):
            return None
        if not only_used_in(plan.analyzer, name, plan.loop, name.value):
            return None  # read after the loop: it would be the vector, not the last element
        plan.temps.add(name.value)
        temps.append(small)
        body.pop(0)
    return temps


def _branches(statement: cst.If) -> tuple[list[tuple[cst.BaseExpression, cst.BaseStatement]], cst.BaseStatement | None] | None:
    """``if``/``elif``/``else`` with one statement per branch: [(test, statement)], else."""
    branches: list[tuple[cst.BaseExpression, cst.BaseStatement]] = []
    node: cst.If | cst.Else | None = statement
    while isinstance(node, cst.If):
        if not isinstance(node.body, cst.IndentedBlock) or len(node.body.body) != 1:
            return None
        branches.append((node.test, node.body.body[0]))
        node = node.orelse
    if node is None:
        return branches, None
    if not isinstance(node.body, cst.IndentedBlock) or len(node.body.body) != 1:
        return None
    return branches, node.body.body[0]


def _vectorize_loop(analyzer: FileAnalyzer, loop: cst.For) -> Edit | None:
    if loop.orelse is not None or loop.asynchronous is not None:
        return None
    header = _header(analyzer, loop)
    xp = C.array_namespace_alias(analyzer, loop)
    if header is None or xp is None or not isinstance(loop.body, cst.IndentedBlock):
        return None
    rng, index, elements = header
    plan = LoopPlan(analyzer, loop, rng, xp, index, elements)
    plan.diagonal = True
    if plan.index in C.names_in(rng.stop) or not index_unused_after(analyzer, loop):
        return None
    code = analyzer.module.code_for_node
    body = list(loop.body.body)
    temps = _temporaries(plan, body)
    if temps is None:
        return None
    new: list[cst.BaseStatement] = [
        cst.SimpleStatementLine(body=[t.with_changes(value=plan.vectorized(t.value))]) for t in temps
    ]
    if len(body) == 1 and isinstance(body[0], cst.If):
        chain = _masked_write(plan, body[0])
        if chain is None:
            return None
        new.append(chain)
        return C.replace_statements(analyzer, loop, loop, new)
    writes = _writes(body)
    if writes is None or not writes:
        return None
    written_arrays = {code(_bare(_target(w).value)) for w in writes if isinstance(_target(w), cst.Subscript)}  # type: ignore[union-attr]
    mirrored = {code(_bare(n.value)) for w in writes for n in C.walk(w.value) if plan.mirror_access(n)}  # type: ignore[union-attr]
    if written_arrays & mirrored:
        return None  # the loop reads back what it already overwrote; the flip would not
    for small in writes:
        target = _target(small)
        if not _element_write(plan, small):
            return None
        lhs = plan.written(target)  # type: ignore[arg-type]
        value = plan.vectorized(small.value)
        if isinstance(small, cst.AugAssign):
            statement: cst.BaseSmallStatement = small.with_changes(target=lhs, value=value)
        else:
            statement = small.with_changes(targets=[cst.AssignTarget(lhs)], value=value)
        new.append(cst.SimpleStatementLine(body=[statement]))
    return C.replace_statements(analyzer, loop, loop, new)


def _element_write(plan: LoopPlan, small: cst.Assign | cst.AugAssign) -> bool:
    target = _target(small)
    if not (isinstance(target, cst.Subscript) and plan.element_access(target)) or not plan.elementwise(small.value):
        return False
    return not any(plan.element_access(n) and n is not target for n in C.walk(target))


def _masked_write(plan: LoopPlan, statement: cst.If) -> cst.SimpleStatementLine | None:
    """An ``if``/``elif``/``else`` whose branches each write the same element: one write of
    nested ``xp.where``; a missing ``else`` keeps the current values."""
    found = _branches(statement)
    if found is None:
        return None
    branches, default = found
    code = plan.analyzer.module.code_for_node
    writes = [_writes([s]) for _, s in branches] + ([_writes([default])] if default is not None else [])
    if any(w is None or len(w) != 1 for w in writes):
        return None
    smalls = [w[0] for w in writes]  # type: ignore[index]
    target = _target(smalls[0])
    if not isinstance(target, cst.Subscript) or any(code(_target(w)) != code(target) for w in smalls):
        return None
    if not all(_element_write(plan, w) for w in smalls):
        return None
    tests = [test for test, _ in branches]
    if not all(_boolean(t) and plan.elementwise(t) for t in tests):
        return None
    read = {code(_bare(n.value)) for t in tests for n in C.walk(t) if isinstance(n, cst.Subscript)}
    if code(_bare(target.value)) in read:
        return None  # the mask would change while the loop runs
    current = plan.diagonal_of(target) if len(target.slice) > 1 else plan.block(target.value)

    def branch_value(small: cst.Assign | cst.AugAssign) -> cst.BaseExpression:
        value = plan.vectorized(small.value)
        if isinstance(small, cst.AugAssign):
            return cst.BinaryOperation(left=current, operator=_BINARY[type(small.operator)](), right=_paren(value))
        return value

    result = branch_value(smalls[-1]) if default is not None else current
    for test, small in reversed(list(zip(tests, smalls))):
        result = cst.Call(
            func=cst.Attribute(value=cst.Name(plan.xp), attr=cst.Name("where")),
            args=[cst.Arg(_bare(plan.vectorized(test))), cst.Arg(_bare(branch_value(small))), cst.Arg(result)],
        )
    return cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(plan.written(target))], value=result)])


_BINARY = {
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide, cst.FloorDivideAssign: cst.FloorDivide, cst.ModuloAssign: cst.Modulo,
    cst.PowerAssign: cst.Power, cst.BitAndAssign: cst.BitAnd, cst.BitOrAssign: cst.BitOr, cst.BitXorAssign: cst.BitXor,
}


def _target(small: cst.Assign | cst.AugAssign) -> cst.BaseExpression:
    return small.targets[0].target if isinstance(small, cst.Assign) else small.target


def _writes(body: list[cst.BaseStatement] | tuple[cst.BaseStatement, ...]) -> list[cst.Assign | cst.AugAssign] | None:
    out: list[cst.Assign | cst.AugAssign] = []
    for stmt in body:
        small = _simple(stmt)
        if isinstance(small, cst.Assign) and len(small.targets) == 1 or isinstance(small, cst.AugAssign) and type(small.operator) in _BINARY:
            out.append(small)
        else:
            return None
    return out
