"""SL104 element-iteration: iterating a device array element by element in Python."""

from __future__ import annotations

from typing import Iterable

import libcst as cst

from scalarlint.analysis.kinds import Doubt

from scalarlint.analysis.inference import call_name, positional
from scalarlint.analysis.kinds import Tag
from scalarlint.checks.base import CheckContext, CheckInfo, Finding, short
from scalarlint.diagnostics import Severity

INFO = CheckInfo(
    code="SL104",
    name="element-iteration",
    summary="Iterating an array in Python (for loops, comprehensions, builtin sum/max/sorted/list/...)",
    doc="""\
## What it flags
Python-level iteration over a device array inside an AD rule: `for v in x`,
`enumerate(x)`/`zip(x, y)` over arrays, comprehensions over arrays, `*x` unpacking, and
the builtins `sum`, `max`, `min`, `any`, `all`, `sorted`, `list`, `tuple`, `map`, `filter`,
`iter` applied to an array.

## Why it hurts on a GPU
Iterating a CuPy or PyTorch CUDA array yields one 0-d (or row) view per element: a kernel
launch each, and a sync each time Python looks at the value (`max` compares on the host).
Builtin `sum(x)` adds elements one at a time in Python. Strict backends raise.

## Example
```python
def pullback(dy):
    total = sum(x)                      # SL104
    return (xp.asarray([v * dy for v in x]),)   # SL104
```

## What to write instead
The array module's reductions and elementwise arithmetic: `xp.sum(x)`, `xp.max(x)`,
`xp.any(mask)`, `xp.sort(x)`, `x * dy`. They stay on the device and return 0-d arrays.
""",
)

NODE_TYPES = (cst.For, cst.CompFor, cst.Call, cst.StarredElement, cst.Assign)

# Builtins that only make sense on numbers: worth reporting even for a parameter that is an
# array only by assumption (it might be a tuple; ``sum``/``max`` of it still suggests data).
NUMERIC_BUILTINS = frozenset({"sum", "max", "min", "any", "all", "sorted"})
BUILTINS = frozenset({"sum", "max", "min", "any", "all", "sorted", "list", "tuple", "map", "filter", "iter", "set", "reversed", "enumerate", "zip", "frozenset"})


def _iterated_arrays(iterable: cst.BaseExpression, ctx: CheckContext) -> list[cst.BaseExpression]:
    if isinstance(iterable, cst.Call):
        name = call_name(iterable.func)
        if name in (["enumerate"], ["zip"], ["reversed"], ["iter"]):
            return [a for a in positional(iterable) for a in _iterated_arrays(a, ctx)]
        return []
    kind = ctx.inference.kind(iterable)
    return [iterable] if kind.tag is Tag.ARRAY and not kind.doubt else []


def check(node: cst.CSTNode, ctx: CheckContext) -> Iterable[Finding]:
    if ctx.is_claimed(node):
        return
    if isinstance(node, (cst.For, cst.CompFor)):
        arrays = _iterated_arrays(node.iter, ctx)
        if arrays:
            ctx.claim(node.iter)
            yield Finding(
                INFO.code,
                node.iter,
                f"Python iteration over the array `{short(ctx, arrays[0])}`: one view and one sync per element; "
                "use vectorized array operations",
                Severity.ERROR,
            )
        return
    if isinstance(node, cst.Assign):
        yield from _unpacking(node, ctx)
        return
    if isinstance(node, cst.StarredElement):
        kind = ctx.inference.kind(node.value)
        if kind.tag is Tag.ARRAY and not kind.doubt:
            yield Finding(INFO.code, node, f"unpacking the array `{short(ctx, node.value)}` iterates it element by element", Severity.ERROR)
        return
    assert isinstance(node, cst.Call)
    name = call_name(node.func)
    if name is None or len(name) != 1 or name[0] not in BUILTINS:
        return
    args = positional(node)
    if name[0] in ("max", "min") and len(args) != 1:
        return  # max(a, b) compares its arguments; it iterates nothing
    candidates = args[1:] if name[0] in ("map", "filter") else args[:1]
    if name[0] in ("enumerate", "zip", "reversed", "iter"):
        parent = ctx.parents.get(node)
        if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is node:
            return  # reported once, at the loop
    for arg in candidates:
        kind = ctx.inference.kind(arg)
        if kind.tag is Tag.ARRAY and (not kind.doubt or (kind.doubt is Doubt.PARAMETER and name[0] in NUMERIC_BUILTINS)):
            ctx.claim(arg)
            yield Finding(
                INFO.code,
                node,
                f"builtin `{name[0]}()` iterates the array `{short(ctx, arg)}` in Python, one element at a time; "
                f"use the array module's reduction (e.g. `xp.{_replacement(name[0])}`)",
                Severity.ERROR,
                data={"builtin": name[0]},
            )
            return


def _replacement(builtin: str) -> str:
    return {"sorted": "sort", "list": "asarray", "tuple": "asarray", "map": "vectorized ops", "filter": "where"}.get(builtin, builtin)


def _unpacking(node: cst.Assign, ctx: CheckContext) -> Iterable[Finding]:
    """``a, b, c = x[i]``: unpacking a row iterates it. (``gy, = gy`` unpacks a tuple of
    cotangents far more often than an array, so bare names are left alone.)"""
    if not any(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets):
        return
    value = node.value
    kind = ctx.inference.kind(value)
    row_of_data = isinstance(value, cst.Subscript) and (
        ctx.inference.selects_element(value) or (kind.tag is Tag.ARRAY and not kind.doubt)
    )
    if row_of_data:
        ctx.claim(value)
        yield Finding(
            INFO.code,
            node,
            f"unpacking `{short(ctx, value)}` reads its elements one by one on the host; keep them as array slices",
            ctx.severity_for(node),
        )
