"""SL105's axis arguments: an array element handed where the framework needs a Python int.

``grad.unsqueeze(dim)``, ``x.sum(axis=k)`` with ``dim``/``k`` one element of an array (a number
the forward saved in a 0-d tensor, an element read from an index table): the library asks the
value for a host int (``__index__``) before it can launch anything, a device-to-host sync. Only
values the inference calls one element are reported, never a reduction's 0-d result (SL107's)
and never a value it cannot type. An order of axes (``x.permute(perm)``, ``transpose(x, axes)``)
given as a list that holds such an element, written in place or bound to a name
(``perm = [i for i in range(n) if i != dim] + [dim]``), is read the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from scalarlint.analysis.syntax import positional
from scalarlint.checks.base import CheckContext, Finding, short

CODE = "SL105"
# array methods whose first positional argument is an axis (``transpose``: both are)
AXIS_FIRST_METHODS = frozenset({
    "unsqueeze", "squeeze", "size", "select", "narrow", "softmax", "log_softmax", "cumsum", "cumprod", "flip",
    "movedim", "moveaxis", "transpose", "swapaxes", "argmax", "argmin", "sum", "mean", "amax", "amin", "logsumexp",
    "unbind", "expand_dims", "chunk", "split", "roll", "gather", "index_select", "scatter", "scatter_add",
})
TWO_AXES = frozenset({"transpose", "swapaxes", "movedim", "moveaxis"})
AXIS_KEYWORDS = frozenset({"dim", "axis"})
ORDER_METHODS = frozenset({"permute", "transpose"})  # x.permute(perm), x.transpose(axes): a whole order of axes
ORDER_KEYWORDS = frozenset({"dims", "axes"})


def element_axis(node: cst.Call, ctx: CheckContext) -> Iterable[Finding]:
    """The first element among the call's axis arguments, reported once."""
    method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
    axes = [a.value for a in node.args if a.keyword is not None and a.keyword.value in AXIS_KEYWORDS]
    if method in AXIS_FIRST_METHODS and isinstance(node.func, cst.Attribute) and ctx.inference.kind(node.func.value).is_device:
        axes += positional(node)[: 2 if method in TWO_AXES else 1]
    orders = [a.value for a in node.args if a.keyword is not None and a.keyword.value in ORDER_KEYWORDS]
    if method in ORDER_METHODS and isinstance(node.func, cst.Attribute) and ctx.inference.kind(node.func.value).is_device:
        orders += positional(node)[:1]
    axes += [e for order in orders for e in _listed(order, ctx)]
    for axis in axes:
        if ctx.inference.is_element_value(axis) and not ctx.is_claimed(axis):
            ctx.claim_node(axis)
            called = f"`.{method}()`" if method else "the call"
            yield Finding(
                CODE,
                node,
                f"{called} needs the axis `{short(ctx, axis)}` as a host int, but it is an array element: a device sync",
                ctx.severity_for(node),
            )
            return


def _listed(order: cst.BaseExpression, ctx: CheckContext, depth: int = 0) -> list[cst.BaseExpression]:
    """The entries of an order of axes written as a list or tuple, in place or bound to a name
    by one assignment (``[...] + [dim]`` concatenations included; ``depth`` stops a name whose
    only binding reaching it is its own, ``perm = perm + [d]`` in a loop)."""
    if depth > 4:
        return []
    if isinstance(order, cst.Name):
        values = ctx.inference.reaching_values(order)
        value = values[0] if len(values) == 1 else None
        if value is None:
            return []
        order = value
    if isinstance(order, cst.BinaryOperation) and isinstance(order.operator, cst.Add):
        return _listed(order.left, ctx, depth + 1) + _listed(order.right, ctx, depth + 1)
    if isinstance(order, (cst.List, cst.Tuple)):
        return [e.value for e in order.elements if isinstance(e, cst.Element)]
    return []
