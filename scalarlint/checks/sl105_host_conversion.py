"""SL105 host-conversion: turning an array element, or a whole array, into host Python values."""

from __future__ import annotations

from typing import Iterable

import libcst as cst

from scalarlint.analysis.inference import call_name, positional
from scalarlint.analysis.kinds import Tag
from scalarlint.checks.base import CheckContext, CheckInfo, Finding, short

INFO = CheckInfo(
    code="SL105",
    name="host-conversion",
    summary="`float()`/`int()`/`bool()`/`complex()`/`.item()` of an element; `.tolist()`, `.get()` of an array",
    doc="""\
## What it flags
Inside an AD rule: `float(x[i])`, `int(x[i])`, `bool(x[i])`, `complex(x[i])`,
`x[i].item()`; whole-array transfers to the host: `x.tolist()`, `x.get()`,
`cupy.asnumpy(x)`, `x.cpu()`, `x.numpy()`.

## Why it hurts on a GPU
Converting device data to a Python value copies it to the host and waits for every queued
kernel: a device-to-host sync. Per element (in a loop) it serialises the GPU completely.
Strict backends raise; `jax.jit` cannot trace it.

## Example
```python
def pullback(dy):
    scale = float(x[0])      # SL105
    return (dy * scale,)
```

## What to write instead
Keep the value on the device: `scale = x[0:1]` (a size-1 view that broadcasts), or a 0-d
reduction result. If the conversion is intended and happens once, mark it with
`with allow_scalar():`.
""",
)

NODE_TYPES = (cst.Call,)

CONVERTERS = frozenset({"float", "int", "bool", "complex"})
TRANSFER_METHODS = frozenset({"tolist", "get", "cpu", "numpy"})
TRANSFER_FUNCTIONS = frozenset({"asnumpy"})


def check(node: cst.CSTNode, ctx: CheckContext) -> Iterable[Finding]:
    assert isinstance(node, cst.Call)
    if ctx.is_claimed(node):
        return
    name = call_name(node.func)
    args = positional(node)
    if name is not None and len(name) == 1 and name[0] in CONVERTERS and len(args) == 1:
        inner = args[0]
        if isinstance(inner, cst.Subscript) and ctx.inference.selects_element(inner, converted=True):
            ctx.claim(inner)
            yield Finding(
                INFO.code,
                node,
                f"`{name[0]}()` of the element `{short(ctx, inner)}` copies it to the host: a device sync; "
                "keep it on the device (size-1 slice) or use `allow_scalar()`",
                ctx.severity_for(node),
            )
        return
    if isinstance(node.func, cst.Attribute):
        attr = node.func.attr.value
        receiver = node.func.value
        if attr == "item" and not args and isinstance(receiver, cst.Subscript) and ctx.inference.selects_element(receiver, converted=True):
            ctx.claim(receiver)
            yield Finding(
                INFO.code,
                node,
                f"`.item()` of the element `{short(ctx, receiver)}` copies it to the host: a device sync",
                ctx.severity_for(node),
            )
            return
        if attr in TRANSFER_METHODS and not (attr == "get" and args) and ctx.inference.kind(receiver).tag is Tag.ARRAY:
            yield Finding(
                INFO.code,
                node,
                f"`.{attr}()` copies the whole array `{short(ctx, receiver)}` to the host: a sync and a transfer",
                ctx.severity_for(node),
            )
            return
    func = ctx.inference.module_call(node)
    if func is not None and func.rsplit(".", 1)[-1] in TRANSFER_FUNCTIONS and args and ctx.inference.kind(args[0]).is_array:
        yield Finding(INFO.code, node, f"`{func}()` copies the whole array to the host: a sync and a transfer", ctx.severity_for(node))
