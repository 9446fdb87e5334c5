"""The low-confidence tier of SL101/SL102, reported only under ``--confidence low``.

The inference reports nothing it cannot follow (precision first). Two patterns are worth showing
to someone who asks for everything, and never at the default threshold:

* inside an AD rule's own body, ``v[i]`` with ``i`` the variable of ``for i in range(len(v))``
  (or ``range(v.shape[0])``, ``range(v.size(0))``) over that same ``v``: an element walk
  whenever ``v`` is an array at all (rule bodies hold arrays unless proven otherwise);
* a literal index of a device array whose rank nothing states (``interval[0]``,
  ``bounds[-1]``): one element if the array has one axis, a row if it has more. Measured on the
  labelled set (102 code bases) it finds 26 more true instances for 82 more near-miss hits,
  which is why it waits for ``--confidence low``.

The checks call this only when the threshold is ``low``: a default run pays nothing for it.
"""

from __future__ import annotations

import libcst as cst

from scalarlint.analysis.kinds import Doubt, Origin, Tag
from scalarlint.analysis.origins import range_walks
from scalarlint.checks.base import CheckContext


def wanted(ctx: CheckContext) -> bool:
    return ctx.inference.config.confidence == "low"


def walks_unknown_by_length(sub: cst.Subscript, ctx: CheckContext) -> bool:
    """The low tier (``--confidence low``): ``v[i]`` in a rule's own body (not a helper's) with
    ``v`` a value the inference cannot follow and ``i`` the variable of ``for i in
    range(len(v))`` (or ``range(v.shape[0])``): an element walk if ``v`` is an array. A read
    must be used as a Python scalar (else it may be a row), and ``v`` must not be tested as a
    list or tuple around it."""
    inf = ctx.inference
    if ctx.function not in inf.rule_functions or len(sub.slice) != 1:
        return False
    value = sub.value
    if not isinstance(value, (cst.Name, cst.Attribute)) or (isinstance(value, cst.Name) and value.value in ("self", "ctx", "cls")):
        return False
    if inf.kind(value).tag is not Tag.UNKNOWN:
        return False
    index = sub.slice[0].slice
    if not isinstance(index, cst.Index) or not isinstance(index.value, cst.Name):
        return False
    if not ctx.is_store_target(sub) and not inf.used_as_scalar(sub):
        return False  # mx.nd.take(roi[i], ...): a row handed to an array function
    if _guarded_as_container(sub, value, ctx):
        return False
    for loop in ctx.enclosing_loops(sub):
        if isinstance(loop, (cst.For, cst.CompFor)) and isinstance(loop.target, cst.Name) and loop.target.value == index.value.value:
            return range_walks(loop.iter, value)
    return False


def literal_read_of_unknown_rank(sub: cst.Subscript, ctx: CheckContext) -> bool:
    """The low tier: ``x[0]`` or ``x[-1]`` of a device array (certain or probable) whose rank the
    inference cannot tell, read with one literal host int."""
    inf = ctx.inference
    if len(sub.slice) != 1 or ctx.is_store_target(sub):
        return False
    base = inf.kind(sub.value)
    if base.tag is not Tag.ARRAY or base.rank is not None or base.doubt > Doubt.PARAMETER:
        return False
    indices = inf.index_kinds(sub)
    return bool(indices) and indices[0].is_host_int and indices[0].origin == Origin.LITERAL


def _guarded_as_container(sub: cst.Subscript, value: cst.BaseExpression, ctx: CheckContext) -> bool:
    """Inside ``if isinstance(v, list):`` (or tuple): ``v`` is a Python container there."""
    name = ctx.source_of(value)
    parent = ctx.parents.get(sub)
    while parent is not None and parent is not ctx.function:
        if isinstance(parent, cst.If):
            test = ctx.source_of(parent.test).replace(" ", "")
            if test.startswith(f"isinstance({name},") and any(t in test for t in ("list", "tuple", "List", "Tuple")):
                return True
        parent = ctx.parents.get(parent)
    return False
