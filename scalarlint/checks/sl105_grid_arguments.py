"""SL105, one case: an array element given as an endpoint or a count of a grid constructor.

``torch.linspace(0, dt, steps)`` with ``dt = t_span[1] - t_span[0]``, ``xp.arange(start, n[b])``:
these constructors take Python numbers (the array API types their endpoints and counts as
``int | float``), so the library reads a device element back to the host (``.item()``,
``__index__``, ``__float__``) before it can allocate anything: a sync. JAX and TensorFlow take
traced endpoints for ``linspace``/``logspace`` (their counts must still be Python ints, and
``jnp.arange`` of a traced value fails outright), so only their counts are reported there. The
first argument of ``arange`` is a size, reported with the other sizes (``_element_shape``).
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from scalarlint.analysis.imports import call_head
from scalarlint.analysis.syntax import positional
from scalarlint.checks.base import CheckContext, Finding, short
from scalarlint.checks.sl105_element_lists import STACKING_NAMESPACES

CODE = "SL105"
# positions and keywords of each constructor's endpoints, then of its count or step
GRID_ENDS = {"linspace": ((0, 1), ("start", "end", "stop")), "logspace": ((0, 1), ("start", "end", "stop")), "arange": ((1,), ("end", "stop"))}
GRID_COUNTS = {"linspace": ((2,), ("steps", "num")), "logspace": ((2,), ("steps", "num")), "arange": ((2,), ("step",))}


def element_grid_argument(node: cst.Call, func: str, ctx: CheckContext) -> Iterable[Finding]:
    """The first element among ``node``'s endpoints and counts (``func``: the constructor's
    name), reported once."""
    if func not in GRID_ENDS:
        return
    head = call_head(node)
    traced_ends = isinstance(head, cst.Name) and head.value in STACKING_NAMESPACES
    wanted = [GRID_COUNTS[func]] if traced_ends and func != "arange" else [GRID_ENDS[func], GRID_COUNTS[func]]
    given = positional(node)
    for positions, keywords in wanted:
        values = [given[k] for k in positions if k < len(given)]
        values += [a.value for a in node.args if a.keyword is not None and a.keyword.value in keywords]
        for value in values:
            if ctx.inference.is_element_value(value):
                yield Finding(
                    CODE,
                    node,
                    f"`{func}()` needs `{short(ctx, value)}` as a Python number, but it is an array element: a sync",
                    ctx.severity_for(node),
                )
                return
