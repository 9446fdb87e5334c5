"""Running sums and products carried through a loop (SL101, SL102) become one scan.

What it rewrites
    An accumulator set just before a loop, updated from element ``k`` and written to element
    ``k`` of an array on every trip, is an inclusive scan: a cumulative sum (or product) read
    forward, or backward for a reversed loop::

        acc = 0.0                                  dx[:len(x)] = xp.flip(
        for k in reversed(range(len(x))):     ->       xp.cumsum(xp.flip(dy[:len(x)], axis=0), axis=0),
            acc = acc + dy[k]                          axis=0)
            dx[k] = acc

    This is the pullback of ``cumsum`` as a Python loop: one kernel launch and one sync per
    element become three kernels. A start other than ``0`` (``1`` for a product) is kept:
    ``acc = c`` gives ``c + xp.cumsum(...)`` (``c * xp.cumprod(...)``). The scan is along the
    first axis, so an accumulator of rows (``acc = acc + G[k]`` with ``G`` 2-D) works too.

When it is offered
    The loop runs over ``range(n)`` or ``reversed(range(n))`` (or ``range(n - 1, -1, -1)``)
    without ``else``/``break``/``continue``; the statement just before it sets the accumulator
    to a number; the body is exactly the update (``acc = acc + v``, ``acc = v + acc``,
    ``acc += v``, or the same with ``*``) followed by the write ``t[k] = acc``; ``v`` is
    elementwise in ``k`` and reads neither the accumulator nor ``t``; neither the accumulator
    nor ``k`` is used after the loop; an array module alias is in scope. Comments in the loop
    are kept above the scan.

Applicability
    Unsafe, for the element loop's reasons (arrays at least ``n`` long, no overlapping views),
    and because a scan of an integer array stays integer where ``acc = 0.0`` made the loop's
    sums floats (the write into ``t`` casts both to ``t``'s dtype, so this matters only when
    ``t`` is an integer array and the sums are not whole).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.loop_range import range_info
from scalarlint.analysis.syntax import call_name
from scalarlint.diagnostics import Applicability, Fix

from . import loop_obstacles
from .cst_helpers import names_in
from .edits import bare, xp_call
from .loop_names import index_unused_after, loops_around, only_used_in
from .loop_plan import LoopPlan, single_small_statement
from .namespaces import array_namespace_alias
from .outcomes import Declined
from .statements import block_siblings, replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

MESSAGE = "Replace the running {kind} loop with one `{scan}` along the first axis"
REDUCTION_MESSAGE = "Replace the {kind} loop with one `{scan}` along the first axis"

# operator of the update -> (scan function, the start that needs no correction, the operator that applies a start)
_SCANS: dict[type[cst.BaseBinaryOp], tuple[str, float, type[cst.BaseBinaryOp]]] = {
    cst.Add: ("cumsum", 0, cst.Add),
    cst.Multiply: ("cumprod", 1, cst.Multiply),
}
_AUGMENTED = {cst.AddAssign: cst.Add, cst.MultiplyAssign: cst.Multiply}



def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix] | Declined:
    """The fix, or why there is none: what stops a vector form of the loop around the
    finding (``loop_obstacles``)."""
    return _fixes(finding, analyzer) or loop_obstacles.declined(finding, analyzer) or []


def _fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    loops = loops_around(analyzer, finding.node)
    if not loops or not isinstance(loops[0], cst.For) or any(analyzer.context.is_data_loop(o) for o in loops[1:]):
        return []
    rewrite = _rewrite(analyzer, loops[0])
    if rewrite is None:
        return []
    init, statement, scan = rewrite
    edit = replace_statements(analyzer, init, loops[0], [statement])
    if edit is None:
        return []
    kind = "sum" if scan in ("cumsum", "sum") else "product"
    message = MESSAGE if scan.startswith("cum") else REDUCTION_MESSAGE
    return [Fix(Applicability.UNSAFE, message.format(kind=kind, scan=scan), (edit,))]


def _rewrite(analyzer: AnalyzedFile, loop: cst.For) -> tuple[cst.SimpleStatementLine, cst.SimpleStatementLine, str] | None:
    """(the accumulator's initialisation, the statement replacing it and the loop, the scan)."""
    if loop.orelse is not None or loop.asynchronous is not None or not isinstance(loop.target, cst.Name):
        return None
    rng = range_info(loop.iter)
    if rng is None or rng.start != 0 or not isinstance(loop.body, cst.IndentedBlock) or len(loop.body.body) not in (1, 2):
        return None
    init = _previous_statement(analyzer, loop)
    start = numeric_start(init)
    if init is None or start is None:
        return None
    accumulator, start_value = start
    xp = array_namespace_alias(analyzer, loop)
    if xp is None:
        return None
    plan = LoopPlan(analyzer, loop, rng, xp)
    if plan.index in names_in(rng.stop) or not index_unused_after(analyzer, loop):
        return None
    update = accumulator_update(single_small_statement(loop.body.body[0]), accumulator)
    if len(loop.body.body) == 1:
        return _reduction(analyzer, plan, init, update, start_value)
    write = single_small_statement(loop.body.body[1])
    if update is None or not isinstance(write, cst.Assign) or len(write.targets) != 1:
        return None
    operator, value = update
    target = write.targets[0].target
    if not (isinstance(write.value, cst.Name) and write.value.value == accumulator):
        return None
    if not (isinstance(target, cst.Subscript) and plan.element_access(target) and isinstance(target.value, cst.Name)):
        return None
    if target.value.value in names_in(value) or not plan.elementwise(value):
        return None
    if not only_used_in(analyzer, init.body[0].targets[0].target, loop, accumulator):  # type: ignore[attr-defined]
        return None
    scan, neutral, combine = _SCANS[operator]
    operand: cst.BaseExpression = plan.vectorized(value)
    if rng.reverse:
        operand = xp_call(xp, "flip", bare(operand), axis=0)
    result: cst.BaseExpression = xp_call(xp, scan, bare(operand), axis=0)
    if rng.reverse:
        result = xp_call(xp, "flip", result, axis=0)
    if start_value != neutral:
        result = cst.BinaryOperation(left=init.body[0].value, operator=combine(), right=result)  # type: ignore[attr-defined]
    assign = cst.Assign(targets=[cst.AssignTarget(plan.target(target.value))], value=result)
    return init, cst.SimpleStatementLine(body=[assign]), scan


def _reduction(analyzer: AnalyzedFile, plan: LoopPlan, init: cst.SimpleStatementLine, update, start: float):  # type: ignore[no-untyped-def]
    """``acc = 0.0; for k in range(n): acc += v`` -> ``acc = xp.sum(v, axis=0)``.

    The accumulator lives on after the loop (it is the result). ``float(...)``/``int(...)``
    around the added value are dropped: they copied each element to the host, and the sum
    is now a 0-d device value like every other reduction result.
    """
    if update is None:
        return None
    operator, value = update
    value = _unwrapped(value)
    if not plan.elementwise(value) or plan.index in names_in(plan.rng.stop):
        return None
    _, neutral, combine = _SCANS[operator]
    reduce = "sum" if operator is cst.Add else "prod"
    result: cst.BaseExpression = xp_call(plan.xp, reduce, bare(plan.vectorized(value)), axis=0)
    if start != neutral:
        result = cst.BinaryOperation(left=init.body[0].value, operator=combine(), right=result)  # type: ignore[attr-defined]
    name = init.body[0].targets[0].target  # type: ignore[attr-defined]
    assign = cst.Assign(targets=[cst.AssignTarget(cst.Name(name.value))], value=result)
    return init, cst.SimpleStatementLine(body=[assign]), reduce


def _unwrapped(value: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(value, cst.Call) and call_name(value.func) in (["float"], ["int"]) and len(value.args) == 1 and not value.args[0].keyword:
        return value.args[0].value
    return value






def _previous_statement(analyzer: AnalyzedFile, loop: cst.For) -> cst.SimpleStatementLine | None:
    siblings = block_siblings(analyzer, loop)
    if siblings is None:
        return None
    position = next((i for i, s in enumerate(siblings) if s is loop), None)
    if not position:
        return None
    before = siblings[position - 1]
    return before if isinstance(before, cst.SimpleStatementLine) else None


def numeric_start(init: cst.SimpleStatementLine | None) -> tuple[str, float] | None:
    """``acc = 0.0`` (or any number, signed): the accumulator's name and its start."""
    small = single_small_statement(init) if init is not None else None
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)):
        return None
    value = small.value
    sign = 1.0
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value, sign = value.expression, -1.0
    if isinstance(value, (cst.Integer, cst.Float)) and not value.lpar:
        return small.targets[0].target.value, sign * float(value.evaluated_value)
    return None


def accumulator_update(small: cst.BaseSmallStatement | None, accumulator: str) -> tuple[type[cst.BaseBinaryOp], cst.BaseExpression] | None:
    """``acc = acc + v``, ``acc = v + acc`` or ``acc += v`` (and ``*``): the operator and ``v``."""
    if isinstance(small, cst.AugAssign) and type(small.operator) in _AUGMENTED:
        if isinstance(small.target, cst.Name) and small.target.value == accumulator:
            return _AUGMENTED[type(small.operator)], small.value
        return None
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
        return None
    target, value = small.targets[0].target, small.value
    if not (isinstance(target, cst.Name) and target.value == accumulator and isinstance(value, cst.BinaryOperation)):
        return None
    if type(value.operator) not in _SCANS or value.lpar:
        return None
    left, right = value.left, value.right
    if isinstance(left, cst.Name) and left.value == accumulator:
        return type(value.operator), right
    if isinstance(right, cst.Name) and right.value == accumulator:
        return type(value.operator), left
    return None
