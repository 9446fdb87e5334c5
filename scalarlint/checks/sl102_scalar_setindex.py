"""SL102 scalar-setindex: writing one element of a device array with host-integer indices.

Everything about SL102 starts here: this module is the check (what it matches, its documentation in
``INFO.doc``, and in ``INFO.fixers`` the modules of ``fixers/`` that rewrite its findings); its
fixtures and their ``--diff`` snapshots are in ``tests/checks/SL102/``.
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
    code="SL102",
    name="scalar-setindex",
    summary="Writing one element of an array (`=`, `+=`, ...) with host-integer indices",
    doc="""\
## What it flags
Assigning to a single element of an array inside an AD rule: `dx[i] = v`, `dx[i] += v`,
`dx[i, j] = v`, `del`-free element writes, with host-integer indices on every axis. Torch's
legacy `x.new(n)` makes an array of one axis per size given. One value written where nothing
states the array's rank (`out[k] = lengths[k]`) is not taken as an element write: it fills a
row as often.

## Why it hurts on a GPU
Each element write is its own kernel launch on CuPy / PyTorch CUDA; a loop of them is one
launch per element, and the value written usually comes from a scalar read that syncs. JAX
arrays are immutable and reject it; strict backends raise. It also makes the rule hostile to
second derivatives (mutation).

## Example
```python
def pullback(dy):
    dx = xp.zeros_like(x)
    for i in range(len(x)):
        dx[i] = dy * x[i]     # SL102 (error: inside a loop over data) and SL101
    return (dx,)
```

## What to write instead
Vectorize: `dx = dy * x`. For one element, write a size-1 view (`dx[i:i+1] = ...`), a
scatter with a device index (`dx[i_dev] = v`), a one-hot `xp.where(xp.arange(n) == i, v, 0)`,
or mark the intent with `with allow_scalar():`.
""",
    fixers=(
        "device_index",
        "slice_view",
        "element_loop",
        "running_scan",
        "product_of_others",
        "suffix_sum",
        "scatter_add",
        "allow_scalar_block",
    ),
)


@dataclass(frozen=True)
class ScalarWrite(ElementMatch):
    """SL102's match: the reported subscript is one element write of a device array."""


NODE_TYPES = (cst.Subscript,)


def check(node: cst.CSTNode, ctx: CheckContext) -> Iterable[Finding]:
    assert isinstance(node, cst.Subscript)
    if ctx.is_claimed(node) or not ctx.is_store_target(node):
        return
    unknown = False
    if not ctx.inference.selects_element(node):
        unknown = low_tier.wanted(ctx) and low_tier.walks_unknown_by_length(node, ctx)
        if not unknown:
            return
    finding = element_finding(
        INFO.code,
        node,
        ctx,
        "scalar write to",
        ": inside a loop over data: one kernel launch per element",
        ": one kernel launch, and rejected by strict backends",
        "write a size-1 view, vectorize, or use `allow_scalar()`",
        ScalarWrite(guessed=unknown),
    )
    yield finding
