"""Per-element suffix and prefix sums (SL101, SL102, SL104) become one cumulative sum.

What it rewrites
    An outer loop that, for each ``i``, sums an elementwise value over ``k >= i`` (or
    ``k <= i``) in an inner loop and then writes element ``i``: ``n`` inner loops of up to
    ``n`` trips, a quadratic number of launches, for what is one scan::

        for i in range(n):                          s = xp.flip(xp.cumsum(xp.flip(dy[:n] * y[:n], axis=0), axis=0), axis=0)
            s = 0.0                          ->     dx[:n] = s / x[:n]
            for k in range(i, n):
                s += dy[k] * y[k]
            dx[i] = s / x[i]

    A prefix (``for k in range(i + 1)``) is ``xp.cumsum`` without the flips; a start ``c``
    other than ``0`` is added. This is the pullback of ``cumprod`` as ChainRules writes it.

When it is offered
    The outer loop runs over ``range(n)`` from 0; its body is exactly the start (``s = <number>``),
    the inner loop (``range(i, n)`` with the same ``n``, or ``range(i + 1)``/``range(0, i + 1)``)
    whose body is one ``s += v`` (or ``s = s + v``), and element writes of ``i`` that use ``s``;
    ``v`` is elementwise in ``k`` and reads neither ``i`` nor ``s``; ``s``, ``i`` and ``k`` are
    not used after the loop; an array module alias is in scope.

Applicability
    Unsafe: the element loop's assumptions (arrays at least ``n`` long, no overlapping views),
    and the sums are accumulated in scan order, so their last bits can differ from the loop's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.loop_range import RangeInfo, range_info
from scalarlint.analysis.syntax import call_name, integer_value
from scalarlint.diagnostics import Applicability, Fix

from .cst_helpers import names_in
from .edits import bare, xp_call
from .element_loop import element_writes, is_element_write, write_target
from .loop_names import index_unused_after, loops_around, only_used_in
from .loop_plan import LoopPlan, single_small_statement
from .namespaces import array_namespace_alias
from .running_scan import accumulator_update, numeric_start
from .statements import replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

MESSAGE = "Replace the per-element {kind} sums with one cumulative sum"


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    loops = loops_around(analyzer, finding.node)
    for loop in loops:
        if isinstance(loop, cst.For):
            rewritten = _rewrite(analyzer, loop)
            if rewritten is not None:
                edit, kind = rewritten
                return [Fix(Applicability.UNSAFE, MESSAGE.format(kind=kind), (edit,))]
    return []


def _inner_range(inner: cst.For, index: str, stop: str, code) -> str | None:  # type: ignore[no-untyped-def]
    """``suffix`` for ``range(i, n)``, ``prefix`` for ``range(i + 1)``/``range(0, i + 1)``."""
    call = inner.iter
    if not (isinstance(call, cst.Call) and call_name(call.func) == ["range"] and all(not a.keyword and not a.star for a in call.args)):
        return None
    args = [a.value for a in call.args]
    if len(args) == 2 and isinstance(args[0], cst.Name) and args[0].value == index and code(args[1]) == stop:
        return "suffix"
    bound = args[-1] if len(args) == 1 or len(args) == 2 and integer_value(args[0]) == 0 else None
    if (
        isinstance(bound, cst.BinaryOperation) and isinstance(bound.operator, cst.Add)
        and isinstance(bound.left, cst.Name) and bound.left.value == index and integer_value(bound.right) == 1
    ):
        return "prefix"
    return None


def _rewrite(analyzer: AnalyzedFile, loop: cst.For) -> tuple[cst.CSTNode, str] | None:  # type: ignore[return]
    if loop.orelse is not None or not isinstance(loop.target, cst.Name) or not isinstance(loop.body, cst.IndentedBlock):
        return None
    rng = range_info(loop.iter)
    xp = array_namespace_alias(analyzer, loop)
    if rng is None or rng.start != 0 or rng.reverse or xp is None or len(loop.body.body) < 3:
        return None
    body = list(loop.body.body)
    init, inner = body[0], body[1]
    start = numeric_start(init) if isinstance(init, cst.SimpleStatementLine) else None
    if start is None or not isinstance(inner, cst.For) or inner.orelse is not None or not isinstance(inner.target, cst.Name):
        return None
    total, start_value = start
    code = analyzer.module.code_for_node
    kind = _inner_range(inner, loop.target.value, code(rng.stop), code)
    if kind is None or not isinstance(inner.body, cst.IndentedBlock) or len(inner.body.body) != 1:
        return None
    update = accumulator_update(single_small_statement(inner.body.body[0]), total)
    if update is None or update[0] is not cst.Add:
        return None
    inner_plan = LoopPlan(analyzer, inner, RangeInfo(rng.stop, False, 0), xp)
    value = update[1]
    if {loop.target.value, total} & names_in(value) or not inner_plan.elementwise(value):
        return None
    plan = LoopPlan(analyzer, loop, rng, xp)
    plan.temps.add(total)
    writes = element_writes(body[2:])
    if not writes or not all(is_element_write(plan, w) for w in writes) or not all(isinstance(write_target(w), cst.Subscript) for w in writes):
        return None
    if not index_unused_after(analyzer, loop) or not only_used_in(analyzer, inner.target, loop, inner.target.value):
        return None
    if not only_used_in(analyzer, init.body[0].targets[0].target, loop, total):  # type: ignore[union-attr]
        return None
    def call(function: str, argument: cst.BaseExpression) -> cst.Call:
        return xp_call(xp, function, argument, axis=0)

    operand = bare(inner_plan.vectorized(value))
    scan: cst.BaseExpression = call("flip", call("cumsum", call("flip", operand))) if kind == "suffix" else call("cumsum", operand)
    if start_value != 0:
        scan = cst.BinaryOperation(left=init.body[0].value, operator=cst.Add(), right=scan)  # type: ignore[union-attr]
    statements = [cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(total))], value=scan)])]
    for small in writes:
        lhs = plan.written(write_target(small))  # type: ignore[arg-type]
        new_value = plan.vectorized(small.value)
        new = small.with_changes(target=lhs, value=new_value) if isinstance(small, cst.AugAssign) else small.with_changes(
            targets=[cst.AssignTarget(lhs)], value=new_value
        )
        statements.append(cst.SimpleStatementLine(body=[new]))
    edit = replace_statements(analyzer, loop, loop, statements)
    return (edit, kind) if edit is not None else None
