"""What a list that a collective fills holds: ``sizes = []; dist.all_gather(sizes, t)``.

Distributed rules (``torch.distributed``, ``paddle.distributed``, OneFlow's ``comm``) gather
one tensor per rank into a Python list the rule made empty: the list then holds tensors shaped
like the one gathered, whatever its display said. When that tensor is a host number wrapped
on the device (``paddle.to_tensor(x.shape[0])``) or one element, each entry is one number on
the device, and reading it back (a size, a bound, ``int()``) is one element's sync, as for a
number a forward saved in a 0-d tensor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.array_api import TENSOR_CONVERTERS
from scalarlint.analysis.kinds import ELEMENT, Kind, Tag
from scalarlint.analysis.syntax import call_name, positional
from scalarlint.analysis.tree import walk

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView

GATHERS = frozenset({"all_gather"})  # (tensor_list, tensor): the list gets one tensor per rank


def gathered_list_kind(inf: "InferenceView", target: cst.Name) -> Kind | None:
    """The kind of the empty list bound to ``target`` when its function gathers into it
    (``all_gather(target, tensor)``); None when nothing does."""
    function = inf.enclosing_function(target)
    if function is None:
        return None
    key = ("gathers", function)
    if key not in inf.cache:
        inf.cache[key] = _gathers(function)
    gathers: dict[str, cst.BaseExpression] = inf.cache[key]  # type: ignore[assignment]
    gathered = gathers.get(target.value)
    if gathered is None:
        return None
    kind = inf.kind(gathered)
    if kind.is_element or _wraps_a_number(inf, gathered):
        return Kind(Tag.ARRAY_SEQ, rank=0, origin=ELEMENT)  # one number per rank, each on the device
    if kind.tag is Tag.ARRAY:
        return Kind(Tag.ARRAY_SEQ, rank=kind.rank, doubt=kind.doubt)
    return None


def _gathers(function: cst.CSTNode) -> dict[str, cst.BaseExpression]:
    """Name of each list the function gathers into -> the tensor gathered into it."""
    found: dict[str, cst.BaseExpression] = {}
    for node in walk(function):
        if type(node) is cst.Call and (call_name(node.func) or [""])[-1] in GATHERS:  # type: ignore[attr-defined]
            args = positional(node)  # type: ignore[arg-type]
            if len(args) >= 2 and isinstance(args[0], cst.Name):
                found[args[0].value] = args[1]
    return found


def _wraps_a_number(inf: "InferenceView", value: cst.BaseExpression) -> bool:
    """``paddle.to_tensor(n)``, ``torch.tensor(x.shape[0])``: a host number put on the device."""
    if not isinstance(value, cst.Call):
        return False
    func = inf.module_call(value)
    args = positional(value)
    return (
        func is not None and func.rsplit(".", 1)[-1] in TENSOR_CONVERTERS and bool(args)
        and inf.kind(args[0]).tag in (Tag.HOST_INT, Tag.HOST_SCALAR)
    )
