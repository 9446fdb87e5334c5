"""SL106 data-dependent-shape: results whose size depends on the values in the array.

Everything about SL106 starts here: this module is the check (what it matches, its documentation in
``INFO.doc``, and in ``INFO.fixers`` the modules of ``fixers/`` that rewrite its findings); its
fixtures and their ``--diff`` snapshots are in ``tests/checks/SL106/``.
"""

from __future__ import annotations

from typing import Iterable

import libcst as cst

from scalarlint.analysis.kinds import Doubt, least_doubt

from scalarlint.analysis.array_api import DATA_DEPENDENT
from scalarlint.analysis.syntax import positional
from scalarlint.checks.base import CheckContext, CheckInfo, Finding, short

INFO = CheckInfo(
    code="SL106",
    name="data-dependent-shape",
    summary="`nonzero`, `flatnonzero`, `argwhere`, one-argument `where`, boolean-mask indexing, `unique`",
    doc="""\
## What it flags
Inside an AD rule: `xp.nonzero(m)`, `xp.flatnonzero(m)`, `xp.argwhere(m)`, `xp.where(m)`
with a single argument, `xp.unique(x)`, `x.nonzero()`, `x.to_sparse()`, and indexing with a boolean mask
(a comparison as the only index counts as one: `s[x.data > 0]`, and so does the array's
comparison with another computation of it, `_out[out != _out]`, whatever is known of `_out`;
an array made with a boolean dtype, `torch.ones(n, dtype=torch.bool)`, is a mask too; so is
an index its author named a mask, `grad[valid_mask]`, unless it was cast to integers,
`mask = idx.astype(np.int64)`: an index array, a gather)
`x[mask]` / `x[mask] = v`, on any axis (`w[:, keep]`, `x[..., live]`: a data-dependent number
of columns). A mask into a host copy (`.cpu().numpy()`, `.asnumpy()`) selects on the host and is
not flagged. JAX's `jnp.nonzero(m, size=n)` and `jnp.where(m, size=n)` fix
the result's shape and are left alone, and so is NumPy named as `np` in a module written for
one device framework (an MXNet `CustomOp` after `.asnumpy()`, a torch module's host
bookkeeping): its arrays are host data, whose size costs no sync.

## Why it hurts on a GPU
The size of the result depends on the data, so the host must wait for the device to count
it before it can allocate the output: a sync. `jax.jit`, CUDA graph capture and other
strict settings reject data-dependent shapes outright.

## Example
```python
def pullback(dy):
    dx = xp.zeros_like(x)
    dx[x > 0] = dy[x > 0]        # SL106 twice
    return (dx,)
```

## What to write instead
Fixed-shape masked arithmetic: `dx = xp.where(x > 0, dy, 0)`; reductions of masks
(`xp.sum(mask)`, `xp.argmax(mask)`) instead of index lists.
""",
    fixers=(
        "mask_where",
    ),
)

NODE_TYPES = (cst.Call, cst.Subscript)
# x.nonzero(), x.unique(), x.to_sparse() (its number of stored values is counted on the device)
DATA_DEPENDENT_METHODS = frozenset({"nonzero", "unique", "to_sparse", "to_sparse_coo", "masked_select"})


def check(node: cst.CSTNode, ctx: CheckContext) -> Iterable[Finding]:
    if ctx.is_claimed(node):
        return
    if isinstance(node, cst.Subscript):
        if ctx.inference.is_mask_index(node):
            action = "write through" if ctx.is_store_target(node) else "read through"
            yield Finding(
                INFO.code,
                node,
                f"{action} the boolean mask in `{short(ctx, node)}`: the size depends on the data (a sync); "
                "use `xp.where(mask, a, b)`",
                ctx.severity_for(node),
            )
        return
    assert isinstance(node, cst.Call)
    func = ctx.inference.module_call(node)
    name: str | None = None
    if func is not None:
        name = func.rsplit(".", 1)[-1]
        if name == "where" and len(positional(node)) != 1:
            name = None
        elif name != "where" and name not in DATA_DEPENDENT:
            name = None
    elif isinstance(node.func, cst.Attribute) and node.func.attr.value in DATA_DEPENDENT_METHODS and ctx.inference.kind(node.func.value).is_array:
        name = node.func.attr.value
    if name is None or any(a.keyword is not None and a.keyword.value == "size" for a in node.args):
        return  # jnp.where(mask, size=1), jnp.nonzero(x, size=n): the caller fixed the shape
    if func is not None and ctx.inference.namespaces.host_numpy_call(node):
        return  # np.where in a module written for one device framework: host data (after .asnumpy())
    inputs = [ctx.inference.kind(a) for a in positional(node)]
    if isinstance(node.func, cst.Attribute) and func is None:
        inputs.append(ctx.inference.kind(node.func.value))
    if least_doubt(inputs) >= Doubt.PYTHON_DATA:
        return  # built from Python data (shapes, index lists): host bookkeeping
    yield Finding(
        INFO.code,
        node,
        f"`{name}` returns a data-dependent shape: a sync, and rejected under graph capture or jit; "
        "use fixed-shape masks (`xp.where`, `xp.argmax`, reductions)",
        ctx.severity_for(node),
    )
