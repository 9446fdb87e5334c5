"""SL105's Python ``math`` calls: ``math.exp(b - a)`` of device values.

Python's ``math`` functions work on Python floats: handed a tensor they call its
``__float__`` (or ``__index__``), which copies the value to the host and waits for the device,
and which works only on one element. So a ``math`` call of device data in a rule that runs is
one element converted on the host, a sync: ``log_sum_exp(a, b)`` written with ``math.log1p``
for two elements of a log-probability table. Only values the inference holds on the device
for certain are reported (an element, or arithmetic on an element or on a parameter annotated
as an array), never a shape, a setting or a value it cannot type.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from scalarlint.analysis.imports import call_head, qualified_names
from scalarlint.analysis.parameters import annotation_kind
from scalarlint.analysis.syntax import positional
from scalarlint.checks.base import CheckContext, Finding, short

CODE = "SL105"
PYTHON_MATH = "math"


def math_conversion(node: cst.Call, ctx: CheckContext) -> Iterable[Finding]:
    """The first device argument of a ``math.f(...)`` call, reported once per call."""
    if not _names_python_math(node, ctx):
        return
    for arg in positional(node):
        if _device_number(arg, ctx) and not ctx.is_claimed(arg):
            ctx.claim(arg)
            yield Finding(
                CODE,
                node,
                f"`{short(ctx, node.func)}()` converts the device value `{short(ctx, arg)}` to a Python float on the host: a sync; "
                "use the array module's function and keep it on the device",
                ctx.severity_for(node),
            )
            return


def _names_python_math(node: cst.Call, ctx: CheckContext) -> bool:
    """``math.exp(...)`` or ``exp(...)`` after ``from math import exp``."""
    head = call_head(node)
    names = qualified_names(head, ctx.inference.scopes.get(head))
    return any(n == PYTHON_MATH or n.startswith(PYTHON_MATH + ".") for n in names)


def _device_number(value: cst.BaseExpression, ctx: CheckContext) -> bool:
    """An element, or arithmetic whose direct operands include an element or a parameter that
    is annotated as an array (``b - a`` in ``log_sum_exp(a: Tensor, b: Tensor)``); not a bare
    parameter (``math.exp(-dt / tau)``, ``math.ceil(n / chunk_size)``: settings as often as
    tensors), and not ``dilation[0] * k`` of a parameter read through an index, which may be a
    tuple of settings."""
    inference = ctx.inference
    if inference.is_element_value(value):
        return True
    if isinstance(value, cst.BinaryOperation):
        return _device_number(value.left, ctx) or _device_number(value.right, ctx)
    if isinstance(value, cst.UnaryOperation):
        return _device_number(value.expression, ctx)
    if not isinstance(value, cst.Name) or not inference.kind(value).is_array:
        return False
    param = inference.parameter_of(value)
    return param is not None and _annotated_array(param)


def _annotated_array(param: cst.Param) -> bool:
    """``a: torch.Tensor``: the parameter's annotation names an array type (the parameters'
    own reading of annotations, ``parameters.annotation_kind``)."""
    return param.annotation is not None and annotation_kind(param.annotation.annotation).is_array
