"""The low-confidence tier of SL101/SL102, reported only under ``--confidence low``.

The inference reports nothing it cannot follow (precision first). Inside an AD rule's own body,
though, one pattern is an element walk whenever the value is an array at all: ``v[i]`` with
``i`` the variable of ``for i in range(len(v))`` (or ``range(v.shape[0])``, ``range(v.size(0))``)
over that same ``v``. Rule bodies hold arrays unless proven otherwise, so such an access is
worth showing to someone who asks for everything, and never at the default threshold. The
checks call this only when the threshold is ``low``: a default run pays nothing for it.
"""

from __future__ import annotations

import libcst as cst

from scalarlint.analysis.kinds import Tag
from scalarlint.analysis.origins import range_walks
from scalarlint.checks.base import CheckContext

UNKNOWN_VALUE = "unknown_value"  # Finding.data key that marks a finding of this tier


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
