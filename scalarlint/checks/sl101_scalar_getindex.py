"""SL101 scalar-getindex: reading one element of a device array with host-integer indices.

Everything about SL101 starts here: this module is the check (what it matches, its documentation in
``INFO.doc``, and in ``INFO.fixers`` the modules of ``fixers/`` that rewrite its findings); its
fixtures and their ``--diff`` snapshots are in ``tests/checks/SL101/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import libcst as cst

from scalarlint.checks import low_tier
from scalarlint.checks.base import (
    CheckContext,
    CheckInfo,
    ElementMatch,
    Finding,
    element_finding,
)

INFO = CheckInfo(
    code="SL101",
    name="scalar-getindex",
    summary="Reading one element of an array with host-integer indices",
    doc="""\
## What it flags
Reading a single element of an array inside an AD rule (or a helper a rule calls) with
host-integer indices: `x[i]`, `x[-1]`, `x[i, j]` where every axis gets a Python int (from a
literal, `range`, `len`, `.shape[k]`, `int(...)`, or arithmetic on those).

## Why it hurts on a GPU
On CuPy or PyTorch CUDA, `x[i]` is a 0-d device view; the first host use of it (`if`,
`float()`, Python arithmetic with host values, printing) waits for the device: a sync.
Inside a loop over the data it is one kernel launch and often one sync **per element**,
orders of magnitude slower than one vectorized kernel. Strict backends (JAX tracing, CUDA.jl
with `allowscalar(false)`, `scalarlint.runtime.StrictArray`) reject it outright.
Reported as an error inside a loop over data, as a warning for a single access.

Not flagged: indexing tuples, lists, dicts and `x.shape`; slices (`x[i:i+1]`, `x[i, :]`);
integer-array or 0-d device-array indices (`x[xp.argmax(x)]` is a gather kernel on CuPy and
JAX, no sync; PyTorch reads a 0-d index back with `.item()`, which SL105 reports in torch code);
an int on the leading axis of an array of rank 2 or more (a row, not an element). A read
converted on the host (`int(x[i])`, `x[i].item()`) is one element whatever the rank, and a read
taken by `.item()` is one whatever its index (`crow[start + rows].item()` with `rows` a value
the inference cannot follow), unless the index is a device value or a slice; such a
read, one tested on the host (`if x[i] > 0:`) or one used as a slice bound (`g[:ends[0]]`), is
also SL105's finding (the wait). A literal index of an array of unknown rank is one element where the function shows the rank: the first
and the last entry read in one statement or on adjacent lines (`a, b = interval[0], interval[-1]`,
the two ends of a grid), a value rebound to its own first entry under a test that it has axes
(`if len(t.shape) > 0: t = t[0]`), element writes with host-int indices to the same array (`betas[idx(t, u)] = ...`, then
`betas[0]`), or a stated rank of a value the inference cannot follow (`t_span[0]` under
`elif len(t_span.shape) == 1:`). Host ints chained on one array read as one subscript
(`out_t[4][i]` as `out_t[4, i]`) where the array shows as many axes elsewhere in the function
(`out_t.shape[1]`); the ranks an op declares for its inputs count as known (PyTensor's
`itypes = [pt.dvector, pt.dmatrix]` for the arrays `perform` receives); nested lists
(`blocks[i][k]`) have no shape and are left alone. A tuple of one int per axis of the array itself (`x[x.ndim * (0,)]`) is one element at any rank. With
`--confidence low` it also reports a literal index of an array whose rank nothing states
(`t_span[0]`: an element if `t_span` has one axis), at confidence `low`.

## Example
```python
def rrule_norm_inf(x):
    y = xp.max(xp.abs(x))
    def pullback(dy):
        dx = xp.zeros_like(x)
        i = len(x) - 1
        dx[i] = xp.sign(x[i]) * dy      # SL102 and SL101
        return (dx,)
    return y, pullback
```

## What to write instead
A size-1 view keeps the value on the device: `xp.sign(x[i:i+1])`, `x[-1:]`. For a single,
intended access, wrap it in `with allow_scalar():` (from `scalarlint.runtime`). Inside a
loop, vectorize the loop instead (`xp.where`, reductions, `argmax` of a mask).
""",
    fixers=(
        "device_index",
        "slice_view",
        "zero_d_view",
        "element_loop",
        "running_scan",
        "product_of_others",
        "suffix_sum",
        "outer_sum",
        "scatter_add",
        "while_search",
        "allow_scalar_block",
        "allow_scalar_header",
        "host_copy",
    ),
)


@dataclass(frozen=True)
class ScalarRead(ElementMatch):
    """SL101's match: the reported subscript is one element read of a device array."""


NODE_TYPES = (cst.Subscript,)


def check(node: cst.CSTNode, ctx: CheckContext) -> Iterable[Finding]:
    assert isinstance(node, cst.Subscript)
    converted = ctx.is_converted_read(node)
    if (ctx.is_claimed(node) and not converted) or ctx.is_store_target(node):
        return
    unknown = False
    if not converted and not ctx.inference.selects_element(node):
        unknown = low_tier.wanted(ctx) and (low_tier.walks_unknown_by_length(node, ctx) or low_tier.literal_read_of_unknown_rank(node, ctx))
        if not unknown:
            return
    if _unpacked(node, ctx):
        return
    finding = element_finding(
        INFO.code,
        node,
        ctx,
        "scalar read",
        " of a device array: inside a loop over data: one launch and one sync per element",
        " of a device array: a host sync as soon as the value is used on the host",
        "use a size-1 slice, vectorize, or `allow_scalar()`",
        ScalarRead(guessed=unknown),
    )
    yield finding


def _unpacked(node: cst.Subscript, ctx: CheckContext) -> bool:
    """``a, b = x[i]``: a row being unpacked (SL104 reports the iteration), not one element."""
    parent = ctx.parents.get(node)
    return isinstance(parent, cst.Assign) and any(isinstance(t.target, (cst.Tuple, cst.List)) for t in parent.targets)
