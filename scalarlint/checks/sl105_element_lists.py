"""SL105, one case: an array built from a Python list of device elements.

``torch.tensor([x[0], x[1]])``, ``xp.array([[c, s], [-s, c]])`` with ``c`` and ``s`` 0-d device
values: the constructor reads a Python list, so it asks every element for its host value (one
sync each) and copies the result back to the device. JAX and TensorFlow stack traced values on
the device instead, so their namespaces are left alone. Kept apart from the rest of SL105 so the
rule and its reasons sit together."""

from __future__ import annotations

import libcst as cst

from scalarlint.analysis.imports import call_head
from scalarlint.checks.base import CheckContext, Finding, short

# constructors that read their first argument as nested Python data
LIST_CONSTRUCTORS = frozenset({"tensor", "as_tensor", "array", "asarray", "to_tensor"})
# namespaces that stack traced or device values without a host round trip
STACKING_NAMESPACES = ("jnp", "jax", "tf", "tensorflow", "lax")


def element_list_finding(node: cst.Call, code: str, ctx: CheckContext) -> Finding | None:
    func = ctx.inference.module_call(node)
    if func is None or func.rsplit(".", 1)[-1] not in LIST_CONSTRUCTORS or not node.args:
        return None
    data = node.args[0].value
    if node.args[0].keyword is not None or not isinstance(data, (cst.List, cst.Tuple)):
        return None
    head = call_head(node)
    if (isinstance(head, cst.Name) and head.value in STACKING_NAMESPACES) or ctx.inference.namespaces.host_numpy_call(node):
        return None
    element = next((e for e in _leaves(data) if _device_element(e, ctx)), None)
    if element is None:
        return None
    return Finding(
        code,
        node,
        f"`{func}()` of a Python list holding the device element `{short(ctx, element)}` reads each element "
        "on the host (a sync each); use `xp.stack` or index the array with a slice",
        ctx.severity_for(node),
    )


def _leaves(data: cst.List | cst.Tuple) -> list[cst.BaseExpression]:
    found: list[cst.BaseExpression] = []
    for item in data.elements:
        value = item.value
        if isinstance(value, (cst.List, cst.Tuple)):
            found += _leaves(value)
        elif not isinstance(item, cst.StarredElement):
            found.append(value)
    return found


def _device_element(value: cst.BaseExpression, ctx: CheckContext) -> bool:
    if isinstance(value, cst.UnaryOperation):
        value = value.expression
    if isinstance(value, cst.Subscript) and ctx.inference.selects_element(value):
        return True
    return ctx.inference.is_element_value(value)
