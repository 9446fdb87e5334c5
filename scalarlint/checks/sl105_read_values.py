"""SL105's findings on values Python reads from the device without a call: an element tested
in ``if``/``while`` (``if length <= 0:``), an element as a slice bound (``x[:n[b]]``) and, in
torch, an element as an index (torch reads a 0-d index back with ``.item()``). The check
module (``sl105_host_conversion``) dispatches here; the calls are its own."""

from __future__ import annotations

from typing import Callable, Iterable

import libcst as cst

from scalarlint.analysis.array_api import COMPARISONS
from scalarlint.analysis.kinds import Tag
from scalarlint.analysis.scalar_use import is_python_marker
from scalarlint.analysis.syntax import positional
from scalarlint.checks.base import CheckContext, Finding, short
from scalarlint.checks.sl105_method_transfers import claim_conversion

CODE = "SL105"


def tested_element(node: cst.If | cst.While | cst.IfExp | cst.CompIf, ctx: CheckContext) -> Iterable[Finding]:
    """``if length <= 0:`` where ``length`` is one element: Python waits for it (a sync).
    A test that reads the element itself (``if x[i] > 0:``) is also SL101's finding: the read
    is one kernel, the test the sync."""
    test = node.test
    if ctx.is_claimed(test):
        return  # a search's predicate: SL103 reports the scan
    if (
        not ctx.inference.is_element_value(test) and not _is_element_operand(test, ctx) and not _tests_an_array(test, ctx)
        and not _compares_an_element(test, ctx) and not _compares_element_reads(test, ctx)
    ):
        return
    ctx.claim_node(test)
    yield Finding(
        CODE,
        test,
        f"the test `{short(ctx, test)}` reads an array element on the host: a device sync"
        + (" per element" if ctx.in_data_loop(node) else ""),
        ctx.severity_for(node),
    )


def _any_condition(test: cst.BaseExpression, condition: Callable[[cst.BaseExpression], bool]) -> bool:
    """``condition`` holds for one of the tests joined by ``and``/``or``/``not``."""
    if isinstance(test, cst.BooleanOperation):
        return _any_condition(test.left, condition) or _any_condition(test.right, condition)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _any_condition(test.expression, condition)
    return condition(test)


def _compares_element_reads(test: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``if t_span[1] < t_span[0]:``, ``if cumsum[0] <= limit:``: a comparison (under
    ``and``/``or``/``not``) whose operand is an element read, alone or in arithmetic
    (``t + dt > t_eval[k]``), or an array module's comparison function of one
    (``if torch.ne(g[0][0], one):``): Python asks the result for one bool, a sync."""

    def compares(part: cst.BaseExpression) -> bool:
        if isinstance(part, cst.Comparison):
            operands = [part.left, *(c.comparator for c in part.comparisons)]
        elif isinstance(part, cst.Call) and (ctx.inference.module_call(part) or "").rsplit(".", 1)[-1] in COMPARISONS:
            operands = positional(part)
        else:
            operands = []
        return any(_element_read_in(operand, ctx) for operand in operands)

    return _any_condition(test, compares)


def _element_read_in(operand: cst.BaseExpression, ctx: CheckContext) -> bool:
    if isinstance(operand, cst.Subscript):
        return ctx.inference.selects_element(operand)
    if isinstance(operand, cst.BinaryOperation):
        return _element_read_in(operand.left, ctx) or _element_read_in(operand.right, ctx)
    if isinstance(operand, cst.UnaryOperation):
        return _element_read_in(operand.expression, ctx)
    return False


def _tests_an_array(test: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``if a > b:`` or ``if torch.isinf(a):`` on device arrays (``and``/``or``/``not`` included),
    or ``if inputs[0]:`` on an array a parameter holds: Python asks the array for one bool, which
    works only for one element and waits for it. A bare name is left alone (``if grads:`` may
    test a list)."""
    if isinstance(test, cst.BooleanOperation) or (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)):
        return _any_condition(test, lambda part: _tests_an_array(part, ctx))
    if isinstance(test, cst.Subscript):
        return _is_array_parameter(test, ctx)  # if inputs[0]: one of the arrays a framework hands over
    if not isinstance(test, (cst.Comparison, cst.Call)):
        return False
    if isinstance(test, cst.Comparison) and any(is_python_marker(o) for o in (test.left, *(c.comparator for c in test.comparisons))):
        return False  # subscript[0] == Ellipsis, kind == "f": Python data
    kind = ctx.inference.kind(test)
    if kind.tag is not Tag.ARRAY or not kind.boolean or kind.doubt:
        return False
    operands = [test.left, *(c.comparator for c in test.comparisons)] if isinstance(test, cst.Comparison) else positional(test)[:1]
    return any(_is_array_parameter(o, ctx) for o in operands)


def _is_array_parameter(node: cst.BaseExpression, ctx: CheckContext) -> bool:
    """A parameter of the function that holds a device array: ``log_sum_exp(a, b)`` called
    with two elements, a solve helper's 0-d ``A``; or what host ints pick from one
    (``grad_output[0][0]`` of ``*grad_output``). Values unpacked from residual tuples may be
    reduction results (SL107's one sync), so they are left alone."""
    if not ctx.inference.kind(node).is_array:
        return False
    while isinstance(node, cst.Subscript):
        indices = ctx.inference.index_kinds(node)
        if not indices or not all(k.is_host_int for k in indices):
            return False
        node = node.value
    return isinstance(node, cst.Name) and ctx.inference.kind(node).tag in (Tag.ARRAY, Tag.ARRAY_SEQ) and ctx.inference.parameter_of(node) is not None


def _compares_an_element(test: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``while iy < grid_h:`` with ``grid_h`` one element on some path (``numpy.ceil`` of an
    element) and unknown on the others: the comparison waits for the device on that path."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    operands = (test.left, test.comparisons[0].comparator)
    if any(is_python_marker(o) for o in operands):
        return False
    return any(isinstance(o, cst.Name) and ctx.inference.may_be_element(o) for o in operands)


def _is_element_operand(test: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``a and b``, ``not a``: one operand an element test is enough."""
    if isinstance(test, cst.BooleanOperation):
        return any(ctx.inference.is_element_value(t) or _is_element_operand(t, ctx) for t in (test.left, test.right))
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return ctx.inference.is_element_value(test.expression)
    return False


def element_bounds(node: cst.Subscript, ctx: CheckContext) -> Iterable[Finding]:
    """``x[start:start + length]`` with ``length`` an element: slicing needs host ints (a sync),
    whatever is sliced."""
    for element in node.slice:
        bound = element.slice
        if not isinstance(bound, cst.Slice):
            continue
        for part in (bound.lower, bound.upper, bound.step):
            if part is not None and ctx.inference.is_element_value(part):
                # x[:n[b]]: one finding for the access, the conversion; a read with host ints
                # as the bound (x[:cumsum[0]]) is also SL101's, as in int(cumsum[0])
                claim_conversion(part, isinstance(part, cst.Subscript) and ctx.inference.selects_element(part, converted=True), ctx)
                yield Finding(
                    CODE,
                    node,
                    f"the slice bound `{short(ctx, part)}` is an array element: slicing needs it on the host (a sync)",
                    ctx.severity_for(node),
                )
                return


def element_index(node: cst.Subscript, ctx: CheckContext) -> Iterable[Finding]:
    """``kx[:, :, hi]`` with ``hi`` one element of a device array, in torch: its indexing turns a
    0-d integer tensor index into a host int with ``.item()`` (a sync per access). JAX and CuPy
    gather with it on the device, so only frameworks that say so are flagged."""
    if not ctx.inference.namespaces.index_reads_host() or not ctx.inference.kind(node.value).is_array:
        return
    for element in node.slice:
        index = element.slice
        if not isinstance(index, cst.Index) or ctx.is_claimed(index.value):
            continue
        if ctx.inference.is_element_value(index.value) and not ctx.inference.kind(index.value).boolean:
            # nothing is claimed: reading the element (x[first[i].long()]) is its own finding
            yield Finding(
                CODE,
                index.value,  # the index itself: in a subscript over several lines, its own line
                f"the index `{short(ctx, index.value)}` is an array element: torch reads a 0-d index "
                "back to the host with `.item()` (a sync); index with a host int, or gather on the device",
                ctx.severity_for(node),
            )
            return
