"""Searches written as generators and comprehensions (SL103), vectorized like the loops.

``next(j for j in range(n) if p(a[j]))``, ``max(j for ... if ...)``, ``[j for ... if ...][0]``
or ``[-1]``, ``flatnonzero(m)[k]`` and ``nonzero(m)[0][k]`` become ``argmax`` of the mask
(first match) or of its flip (last match); see ``vectorized_search`` for when and why unsafe.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.inference import call_name, positional
from scalarlint.analysis.loop_range import RangeInfo
from scalarlint.analysis.syntax import integer_value
from scalarlint.diagnostics import Edit

from .array_evidence import known_array

from .edits import bare, needs_parens, parenthesized, replace_expression, xp_call
from .elementwise import module_function
from .index_facts import index_values
from .mask_argmax import needs_numeric_mask
from .search_parts import bound_name_ok, found_index, range_covers, vectorize_predicate
from .search_sentinel import device_sentinel, keep_sentinel

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile

# -- generators and comprehensions ----------------------------------------------------------------
def _comprehension_mask(
    analyzer: AnalyzedFile, gen: cst.GeneratorExp | cst.ListComp, xp: str, rng: RangeInfo | None
) -> tuple[cst.BaseExpression, RangeInfo] | None:
    """The search's mask and the range it scans (``rng``, as SL103 matched it)."""
    comp = gen.for_in
    if comp.inner_for_in is not None or comp.asynchronous is not None or not comp.ifs:
        return None
    if not (isinstance(comp.target, cst.Name) and isinstance(gen.elt, cst.Name) and gen.elt.value == comp.target.value):
        return None
    if rng is None or rng.start != 0:
        return None
    masks: list[cst.BaseExpression] = []
    bases: list[cst.BaseExpression] = []
    for cond in comp.ifs:
        vectorized = vectorize_predicate(analyzer, cond.test, comp.target.value, xp)
        if vectorized is None:
            return None
        masks.append(vectorized[0])
        bases.extend(vectorized[1])
    if not range_covers(analyzer, rng, bases):
        return None
    mask = masks[0]
    for more in masks[1:]:
        mask = cst.BinaryOperation(left=parenthesized(mask), operator=cst.BitAnd(), right=parenthesized(more))
    return mask, rng


def search_call_edits(analyzer: AnalyzedFile, call: cst.Call, xp: str, scan: RangeInfo | None) -> list[Edit] | None:
    """``next``/``max``/``min`` of a generator search; ``scan``: its range, as SL103 matched it."""
    name = call_name(call.func)
    if name not in (["next"], ["max"], ["min"]) or not call.args or any(a.keyword or a.star for a in call.args):
        return None
    gen = call.args[0].value
    if not isinstance(gen, cst.GeneratorExp):
        return None
    built = _comprehension_mask(analyzer, gen, xp, scan)
    if built is None:
        return None
    mask, rng = built
    if name == ["next"]:
        last = rng.reverse
    else:
        last = name == ["max"]
    found = found_index(xp, mask, last, rng.stop, numeric=needs_numeric_mask(analyzer, call, xp))
    if len(call.args) == 2:
        if name != ["next"] or not device_sentinel(call.args[1].value):
            return None  # (``None`` cannot be a device index)
        found = keep_sentinel(xp, mask, found, call.args[1].value, last)
    elif len(call.args) != 1:
        return None
    if not bound_name_ok(analyzer, call):
        return None
    return [replace_expression(analyzer, call, found, parens=needs_parens(analyzer, call) and isinstance(found, cst.BinaryOperation))]


def search_subscript_edits(analyzer: AnalyzedFile, node: cst.Subscript, xp: str, scan: RangeInfo | None) -> list[Edit] | None:
    """``[j for ...][0]``/``[-1]`` and ``flatnonzero(mask)[0]``-style searches; ``scan``: the
    comprehension's range, as SL103 matched it."""
    values = index_values(node)
    if values is None or len(values) != 1 or integer_value(values[0]) not in (0, -1):
        return None
    last = integer_value(values[0]) == -1
    value = node.value
    if isinstance(value, cst.ListComp):
        built = _comprehension_mask(analyzer, value, xp, scan)
        if built is None:
            return None
        mask, rng = built
        found = found_index(xp, mask, last != rng.reverse, rng.stop, numeric=needs_numeric_mask(analyzer, node, xp))
    else:
        mask_and_size = _nonzero_mask(analyzer, value, xp)
        if mask_and_size is None:
            return None
        mask, size = mask_and_size
        found = found_index(xp, mask, last, size, numeric=needs_numeric_mask(analyzer, node, xp))
    if not bound_name_ok(analyzer, node):
        return None
    return [replace_expression(analyzer, node, found, parens=needs_parens(analyzer, node) and isinstance(found, cst.BinaryOperation))]


def _nonzero_mask(analyzer: AnalyzedFile, value: cst.BaseExpression, xp: str) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """For ``flatnonzero(m)`` or ``nonzero(m)[0]``: the mask and the length of the search. The mask
    is ``m`` where it is known to be boolean, else ``m != 0`` (``argmax`` of the values themselves
    would find the largest, not the first nonzero)."""
    inference = analyzer.context.inference
    tuple_form = False
    if isinstance(value, cst.Subscript):
        inner = index_values(value)
        if inner is None or len(inner) != 1 or integer_value(inner[0]) != 0:
            return None
        value, tuple_form = value.value, True
    if not isinstance(value, cst.Call):
        return None
    func = module_function(analyzer, value)
    args = positional(value)
    if func is not None and len(args) == 1 and len(value.args) == 1:
        mask = args[0]
        if tuple_form != (func in ("nonzero", "where")) or func not in ("flatnonzero", "nonzero", "where"):
            return None
    elif tuple_form and isinstance(value.func, cst.Attribute) and value.func.attr.value == "nonzero" and not value.args:
        mask = value.func.value
        func = "nonzero"
    else:
        return None
    if not known_array(analyzer, mask):
        return None
    kind = inference.kind(mask)
    if tuple_form and kind.rank is not None and kind.rank != 1:
        return None  # nonzero(m)[0] of a matrix is a row index
    held = parenthesized(bare(mask))
    if not kind.boolean:  # nonzero of numbers: the mask of the nonzero elements, not argmax of the values
        mask = cst.Comparison(left=held, comparisons=[cst.ComparisonTarget(cst.NotEqual(), cst.Integer("0"))])
    if not (tuple_form or kind.rank == 1):
        # flatnonzero of any rank searches the flat mask; its length is `.shape[0]` of that
        # (`m.size` is a method on a PyTorch tensor, not the element count)
        minus_one = cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer("1"))
        mask = held = xp_call(xp, "reshape", bare(mask), cst.Tuple([cst.Element(minus_one, comma=cst.Comma())]))
    size = cst.Subscript(
        value=cst.Attribute(value=held, attr=cst.Name("shape")),
        slice=[cst.SubscriptElement(slice=cst.Index(value=cst.Integer("0")))],
    )
    return mask, size

