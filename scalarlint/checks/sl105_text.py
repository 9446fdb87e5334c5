"""SL105's text of device values: ``str(x)``, ``repr(x)``, ``print(x)``, an f-string
``f"{diff}"`` and ``%`` formatting ``"%f" % value``.

Writing a device value's digits needs them on the host: Python calls its ``__str__`` or
``__format__``, which copies the array (or the element) from the device and waits for it. A
warning printed in a backward (``print(f"mismatch: {diff}")``) or an error message built from an
element (``"%f out of bounds" % value``) is such a copy each time the rule runs. Only values the
inference holds on the device for certain are reported, and not under an ``isinstance`` test
that narrows them to host types. A message formatted for a ``raise``, an ``assert`` or inside an
``except`` handler is built only when the rule has already failed: no cost of a rule that runs.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from scalarlint.analysis.kinds import Doubt, Tag
from scalarlint.checks.base import CheckContext, Finding, short
from scalarlint.checks.sl105_narrowing import narrowed_to_host

CODE = "SL105"
TEXT_CONVERTERS = frozenset({"str", "repr", "print"})  # the digits of a device value are on the device
_STRINGS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def device_data(value: cst.BaseExpression, ctx: CheckContext) -> bool:
    """An array or element the rule holds on the device for certain (not a probable one)."""
    kind = ctx.inference.kind(value)
    return (kind.tag is Tag.ARRAY and kind.doubt == Doubt.NONE) or ctx.inference.is_element_value(value)


def shown_device_value(values: Iterable[cst.BaseExpression], node: cst.CSTNode, ctx: CheckContext) -> cst.BaseExpression | None:
    """The first of ``values`` whose digits a text of ``node`` writes from the device."""
    return next((v for v in values if device_data(v, ctx) and not narrowed_to_host(v, node, ctx)), None)


def formatted_device_value(node: cst.FormattedString | cst.BinaryOperation, ctx: CheckContext) -> Iterable[Finding]:
    """``f"... {diff}"`` or ``"%s ... %f" % (name, value)`` with a device value among what it
    formats: one finding per string, on the string."""
    if isinstance(node, cst.FormattedString):
        values = [part.expression for part in node.parts if isinstance(part, cst.FormattedStringExpression)]
        how = "an f-string"
    elif isinstance(node.operator, cst.Modulo) and isinstance(node.left, _STRINGS):
        right = node.right
        values = [e.value for e in right.elements] if isinstance(right, cst.Tuple) else [right]
        how = "`%` formatting"
    else:
        return
    if _on_a_failure_path(node, ctx):
        return
    shown = shown_device_value(values, node, ctx)
    if shown is not None:
        yield Finding(
            CODE,
            node,
            f"{how} of the device value `{short(ctx, shown)}` copies it to the host to write its digits: a sync",
            ctx.severity_for(node),
        )


def _on_a_failure_path(node: cst.CSTNode, ctx: CheckContext) -> bool:
    """``raise ValueError(f"... {length}")``, ``assert ok, f"{x}"`` or an ``except`` handler's
    message: formatted only once the rule has failed."""
    child: cst.CSTNode = node
    parent = ctx.parents.get(node)
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Lambda, cst.Module)):
        if isinstance(parent, (cst.Raise, cst.ExceptHandler)) or (isinstance(parent, cst.Assert) and parent.msg is child):
            return True
        child, parent = parent, ctx.parents.get(parent)
    return False
