"""The first or the last hit of a search, picked on the host: ``xp.flatnonzero(mask)[-1]``,
``xp.nonzero(mask)[0][0]``, ``xp.argwhere(mask)[0]``, ``xp.where(mask)[0][-1]``.

SL103 reports such a pick as a search (a sync, and an index array of data-dependent length
made only to keep one entry of it); SL104, which reports the unpacking of the row it picks
(``x, y = argwhere(m)[0]``), leaves the pick itself to SL103. ``nonzero(mask)[0]`` alone is
the index array of axis 0, not a pick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import libcst as cst

from scalarlint.analysis.kinds import Doubt, least_doubt
from scalarlint.analysis.syntax import integer_value, positional

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView

SEARCH_CALLS = frozenset({"flatnonzero", "nonzero", "argwhere", "where"})


class SearchPick(NamedTuple):
    """The search call a literal index picks from, and whether the pick is its last hit."""

    call: cst.Call
    last: bool


def literal_pick(node: cst.Subscript) -> bool | None:
    """For ``v[0]``/``v[k]``: False; for ``v[-1]``/``v[-k]``: True; None for anything else."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    value = integer_value(node.slice[0].slice.value)
    return None if value is None else value < 0


def search_pick(node: cst.Subscript, inference: InferenceView) -> SearchPick | None:
    """The search ``node`` picks one hit of, on device data; None when it is no such pick."""
    last = literal_pick(node)
    if last is None:
        return None
    value = node.value
    tuple_form = isinstance(value, cst.Subscript) and isinstance(value.value, cst.Call)
    if tuple_form:  # nonzero(mask)[0][k]
        value = value.value  # type: ignore[union-attr]
    if not isinstance(value, cst.Call):
        return None
    if least_doubt([inference.kind(a) for a in positional(value)]) >= Doubt.PYTHON_DATA:
        return None  # host bookkeeping on Python data
    func = inference.module_call(value)
    if func is None and isinstance(value.func, cst.Attribute) and value.func.attr.value == "nonzero":
        func = "nonzero" if inference.kind(value.func.value).is_array else None
    name = func.rsplit(".", 1)[-1] if func is not None else None
    if name not in SEARCH_CALLS:
        return None
    if name in ("nonzero", "where") and not tuple_form:
        return None  # nonzero(mask)[0] is the index array of axis 0, not a search
    if name == "where" and len(positional(value)) != 1:
        return None
    return SearchPick(value, last)
