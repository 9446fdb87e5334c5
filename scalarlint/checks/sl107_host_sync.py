"""SL107 host-sync (opt-in): one sync on a reduction result or a device value used on the host.

Everything about SL107 starts here: this module is the check (what it matches, its documentation in
``INFO.doc``, and in ``INFO.fixers`` the modules of ``fixers/`` that rewrite its findings); its
fixtures and their ``--diff`` snapshots are in ``tests/checks/SL107/``.
"""

from __future__ import annotations

from typing import Iterable

import libcst as cst

from scalarlint.analysis.inference import call_name, positional
from scalarlint.analysis.kinds import Doubt, Tag
from scalarlint.checks.base import CheckContext, CheckInfo, Finding, short
from scalarlint.diagnostics import Severity

INFO = CheckInfo(
    code="SL107",
    name="host-sync",
    summary="One sync on a reduction result: `int(xp.argmax(x))`, `float(loss)`, `if xp.any(mask):`",
    default_enabled=False,
    doc="""\
## What it flags (opt-in: `--select SL107`)
Device values used on the host once: `int(xp.argmax(x))`, `float(loss)`, `.item()` of a
0-d result, and device values in Python control flow: `if xp.any(mask):`,
`while err > tol:`, `if y == 0:` where `y` is a norm.

## Why it hurts on a GPU
Python needs the value now, so it waits for the device: one sync per call. That is not per
element, so it is off by default (like ruff's noisy rules), but in a hot pullback it still
stalls the pipeline and breaks CUDA graph capture.

## Example
```python
def pullback(dy):
    if y == 0:                      # SL107
        return (xp.zeros_like(x),)
    return (x / y * dy,)
```

## What to write instead
Branch on the device: `xp.where(y == 0, 0, x / y) * dy`. Keep argmax results as 0-d device
indices (`dx[i] = v` with a device `i` is a scatter, no sync).
""",
    fixers=(),  # none: a branch on a device value has no rewrite that keeps its meaning mechanically
)

NODE_TYPES = (cst.Call, cst.If, cst.While, cst.IfExp, cst.Assert)


def _is_device(expr: cst.BaseExpression, ctx: CheckContext) -> bool:
    """A device value, but not one element of an array (that conversion is SL105's), nor a
    value read from a host copy (``to_host(x)[i]``, ``x.get()``: host data by then)."""
    kind = ctx.inference.kind(expr)
    if kind.tag not in (Tag.DEVICE_SCALAR, Tag.ARRAY) or kind.doubt >= Doubt.HOST_COPY:
        return False
    return not ctx.inference.is_element_value(expr)


def check(node: cst.CSTNode, ctx: CheckContext) -> Iterable[Finding]:
    if ctx.is_claimed(node):
        return
    if isinstance(node, cst.Call):
        name = call_name(node.func)
        args = positional(node)
        if name and len(name) == 1 and name[0] in ("int", "float", "bool", "complex") and len(args) == 1:
            if _is_device(args[0], ctx) and not (isinstance(args[0], cst.Subscript) and ctx.inference.selects_element(args[0])):
                yield Finding(INFO.code, node, f"`{name[0]}()` of the device value `{short(ctx, args[0])}` waits for the device (one sync)", Severity.WARNING)
            return
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "item" and not args:
            receiver = node.func.value
            if _is_device(receiver, ctx) and not (isinstance(receiver, cst.Subscript) and ctx.inference.selects_element(receiver)):
                yield Finding(INFO.code, node, f"`.item()` of `{short(ctx, receiver)}` waits for the device (one sync)", Severity.WARNING)
        return
    test = getattr(node, "test", None)
    if test is None:
        return
    if _is_device(test, ctx):
        what = type(node).__name__.lower().replace("ifexp", "conditional expression")
        yield Finding(INFO.code, test, f"`{what}` on the device value `{short(ctx, test)}`: Python waits for the device (one sync); branch on the device with `xp.where`", Severity.WARNING)
