"""``while`` searches for an index (SL103, SL101) become one ``argmax`` of a mask.

What it rewrites
    A ``while`` loop that steps an index from one end of an array until an element passes a
    test is a findfirst or findlast: one launch and one sync per element tested::

        i = v.shape[0] - 1                  ->  i = v.shape[0] - 1 - xp.argmax(xp.flip(xp.abs(v) == y, axis=0))
        while abs(v[i]) != y:
            i -= 1

        i = 0                               ->  i = xp.argmax(v > 0)
        while v[i] <= 0:
            i += 1

    The loop runs while the element does *not* match, so the mask is the test negated (a
    single comparison flips its operator; anything else gets ``~(...)``). ``argmax`` of a
    boolean mask is the first ``True``; on the flipped mask, the last.

When it is offered
    The statement before the loop sets the index to ``0`` (stepping ``+= 1``) or to ``n - 1``
    (stepping ``-= 1``, ``n`` being ``len(v)`` or ``v.shape[0]``); the body is exactly that step;
    the test is elementwise in ``v[i]`` (and loop-invariant values); there is no ``else``; an
    array module alias is in scope.

Applicability
    Unsafe, like the ``for`` search fixes: the index becomes a 0-d device array, and when no
    element matches, the loop runs off the end (an ``IndexError``, or for the backward search
    wraps to negative indices) where ``argmax`` of an all-false mask gives the first position
    searched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.loop_range import RangeInfo
from scalarlint.analysis.syntax import integer_value
from scalarlint.analysis.tree import walk
from scalarlint.diagnostics import Applicability, Fix

from .edits import xp_call
from .index_facts import index_names
from .loop_plan import LoopPlan, single_small_statement
from .mask_argmax import mask_argmax, needs_numeric_mask
from .namespaces import array_namespace_alias
from .statements import block_siblings, replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

MESSAGE = "Replace the `while` search with `argmax` of a mask on the device"
_NEGATED: dict[type[cst.BaseCompOp], type[cst.BaseCompOp]] = {
    cst.Equal: cst.NotEqual, cst.NotEqual: cst.Equal, cst.LessThan: cst.GreaterThanEqual,
    cst.GreaterThanEqual: cst.LessThan, cst.GreaterThan: cst.LessThanEqual, cst.LessThanEqual: cst.GreaterThan,
}


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    node: cst.CSTNode | None = finding.node
    while node is not None and not isinstance(node, cst.While):
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.For)):
            return []
        node = analyzer.parents.get(node)
    if node is None:
        return []
    rewritten = _rewrite(analyzer, node)
    return [Fix(Applicability.UNSAFE, MESSAGE, (rewritten,))] if rewritten is not None else []


def _rewrite(analyzer: AnalyzedFile, loop: cst.While):  # type: ignore[no-untyped-def]
    if loop.orelse is not None or not isinstance(loop.body, cst.IndentedBlock) or len(loop.body.body) != 1:
        return None
    step = single_small_statement(loop.body.body[0])
    if not (isinstance(step, cst.AugAssign) and isinstance(step.target, cst.Name) and integer_value(step.value) == 1):
        return None
    forward = isinstance(step.operator, cst.AddAssign)
    if not (forward or isinstance(step.operator, cst.SubtractAssign)):
        return None
    index = step.target.value
    siblings = block_siblings(analyzer, loop)
    position = next((k for k, s in enumerate(siblings or ()) if s is loop), 0)
    if not siblings or position == 0:
        return None
    init = single_small_statement(siblings[position - 1])  # type: ignore[arg-type]
    if not (isinstance(init, cst.Assign) and len(init.targets) == 1 and isinstance(init.targets[0].target, cst.Name)):
        return None
    if init.targets[0].target.value != index:
        return None
    start = init.value
    if forward:
        length = _array_length_of_test(analyzer, loop.test, index)
        if integer_value(start) != 0 or length is None:
            return None
    else:
        if not (isinstance(start, cst.BinaryOperation) and isinstance(start.operator, cst.Subtract) and integer_value(start.right) == 1):
            return None
        length = start.left
    xp = array_namespace_alias(analyzer, loop)
    if xp is None:
        return None
    plan = LoopPlan(analyzer, loop, RangeInfo(length, not forward, 0), xp, index)  # type: ignore[arg-type]
    if plan.whole is None or not plan.elementwise(loop.test) or not _tests_an_element(plan, loop.test):
        return None
    mask = _negated(plan.vectorized(loop.test))
    numeric = needs_numeric_mask(analyzer, loop, xp)
    if forward:
        found: cst.BaseExpression = mask_argmax(xp, mask, numeric)
    else:
        last = mask_argmax(xp, xp_call(xp, "flip", mask, axis=0), numeric)
        found = cst.BinaryOperation(left=start, operator=cst.Subtract(), right=last)
    assign = cst.Assign(targets=[cst.AssignTarget(cst.Name(index))], value=found)
    return replace_statements(analyzer, siblings[position - 1], loop, [cst.SimpleStatementLine(body=[assign])])  # type: ignore[arg-type]


def _array_length_of_test(analyzer: AnalyzedFile, test: cst.BaseExpression, index: str) -> cst.BaseExpression | None:
    """``len(v)`` for the one array the test reads at ``v[i]``."""
    arrays = {
        analyzer.module.code_for_node(n.value): n.value
        for n in walk(test)
        if isinstance(n, cst.Subscript) and [v.value for v in index_names(n)] == [index]
    }
    if len(arrays) != 1:
        return None
    array = next(iter(arrays.values()))
    return cst.Call(func=cst.Name("len"), args=[cst.Arg(array)])


def _tests_an_element(plan: LoopPlan, test: cst.BaseExpression) -> bool:
    return any(plan.element_access(n) for n in walk(test))


def _negated(mask: cst.BaseExpression) -> cst.BaseExpression:
    bare = mask.with_changes(lpar=(), rpar=()) if getattr(mask, "lpar", None) else mask
    if isinstance(bare, cst.UnaryOperation) and isinstance(bare.operator, cst.BitInvert):  # ~(m) -> m
        inner = bare.expression
        return inner.with_changes(lpar=(), rpar=()) if getattr(inner, "lpar", None) else inner
    if isinstance(bare, cst.Comparison) and len(bare.comparisons) == 1 and type(bare.comparisons[0].operator) in _NEGATED:
        target = bare.comparisons[0]
        operator = _NEGATED[type(target.operator)](
            whitespace_before=target.operator.whitespace_before, whitespace_after=target.operator.whitespace_after  # type: ignore[attr-defined]
        )
        return bare.with_changes(comparisons=[target.with_changes(operator=operator)])
    return cst.UnaryOperation(operator=cst.BitInvert(), expression=bare.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
