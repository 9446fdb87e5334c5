"""Iterate a host copy of the array a ``for`` loop walks (SL104, SL105).

What it rewrites
    A loop whose iterable is itself a device array (any expression: ``factors.flip(0)``,
    ``grid_size``) makes one view and one sync per element, and every ``int(el)`` of the element
    is another sync. The iterable of a ``for`` is evaluated once, so copying it to the host right
    there needs no hoisting: one transfer, after which the elements are host numbers::

        for factor in factors.flip(0):              for factor in to_host(factors.flip(0)):
            if n // int(factor) <= limit:     ->        if n // int(factor) <= limit:
                per_fork = int(factor)                      per_fork = int(factor)

    ``for i, el in enumerate(x)`` becomes ``enumerate(to_host(x))``. The findings it answers are
    the iteration and the host conversions (``int``, ``round``, tests, ...) of the element and of
    values computed only from it and host numbers (``copy_answers``, as for the hoisted copy).

When it is offered
    When the element (the loop target, or the second target of ``enumerate``) is only ever used
    as one number (``number_uses``), and each element is one number: the array is
    one-dimensional by evidence, or the body converts the element on the host (``int(el)``,
    ``float(el)``) on every trip before anything can leave the trip early. That conversion is
    the proof: ``int`` of a row of several values raises, so a program that works before the fix
    iterates single values (0-d elements, or rows of one value), which stay single values on the
    host, used as numbers as before. Inside another loop the copy is made once per trip of that
    loop (still one transfer where there was one sync per element). Not where ``host_copy``
    already copies the array before an outer loop, and not in a TorchScript function
    (``@torch.jit.script`` compiles no call of a Python helper).

Applicability
    Unsafe and a fallback, like ``host_copy`` (whose import handling it shares: the configured
    helper, display-only where importing it would add an undeclared dependency, declined where
    the vendored helper predates ``to_host``). The elements become host NumPy scalars where they
    were 0-d device arrays: mixed with device arrays they act as Python numbers, a PyTorch value
    is detached from autograd, and under ``jax.jit`` the copy fails. A row of one value converted
    by ``int`` warns on recent NumPy where the device library did not. The whole array is copied
    even where the loop stops early. A reviewer decides.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.syntax import call_name
from scalarlint.analysis.tree import walk

from .copy_answers import answers
from .copy_plan import HoistPlan, is_device_array, outermost_data_loop, plan_for
from .cst_helpers import ancestors, contains, is_builtin_at
from .edits import bare, replace_expression
from .host_copy import to_host_fixes
from .loop_names import loops_in_its_function
from .number_uses import name_used_as_number

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding
    from scalarlint.diagnostics import Edit, Fix

    from .outcomes import Declined

CONVERSIONS = frozenset({"int", "float"})  # of a row of several values: they raise
COMPILING_DECORATORS = frozenset({"script"})  # ``torch.jit.script``: no call of a Python helper
LEAVES_THE_TRIP = (cst.Continue, cst.Break, cst.Return, cst.Raise, cst.Yield)
SHOWN = 40  # characters of the iterable in the fix's message
# what evaluates all of its parts whenever it is evaluated (the exceptions are tested first)
EVALUATED_PARTS = (
    cst.BaseExpression, cst.BaseSmallStatement, cst.Arg, cst.ComparisonTarget, cst.Element,
    cst.AssignTarget, cst.Index, cst.SubscriptElement,
)


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix] | Declined:
    for loop in _loops_of_its_function(analyzer, finding.node):
        plan = _plan_for(analyzer, loop)
        if plan is None or not answers(finding, analyzer, plan):
            continue
        key = ("iterated-copy-fix", loop)
        if key not in analyzer.context.inference.cache:  # one edit, shared by every finding it answers
            analyzer.context.inference.cache[key] = _loop_fixes(analyzer, plan)
        return analyzer.context.inference.cache[key]  # type: ignore[return-value]
    return []


def _loop_fixes(analyzer: AnalyzedFile, plan: HoistPlan) -> list[Fix] | Declined:
    array = plan.copied_in_place[0]
    shown = " ".join(analyzer.module.code_for_node(bare(array)).split())
    shown = shown if len(shown) <= SHOWN else shown[: SHOWN - 3] + "..."

    def edit(to_host: str) -> Edit:
        return replace_expression(analyzer, array, cst.Call(func=cst.Name(to_host), args=[cst.Arg(bare(array))]))

    return to_host_fixes(
        analyzer, plan.loop, edit,
        lambda to_host: f"Iterate a host copy, `{to_host}({shown})`: one transfer, not one sync per element",
    )


def _loops_of_its_function(analyzer: AnalyzedFile, node: cst.CSTNode) -> list[cst.For]:
    """The ``for`` loops around ``node`` (a finding on a header first), within its function."""
    return [loop for loop in loops_in_its_function(analyzer, node) if isinstance(loop, cst.For)]


def _plan_for(analyzer: AnalyzedFile, loop: cst.For) -> HoistPlan | None:
    cache = analyzer.context.inference.cache
    key = ("iterated-copy-plan", loop)
    if key not in cache:
        cache[key] = _make_plan(analyzer, loop)
    return cache[key]  # type: ignore[return-value]


def _make_plan(analyzer: AnalyzedFile, loop: cst.For) -> HoistPlan | None:
    """The loop's in-place copy, when its iterable is a device array of single numbers each
    used as a number."""
    walked = _array_and_element(loop)
    if walked is None:
        return None
    array, element = walked
    if not is_device_array(analyzer, array) or _compiled(analyzer, loop) or _copied_before(analyzer, loop, array):
        return None
    if not name_used_as_number(analyzer, element):
        return None
    if analyzer.context.inference.kind(array).rank != 1 and not _converted_every_trip(analyzer, loop, element):
        return None
    return HoistPlan(loop, {}, [], [], (array,))


def _array_and_element(loop: cst.For) -> tuple[cst.BaseExpression, cst.Name] | None:
    """``for el in x`` -> (``x``, ``el``); ``for i, el in enumerate(x[, start])`` -> (``x``, ``el``)."""
    iterable, target = loop.iter, loop.target
    if isinstance(iterable, cst.Call) and call_name(iterable.func) == ["enumerate"]:
        args = iterable.args
        if not args or any(a.star for a in args) or args[0].keyword is not None:
            return None
        if not isinstance(target, (cst.Tuple, cst.List)) or len(target.elements) != 2:
            return None
        iterable, target = args[0].value, target.elements[1].value
    return (iterable, target) if isinstance(target, cst.Name) else None


def _compiled(analyzer: AnalyzedFile, loop: cst.For) -> bool:
    """Inside a function a decorator compiles (``@torch.jit.script``)."""
    for parent in ancestors(analyzer, loop):
        if isinstance(parent, cst.FunctionDef):
            for decorator in parent.decorators:
                target = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
                name = call_name(target)
                if name and name[-1] in COMPILING_DECORATORS:
                    return True
    return False


def _copied_before(analyzer: AnalyzedFile, loop: cst.For, array: cst.BaseExpression) -> bool:
    """``host_copy`` already iterates the array from a copy made before an outer loop."""
    outer = outermost_data_loop(analyzer, loop.iter)
    plan = plan_for(analyzer, outer) if outer is not None else None
    return plan is not None and any(name is part for name in plan.iterated for part in walk(array))


def _converted_every_trip(analyzer: AnalyzedFile, loop: cst.For, element: cst.Name) -> bool:
    """Whether the body converts the element with ``int``/``float`` on every trip, before any
    ``continue``, ``break``, ``return`` or ``raise`` could end the trip."""
    scope = analyzer.scopes.get(element)
    if scope is None:
        return False
    binding = next((a for a in scope.assignments[element.value] if a.node is element), None)
    return binding is not None and any(
        isinstance(access.node, cst.Name) and _converted_here(analyzer, loop, access.node)
        for access in binding.references
    )


def _converted_here(analyzer: AnalyzedFile, loop: cst.For, read: cst.Name) -> bool:
    """``read`` is the one argument of builtin ``int``/``float``, evaluated on every trip."""
    arg = analyzer.parents.get(read)
    call = analyzer.parents.get(arg) if isinstance(arg, cst.Arg) else None
    if not isinstance(call, cst.Call) or len(call.args) != 1 or arg.keyword is not None or arg.star:  # type: ignore[union-attr]
        return False
    name = call_name(call.func)
    if name is None or len(name) != 1 or name[0] not in CONVERSIONS or not is_builtin_at(analyzer, call, name[0]):
        return False
    return _runs_every_trip(analyzer, loop, call)


def _runs_every_trip(analyzer: AnalyzedFile, loop: cst.For, node: cst.CSTNode) -> bool:
    """Whether ``node`` is evaluated whenever a trip of ``loop`` starts: on its way up to a
    statement of the body, every step evaluates its part unconditionally (not a branch, the
    right of ``and``/``or``, a later link of a chained comparison, a lambda, a comprehension),
    and no statement before it can end the trip."""
    child = node
    for parent in ancestors(analyzer, node):
        if parent is loop.body:
            return _nothing_leaves_before(loop.body.body, child)
        if isinstance(parent, cst.SimpleStatementLine):
            if not _nothing_leaves_before(parent.body, child):
                return False
        elif not _evaluates_always(parent, child):
            return False
        child = parent
    return False


def _evaluates_always(parent: cst.CSTNode, child: cst.CSTNode) -> bool:
    if isinstance(parent, cst.If):
        return parent.test is child  # the test runs; the branches may not
    if isinstance(parent, cst.BooleanOperation):
        return parent.left is child
    if isinstance(parent, cst.Comparison):
        return parent.left is child or bool(parent.comparisons) and parent.comparisons[0] is child
    if isinstance(parent, (cst.IfExp, cst.Lambda, cst.BaseComp, cst.BaseCompoundStatement)):
        return False
    return isinstance(parent, EVALUATED_PARTS)


def _nothing_leaves_before(statements: tuple[cst.CSTNode, ...] | list[cst.CSTNode], node: cst.CSTNode) -> bool:
    """No statement before ``node`` among ``statements`` holds a ``continue``, ``break``,
    ``return``, ``raise`` or ``yield``."""
    for statement in statements:
        if statement is node:
            return True
        if contains(statement, LEAVES_THE_TRIP):
            return False
    return False
