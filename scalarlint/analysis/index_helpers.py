"""Index helpers: small functions that turn loop counters into a flat offset, as code ported
from C or CUDA writes them (``idx(t, u) -> t * U + u``, ``Index.__call__``).

What such a helper returns is what its arguments are: host ints in, a host int out (so
``log_probs[idx(t, u)]`` picks one element); one element of a device array in, a device value
out. Reading the callee's parameters as a helper's parameters instead (possibly arrays) would
lose exactly the index the caller's loop walks. Only helpers whose every ``return`` is integer
arithmetic of their parameters, ``self`` attributes (sizes set at construction) and literals
count; anything else is left to the general return rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import libcst as cst

from scalarlint.analysis import kinds as K
from scalarlint.analysis.kinds import Kind, Origin, Tag

INTEGER_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)


@dataclass(frozen=True)
class IndexHelper:
    arity: int  # positional parameters after ``self``
    flat: bool  # a return multiplies (``t * U + u``): several counters flattened into one offset


def index_helper(func: cst.FunctionDef, returns: Sequence[cst.Return]) -> IndexHelper | None:
    """``func`` as an index helper: every return is integer arithmetic of its positional
    parameters, ``self.<attr>`` and integer literals; None otherwise."""
    names = [p.name.value for p in func.params.params]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    if not returns or not names:
        return None
    multiplies: list[bool] = []
    if not all(r.value is not None and _integer_arithmetic(r.value, set(names), multiplies) for r in returns):
        return None
    return IndexHelper(len(names), any(multiplies))


def _integer_arithmetic(node: cst.BaseExpression, params: set[str], multiplies: list[bool]) -> bool:
    if isinstance(node, cst.Integer):
        return True
    if isinstance(node, cst.Name):
        return node.value in params
    if isinstance(node, cst.Attribute):
        return isinstance(node.value, cst.Name) and node.value.value == "self"
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, INTEGER_OPERATORS):
        multiplies.append(isinstance(node.operator, cst.Multiply))
        return _integer_arithmetic(node.left, params, multiplies) and _integer_arithmetic(node.right, params, multiplies)
    return False


def offset_kind(argument_kinds: Sequence[Kind], flat: bool) -> Kind | None:
    """The kind of an index helper's result from the kinds of the arguments given to it:
    a host int when all are host ints, a device value when one is an element of a device
    array and the rest host ints or device values; None when any is something else. A flat
    offset of host ints picks one element whatever the buffer's rank looks like, as an int
    parameter of a ``getindex`` does (``Origin.PARAM``)."""
    if not argument_kinds:
        return None
    if all(k.is_host_int for k in argument_kinds):
        origin = max(k.origin for k in argument_kinds)
        return K.host_int(Origin.PARAM if flat and origin >= Origin.STRUCTURAL else origin)
    device = [k for k in argument_kinds if k.tag is Tag.DEVICE_SCALAR and not k.doubt]
    if device and all(k.is_host_int or k in device for k in argument_kinds):
        return K.Kind(Tag.DEVICE_SCALAR, origin=max(k.origin for k in device))
    return None
