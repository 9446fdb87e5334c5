""""Product of all the others" loops (SL101, SL102, SL104) become two exclusive cumprods.

What it rewrites
    The pullback of ``prod`` written per element: for each ``i``, the product of every
    element but ``x[i]``, either by cutting ``x[i]`` out or by an inner loop that skips it::

        for i in range(len(x)):                                for i in range(n):
            others = xp.concatenate([x[:i], x[i + 1:]])            p = 1.0
            dx[i] = xp.prod(others) * dy                           for j in range(n):
                                                                       if j != i:
                                                                           p = p * x[j]
                                                                   dx[i] = p * dy

    Both become the products from the left and from the right, each excluding ``x[i]``::

        others = xp.cumprod(xp.concatenate([xp.ones_like(x[:1]), x[:-1]]), axis=0) * xp.flip(
            xp.cumprod(xp.concatenate([xp.ones_like(x[:1]), xp.flip(x, axis=0)[:-1]]), axis=0), axis=0)
        dx[:len(x)] = others * dy

    One launch per element (and ``n`` products of ``n - 1`` numbers) become a handful of
    kernels. Zeros need no case split: a product that skips the zero is the exclusive product,
    so one zero gives a non-zero ``dx`` only at its own place and two give zero everywhere,
    as the loop does, and no ``y / x`` is ever taken.

When it is offered
    The outer loop runs over ``range(len(x))``, ``range(x.shape[0])`` or ``range(n)`` from 0
    forward, and its body is exactly the product (the ``concatenate`` assignment, or a start of
    ``1`` and an inner ``range`` loop over the same length whose body is ``if j != i:`` guarding
    ``p = p * x[j]`` or ``p *= x[j]``) followed by one element write ``t[i] = value``; ``value``
    uses the product as ``xp.prod(others)`` (or ``p``) and is otherwise elementwise in ``i``;
    neither the product's name, ``i`` nor ``j`` is used after the loop; an array module alias
    is in scope.

Applicability
    Unsafe: it assumes ``x`` is one-dimensional (the loop over rows of a matrix would multiply
    whole rows), the element loop's assumptions (arrays at least ``n`` long, no overlapping
    views), and the products are accumulated in another order, so the last bits of a long
    product can differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.loop_range import range_info
from scalarlint.analysis.syntax import integer_value
from scalarlint.analysis.tree import walk
from scalarlint.diagnostics import Applicability, Fix

from .cst_helpers import names_in
from .edits import xp_call
from .elementwise import module_function
from .loop_names import index_unused_after, loops_around, only_used_in
from .loop_plan import LoopPlan, single_small_statement
from .namespaces import array_namespace_alias
from .statements import replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

MESSAGE = "Replace the per-element product of the others with two exclusive cumulative products"


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    loops = loops_around(analyzer, finding.node)
    for loop in loops:
        if isinstance(loop, cst.For):
            edit = _rewrite(analyzer, loop)
            if edit is not None:
                return [Fix(Applicability.UNSAFE, MESSAGE, (edit,))]
    return []


class _Plan(LoopPlan):
    """The element loop's plan, where the product node counts as an element of a vector."""

    def __init__(self, analyzer: AnalyzedFile, loop: cst.For, xp: str, product: cst.BaseExpression | None = None) -> None:
        rng = range_info(loop.iter)
        assert rng is not None
        super().__init__(analyzer, loop, rng, xp)
        self.product = product

    def elementwise(self, node: cst.CSTNode) -> bool:
        return node is self.product or super().elementwise(node)


def _rewrite(analyzer: AnalyzedFile, loop: cst.For):  # type: ignore[no-untyped-def]
    if loop.orelse is not None or loop.asynchronous is not None or not isinstance(loop.target, cst.Name):
        return None
    rng = range_info(loop.iter)
    if rng is None or rng.start != 0 or rng.reverse or not isinstance(loop.body, cst.IndentedBlock):
        return None
    xp = array_namespace_alias(analyzer, loop)
    if xp is None or not index_unused_after(analyzer, loop):
        return None
    body = list(loop.body.body)
    index = loop.target.value
    found = _concatenate_product(analyzer, body, index) if len(body) == 2 else _loop_product(analyzer, body, index, rng.stop)
    if found is None:
        return None
    name, array, binding = found
    write = single_small_statement(body[-1])
    if not (isinstance(write, cst.Assign) and len(write.targets) == 1 and isinstance(write.targets[0].target, cst.Subscript)):
        return None
    uses = [n for n in walk(write.value) if isinstance(n, cst.Name) and n.value == name]
    product = _product_node(analyzer, write.value, name, len(body) == 2)
    if product is None or len(uses) != 1 or not only_used_in(analyzer, binding, loop, name):
        return None
    inner = body[1] if len(body) == 3 else None
    if isinstance(inner, cst.For) and not only_used_in(analyzer, inner.target, loop, inner.target.value):  # type: ignore[arg-type]
        return None
    plan = _Plan(analyzer, loop, xp, product)
    target = write.targets[0].target
    if not plan.element_access(target) or not plan.elementwise(write.value) or plan.index in names_in(rng.stop):
        return None
    code = analyzer.module.code_for_node
    if code(target.value) in names_in(write.value) or array.value in names_in(target):
        return None
    whole = plan.block(array)
    vector = _others(xp, whole)
    value = plan.vectorized(write.value)
    product_code = code(product)
    value = value.visit(_Substitute(product_code, cst.Name(name)))  # type: ignore[assignment]
    statements = [
        cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(name))], value=vector)]),
        cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(plan.target(target.value))], value=value)]),
    ]
    return replace_statements(analyzer, loop, loop, statements)


def _concatenate_product(analyzer: AnalyzedFile, body: list[cst.BaseStatement], index: str):  # type: ignore[no-untyped-def]
    """``others = xp.concatenate([x[:i], x[i + 1:]])``: (``others``, ``x``, its Name node)."""
    small = single_small_statement(body[0])
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)):
        return None
    call = small.value
    if not (isinstance(call, cst.Call) and module_function(analyzer, call) in ("concatenate", "concat") and len(call.args) == 1):
        return None
    parts = call.args[0].value
    if not (isinstance(parts, (cst.List, cst.Tuple)) and len(parts.elements) == 2):
        return None
    before, after = (e.value for e in parts.elements)
    array = _cut(before, index, upper=True)
    if array is None or _cut(after, index, upper=False) is None or _cut(after, index, upper=False).value != array.value:  # type: ignore[union-attr]
        return None
    return small.targets[0].target.value, array, small.targets[0].target


def _cut(node: cst.BaseExpression, index: str, upper: bool) -> cst.Name | None:
    """``x[:i]`` (``upper``) or ``x[i + 1:]``: the array ``x``."""
    if not (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1):
        return None
    part = node.slice[0].slice
    if not isinstance(part, cst.Slice) or part.step is not None:
        return None
    if upper:
        ok = part.lower is None and isinstance(part.upper, cst.Name) and part.upper.value == index
    else:
        bound = part.lower
        ok = (
            part.upper is None
            and isinstance(bound, cst.BinaryOperation)
            and isinstance(bound.operator, cst.Add)
            and isinstance(bound.left, cst.Name)
            and bound.left.value == index
            and integer_value(bound.right) == 1
        )
    return node.value if ok else None


def _loop_product(analyzer: AnalyzedFile, body: list[cst.BaseStatement], index: str, stop: cst.BaseExpression):  # type: ignore[no-untyped-def]
    """``p = 1.0; for j in range(n): if j != i: p = p * x[j]``: (``p``, ``x``, its Name node)."""
    if len(body) != 3:
        return None
    start = single_small_statement(body[0])
    inner = body[1]
    if not (isinstance(start, cst.Assign) and len(start.targets) == 1 and isinstance(start.targets[0].target, cst.Name)):
        return None
    if not (isinstance(start.value, (cst.Integer, cst.Float)) and float(start.value.evaluated_value) == 1.0):
        return None
    name = start.targets[0].target.value
    if not (isinstance(inner, cst.For) and inner.orelse is None and isinstance(inner.target, cst.Name)):
        return None
    inner_range = range_info(inner.iter)
    code = analyzer.module.code_for_node
    if inner_range is None or inner_range.start != 0 or inner_range.reverse or code(inner_range.stop) != code(stop):
        return None
    if not (isinstance(inner.body, cst.IndentedBlock) and len(inner.body.body) == 1 and isinstance(inner.body.body[0], cst.If)):
        return None
    guard = inner.body.body[0]
    j = inner.target.value
    if guard.orelse is not None or not _skips(guard.test, index, j) or not isinstance(guard.body, cst.IndentedBlock):
        return None
    if len(guard.body.body) != 1:
        return None
    factor = _times(single_small_statement(guard.body.body[0]), name)
    if not (isinstance(factor, cst.Subscript) and isinstance(factor.value, cst.Name) and len(factor.slice) == 1):
        return None
    element = factor.slice[0].slice
    if not (isinstance(element, cst.Index) and isinstance(element.value, cst.Name) and element.value.value == j):
        return None
    return name, factor.value, start.targets[0].target


def _skips(test: cst.BaseExpression, index: str, j: str) -> bool:
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.NotEqual)):
        return False
    names = {getattr(test.left, "value", None), getattr(test.comparisons[0].comparator, "value", None)}
    return names == {index, j} and isinstance(test.left, cst.Name) and isinstance(test.comparisons[0].comparator, cst.Name)


def _times(small: cst.BaseSmallStatement | None, name: str) -> cst.BaseExpression | None:
    """``p = p * f``, ``p = f * p`` or ``p *= f``: ``f``."""
    if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.MultiplyAssign):
        return small.value if isinstance(small.target, cst.Name) and small.target.value == name else None
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.BinaryOperation)):
        return None
    target, value = small.targets[0].target, small.value
    if not (isinstance(target, cst.Name) and target.value == name and isinstance(value.operator, cst.Multiply)):
        return None
    if isinstance(value.left, cst.Name) and value.left.value == name:
        return value.right
    if isinstance(value.right, cst.Name) and value.right.value == name:
        return value.left
    return None


def _product_node(analyzer: AnalyzedFile, value: cst.BaseExpression, name: str, cut: bool) -> cst.BaseExpression | None:
    """Where the write uses the product: ``xp.prod(others)`` for the cut form, ``p`` for the loop."""
    for node in walk(value):
        if cut and isinstance(node, cst.Call) and module_function(analyzer, node) == "prod" and len(node.args) == 1:
            arg = node.args[0]
            if arg.keyword is None and not arg.star and isinstance(arg.value, cst.Name) and arg.value.value == name:
                return node
        if not cut and isinstance(node, cst.Name) and node.value == name:
            return node
    return None


def _others(xp: str, x: cst.BaseExpression) -> cst.BaseExpression:
    """``left * right``: the exclusive cumulative products from each end."""
    def call(function: str, *args: cst.BaseExpression, axis: bool = False) -> cst.Call:
        return xp_call(xp, function, *args, axis=0 if axis else None)

    def head(a: cst.BaseExpression, upper: cst.BaseExpression | None, lower: cst.BaseExpression | None = None) -> cst.Subscript:
        return cst.Subscript(value=a, slice=[cst.SubscriptElement(slice=cst.Slice(lower=lower, upper=upper))])

    one = call("ones_like", head(x, cst.Integer("1")))
    minus_one = cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer("1"))
    left = call("cumprod", call("concatenate", cst.List([cst.Element(one), cst.Element(head(x, minus_one))])), axis=True)
    flipped = call("flip", x, axis=True)
    right = call("flip", call("cumprod", call("concatenate", cst.List([cst.Element(one), cst.Element(head(flipped, minus_one))])), axis=True), axis=True)
    return cst.BinaryOperation(left=left, operator=cst.Multiply(), right=right)




class _Substitute(cst.CSTTransformer):
    """Put ``replacement`` where the vectorized value still has the product's code."""

    def __init__(self, code: str, replacement: cst.BaseExpression) -> None:
        self.code = code
        self.replacement = replacement
        self.render = cst.Module(body=[]).code_for_node

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):  # type: ignore[no-untyped-def]
        if isinstance(updated, cst.BaseExpression) and self.render(updated) == self.code:
            return self.replacement
        return updated
