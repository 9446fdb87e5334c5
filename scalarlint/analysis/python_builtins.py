"""What Python builtins return when AD code feeds them arrays and indices.

``len(x)`` is a host int bounded by ``x``; ``int()`` of a device value is a host int from the
data; ``max(elem, 1.0)`` of a 0-d device value stays on the device; ``next(j for j in ...)``
is a searched index; ``typing.cast(Floats2d, v)`` trusts its annotation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis import kinds as K
from scalarlint.analysis.kinds import Kind, Origin, Tag
from scalarlint.analysis.parameters import annotation_kind
from scalarlint.analysis.tree import children

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView


def builtin_kind(inf: "InferenceView", name: str, node: cst.Call, args: list[cst.BaseExpression]) -> Kind | None:
    if name == "len":
        if args and inf.kind(args[0]).is_array:
            return K.host_int(Origin.DATA, inf.kind(args[0]).key)
        return K.host_int(Origin.STRUCTURAL)
    if name == "int":
        if args:
            inner = inf.kind(args[0])
            if inner.is_device:  # int(p[i]) of an index array p indexes what p indexes
                base_key = inf.kind(args[0].value).key if isinstance(args[0], cst.Subscript) else None
                return K.host_int(Origin.DATA, inner.key or base_key)
            if inner.tag in (Tag.HOST_INT, Tag.HOST_SCALAR) and not inner.is_none:
                return K.host_int(inner.origin, inner.key)
            # int(i / width) with an unknown width: the index still follows i.
            return K.host_int(max([Origin.STRUCTURAL, *_host_origins(inf, args[0])]))
        return K.host_int(Origin.STRUCTURAL)
    if name in ("float", "bool", "complex", "str", "repr", "isinstance", "hasattr", "callable"):
        return K.HOST_SCALAR
    if name == "cast" and len(args) == 2:  # typing.cast(Floats2d, value): trust the annotation
        declared = annotation_kind(args[0])
        return declared if declared.tag is not Tag.UNKNOWN else inf.kind(args[1])
    if name == "next" and args and isinstance(args[0], cst.GeneratorExp):
        found = inf.kind(args[0].elt)  # next(j for j in range(n) if x[j] > 0): a searched index
        return K.host_int(max(found.origin, Origin.DATA), found.key) if found.is_host_int else K.UNKNOWN
    if name in ("tuple", "list"):
        if args:
            inner = inf.kind(args[0])
            if inner.tag in (Tag.SHAPE, Tag.ARRAY_SEQ):
                return inner
        return K.CONTAINER
    if name in ("dict", "set", "sorted", "zip", "enumerate", "map", "filter", "range", "xrange"):
        return K.CONTAINER
    if name == "round" and len(args) == 1 and node.args[0].keyword is None and inf.kind(args[0]).tag is Tag.DEVICE_SCALAR:
        return K.host_int(Origin.DATA)  # round(xmin * scale): a Python int, read from the device
    if name in ("max", "min", "sum", "abs", "round", "pow", "divmod"):
        kinds = [inf.kind(a) for a in args]
        if kinds and all(k.is_host_int for k in kinds):
            return K.combine(kinds)
        if len(kinds) == 1 and kinds[0].tag is Tag.SHAPE:
            return K.host_int(max(kinds[0].origin, Origin.SIZE))
        if name == "abs" and kinds and kinds[0].is_device:
            return kinds[0]
        scalars = [k for k in kinds if k.tag is Tag.DEVICE_SCALAR]
        if scalars and name != "sum" and all(k.tag in (Tag.DEVICE_SCALAR, Tag.HOST_INT, Tag.HOST_SCALAR) for k in kinds):
            # max(elem, 1.0); an element of a host copy stays doubtful
            return K.Kind(Tag.DEVICE_SCALAR, origin=max(k.origin for k in scalars), doubt=min(k.doubt for k in scalars))
        return K.UNKNOWN
    return None

def _host_origins(inf: "InferenceView", expr: cst.BaseExpression) -> list[Origin]:
    out: list[Origin] = []
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            kind = inf.kind(node)
            if kind.tag in (Tag.HOST_INT, Tag.HOST_SCALAR):
                out.append(kind.origin)
        elif not isinstance(node, (cst.Call, cst.Subscript, cst.Attribute)):
            stack.extend(children(node))
    return out
