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
    it is longer. ``+=`` and the other augmented writes are kept. Beyond ``a[i]`` the loop
    plan (``loop_plan``) reads the diagonal ``A[i, i]`` as ``A[xp.arange(n), xp.arange(n)]``,
    the mirror ``a[n - 1 - i]`` as ``xp.flip(a[:n])``, a neighbour ``a[i - 1]`` in ``range(1, n)`` as
    the shifted slice ``a[:n - 1]`` (never below index 0: ``a[-1]`` would wrap), ``x.flat[i]`` as
    ``xp.reshape(x, (-1,))``, ``b if c else d`` as ``xp.where(c, b, d)``, a column reduction
    ``xp.argmax(A[:, j])`` as ``xp.argmax(A[:, :n], axis=0)`` and ``A[r, j]`` (``r`` such a
    temporary) as ``A[r, xp.arange(n)]``.

    ``for i, v in enumerate(x)`` is ``range(len(x))`` with ``v`` read as ``x``. Leading
    temporaries (``a = v[i]``) become vector statements. An ``if``/``elif``/``else`` whose
    branches each write the same element becomes one write of nested ``xp.where``; a missing
    ``else`` keeps the current values::

        for i, v in enumerate(x):                dx[:len(x)] = xp.where(x > 0, dy[:len(x)],
            if v > 0:                       ->                   xp.where(x < 0, -dy[:len(x)], dx[:len(x)]))
                dx[i] = dy[i]
            elif v < 0:
                dx[i] = -dy[i]

    (``and``/``or``/``not`` become ``&``/``|``/``~``, chained comparisons a conjunction.)
    A write ``t.flat[i] = v`` over ``range(x.size)``, with ``t`` made by ``xp.zeros_like(x)``,
    writes every element: ``t[...] = xp.reshape(v, t.shape)``.

When it is offered
    Every subscript in the loop indexes an array by one of the forms above (so each
    iteration touches its own element and the order of iterations does not matter), values
    are elementwise (arithmetic, comparisons, elementwise array functions, builtin ``abs``),
    everything else is loop-invariant, the loop variable and the temporaries are not used
    after the loop, the loop has no ``else``/``break``/``continue``, a test does not read an
    array the loop writes, and an array module alias is in scope. The loop runs over a data
    size (``len(x)``, ``x.shape[0]``, an ``int`` parameter, a dimension unpacked from
    ``x.shape``): ``range(n)``, ``range(0, n)`` or their ``reversed``.

Applicability
    Unsafe. Each element gets the same value as in the loop, but the fix assumes the arrays
    do not overlap in memory (a view ``b = a[1:]`` written while ``a`` is read would see
    updated values in the loop and old ones in the vector form), that the arrays written and
    read have at least ``n`` elements along their first axis (the loop would raise
    ``IndexError`` otherwise; slices do not), and a masked write evaluates the value on every
    element, which may warn (``1 / 0``) where the loop skipped it. A scatter ``A[r, j]`` with
    repeated positions keeps one of the values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.kinds import Origin
from scalarlint.analysis.loop_range import RangeInfo, range_info
from scalarlint.analysis.syntax import call_name
from scalarlint.analysis.tree import walk
from scalarlint.diagnostics import Applicability, Edit, Fix

from . import loop_obstacles
from .array_evidence import known_array
from .cst_helpers import assignments_of, binding_value, names_in
from .edits import bare, parenthesized, replace_expression, xp_call
from .elementwise import module_function
from .loop_names import index_unused_after, only_used_in
from .loop_plan import LoopPlan, is_assignment_target, is_boolean, single_small_statement
from .namespaces import array_namespace_alias
from .outcomes import Declined
from .statements import replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

MESSAGE = "Vectorize the element loop into whole-array statements"



def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix] | Declined:
    """The fix, or why there is none: what stops a vector form of the loop around the
    finding (``loop_obstacles``)."""
    return _fixes(finding, analyzer) or loop_obstacles.declined(finding, analyzer) or []


def _fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    ctx = analyzer.context
    loops = ctx.enclosing_loops(finding.node)
    if not loops or not isinstance(loops[0], cst.For) or not _over_data(analyzer, loops[0]):
        return []
    if any(ctx.is_data_loop(outer) for outer in loops[1:]):
        return []  # a nest of data loops: not one element per iteration
    edits = _vectorize_loop(analyzer, loops[0])
    if edits is None:
        return []
    return [Fix(Applicability.UNSAFE, MESSAGE, edits if isinstance(edits, tuple) else (edits,))]


def _over_data(analyzer: AnalyzedFile, loop: cst.For) -> bool:
    """A loop over data, or over a dimension unpacked from a shape (``m, n = A.shape``): the
    checker calls the latter an element loop (SL104) when its body indexes arrays by it."""
    if analyzer.context.is_data_loop(loop):
        return True
    iterable = loop.iter
    if isinstance(iterable, cst.Call) and call_name(iterable.func) == ["reversed"] and iterable.args:
        iterable = iterable.args[0].value
    return isinstance(iterable, cst.Call) and analyzer.context.inference.range_over_data(iterable, least=Origin.SIZE)


def _header(analyzer: AnalyzedFile, loop: cst.For) -> tuple[RangeInfo, str, dict[str, cst.BaseExpression]] | None:
    """The range, the index name and the element names of ``for i in range(...)`` or
    ``for i, v in enumerate(x)`` (``v`` is ``x[i]``)."""
    if isinstance(loop.target, cst.Name):
        rng = range_info(loop.iter)
        return (rng, loop.target.value, {}) if rng is not None and (rng.start == 0 or not rng.reverse) else None
    target, iterable = loop.target, loop.iter
    if not (isinstance(target, cst.Tuple) and len(target.elements) == 2 and all(isinstance(e.value, cst.Name) for e in target.elements)):
        return None
    if not (isinstance(iterable, cst.Call) and call_name(iterable.func) == ["enumerate"] and len(iterable.args) == 1):
        return None
    array = iterable.args[0].value
    if iterable.args[0].keyword or iterable.args[0].star or not isinstance(array, (cst.Name, cst.Attribute)):
        return None
    if not known_array(analyzer, array):
        return None
    index, element = (e.value.value for e in target.elements)  # type: ignore[attr-defined]
    length = cst.Call(func=cst.Name("len"), args=[cst.Arg(array)])
    return RangeInfo(length, False, 0), index, {element: array}


def _temporaries(plan: LoopPlan, body: list[cst.BaseStatement]) -> list[cst.Assign] | None:
    """Leading ``a = <elementwise in i>`` statements (each name bound once in the loop); they
    become vector statements ahead of the writes. None when one cannot."""
    temps: list[cst.Assign] = []
    targets = [n.value for n in walk(plan.loop.body) if isinstance(n, cst.Name) and is_assignment_target(plan.analyzer, n)]
    while len(body) > 1:
        small = single_small_statement(body[0])
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


def _vectorize_loop(analyzer: AnalyzedFile, loop: cst.For) -> Edit | tuple[Edit, ...] | None:
    if loop.orelse is not None or loop.asynchronous is not None:
        return None
    header = _header(analyzer, loop)
    xp = array_namespace_alias(analyzer, loop)
    if header is None or xp is None or not isinstance(loop.body, cst.IndentedBlock):
        return None
    rng, index, elements = header
    plan = LoopPlan(analyzer, loop, rng, xp, index, elements)
    plan.diagonal = True
    if plan.index in names_in(rng.stop) or not index_unused_after(analyzer, loop):
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
        return replace_statements(analyzer, loop, loop, new)
    writes = element_writes(body)
    if writes is None or not writes:
        return None
    written_arrays = {code(bare(write_target(w).value)) for w in writes if isinstance(write_target(w), cst.Subscript)}  # type: ignore[union-attr]
    moved = {
        code(bare(n.value))  # type: ignore[union-attr]
        for w in writes for n in walk(w.value)
        if plan.mirror_access(n) or plan.shifted_access(n) is not None
    }
    if written_arrays & moved:
        return None  # the loop reads back what it already overwrote (a recurrence); the slices would not
    for small in writes:
        target = write_target(small)
        if not is_element_write(plan, small):
            return None
        lhs = plan.written(target)  # type: ignore[arg-type]
        value = plan.vectorized(small.value)
        if plan.flat_array(target.value) is not None:  # type: ignore[attr-defined]
            flat_write = _whole_flat_write(plan, target, value)  # type: ignore[arg-type]
            if flat_write is None:
                return None
            lhs, value = flat_write
        if isinstance(small, cst.AugAssign):
            statement: cst.BaseSmallStatement = small.with_changes(target=lhs, value=value)
        else:
            statement = small.with_changes(targets=[cst.AssignTarget(lhs)], value=value)
        new.append(cst.SimpleStatementLine(body=[statement]))
    edit = replace_statements(analyzer, loop, loop, new)
    if edit is None:
        return None
    allocations = [_host_allocation(plan, write_target(w)) for w in writes]
    extra = tuple(dict.fromkeys(a for a in allocations if a is not None))
    return (edit, *extra) if extra else edit


def _whole_flat_write(plan: LoopPlan, target: cst.Subscript, value: cst.BaseExpression) -> tuple[cst.Subscript, cst.BaseExpression] | None:
    """``t.flat[i] = v`` over ``range(x.size)``, with ``t`` made by ``xp.zeros_like(x)`` (or
    ``empty_like``/``ones_like``/``full_like``): every element of ``t`` is written, so
    ``t[...] = xp.reshape(v, t.shape)``."""
    array = plan.flat_array(target.value)
    code = plan.analyzer.module.code_for_node
    if not isinstance(array, cst.Name) or plan.whole is None or not plan.whole.endswith(".flat"):
        return None
    assignments = assignments_of(plan.analyzer, array)
    if not assignments or len(assignments) != 1:
        return None
    made = binding_value(plan.analyzer, assignments[0].node)
    if not (isinstance(made, cst.Call) and made.args and module_function(plan.analyzer, made) in _LIKE):
        return None
    if code(made.args[0].value) + ".flat" != plan.whole:
        return None  # t must have the shape of the x whose size the loop runs over
    everything = cst.Subscript(value=array, slice=[cst.SubscriptElement(slice=cst.Index(cst.Ellipsis()))])
    shape = cst.Attribute(value=array, attr=cst.Name("shape"))
    reshape = xp_call(plan.xp, "reshape", bare(value), shape)
    return everything, reshape


_LIKE = ("zeros_like", "empty_like", "ones_like", "full_like")


_ALLOCATIONS = ("empty", "zeros", "ones", "full")


def _host_allocation(plan: LoopPlan, target: cst.BaseExpression) -> Edit | None:
    """``out = np.empty(n)`` (NumPy itself, not the rule's array module) for an array the loop
    fills from device values: allocate it like the array the loop runs over
    (``np.empty(n, like=x)``, NEP 35), so the whole-array write stays on the device. The loop
    wrote element by element into a host array; the vector form would copy to the host."""
    base = target.value if isinstance(target, cst.Subscript) else None
    array = plan.rng.stop.args[0].value if isinstance(plan.rng.stop, cst.Call) and plan.rng.stop.args else None  # len(x)
    if isinstance(plan.rng.stop, cst.Subscript) and isinstance(plan.rng.stop.value, cst.Attribute):
        array = plan.rng.stop.value.value  # x.shape[0]
    if not isinstance(base, cst.Name) or not isinstance(array, cst.Name):
        return None
    assignments = assignments_of(plan.analyzer, base)
    if not assignments or len(assignments) != 1:
        return None
    call = binding_value(plan.analyzer, assignments[0].node)
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name)):
        return None
    if call.func.attr.value not in _ALLOCATIONS or any(a.keyword and a.keyword.value == "like" for a in call.args):
        return None
    scope = plan.analyzer.scopes.get(call.func.value)
    qualified = {q.name for q in scope.get_qualified_names_for(call.func.value)} if scope is not None else set()
    if qualified != {"numpy"}:
        return None  # the rule's own namespace (or CuPy) already allocates on the right device
    like = cst.Arg(array, keyword=cst.Name("like"), equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))
    args = [*call.args[:-1], call.args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), like]
    return replace_expression(plan.analyzer, call, call.with_changes(args=args))


def is_element_write(plan: LoopPlan, small: cst.Assign | cst.AugAssign) -> bool:
    """Whether ``small`` writes element ``i`` of an array from an elementwise value of the loop."""
    target = write_target(small)
    if not isinstance(target, cst.Subscript) or not plan.elementwise(small.value):
        return False
    if plan.per_column_access(target):
        return True
    if not plan.element_access(target):
        return False
    return not any(plan.element_access(n) and n is not target for n in walk(target))


def _masked_write(plan: LoopPlan, statement: cst.If) -> cst.SimpleStatementLine | None:
    """An ``if``/``elif``/``else`` whose branches each write the same element: one write of
    nested ``xp.where``; a missing ``else`` keeps the current values."""
    found = _branches(statement)
    if found is None:
        return None
    branches, default = found
    code = plan.analyzer.module.code_for_node
    writes = [element_writes([s]) for _, s in branches] + ([element_writes([default])] if default is not None else [])
    if any(w is None or len(w) != 1 for w in writes):
        return None
    smalls = [w[0] for w in writes]  # type: ignore[index]
    target = write_target(smalls[0])
    if not isinstance(target, cst.Subscript) or any(code(write_target(w)) != code(target) for w in smalls):
        return None
    if not all(is_element_write(plan, w) for w in smalls):
        return None
    tests = [test for test, _ in branches]
    if not all(is_boolean(t) and plan.elementwise(t) for t in tests):
        return None
    read = {code(bare(n.value)) for t in tests for n in walk(t) if isinstance(n, cst.Subscript)}
    if code(bare(target.value)) in read:
        return None  # the mask would change while the loop runs
    current = plan.diagonal_of(target) if len(target.slice) > 1 else plan.block(target.value)

    def branch_value(small: cst.Assign | cst.AugAssign) -> cst.BaseExpression:
        value = plan.vectorized(small.value)
        if isinstance(small, cst.AugAssign):
            return cst.BinaryOperation(left=current, operator=_BINARY[type(small.operator)](), right=parenthesized(value))
        return value

    result = branch_value(smalls[-1]) if default is not None else current
    for test, small in reversed(list(zip(tests, smalls))):
        result = xp_call(plan.xp, "where", bare(plan.vectorized(test)), bare(branch_value(small)), result)
    return cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(plan.written(target))], value=result)])


_BINARY = {
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply,
    cst.DivideAssign: cst.Divide, cst.FloorDivideAssign: cst.FloorDivide, cst.ModuloAssign: cst.Modulo,
    cst.PowerAssign: cst.Power, cst.BitAndAssign: cst.BitAnd, cst.BitOrAssign: cst.BitOr, cst.BitXorAssign: cst.BitXor,
}


def write_target(small: cst.Assign | cst.AugAssign) -> cst.BaseExpression:
    """What an element write writes to: the assignment's one target, or the augmented target."""
    return small.targets[0].target if isinstance(small, cst.Assign) else small.target


def element_writes(body: list[cst.BaseStatement] | tuple[cst.BaseStatement, ...]) -> list[cst.Assign | cst.AugAssign] | None:
    """The body as element writes (one small assignment per line), None if it is anything else."""
    out: list[cst.Assign | cst.AugAssign] = []
    for stmt in body:
        small = single_small_statement(stmt)
        if isinstance(small, cst.Assign) and len(small.targets) == 1 or isinstance(small, cst.AugAssign) and type(small.operator) in _BINARY:
            out.append(small)
        else:
            return None
    return out
