"""What a name bound by an assignment, an unpacking or a loop holds.

``a, (b, c) = value`` takes the part of ``value`` at its position; ``y, lo, hi = _bounds(p)``
the matching part of what the helper returns; ``for i in range(len(x))`` a host int bounded by
``x``; ``for v in x`` one element (or a row) of ``x``; ``x0, y0, x1, y1 = rois[i]`` the
elements of a row; ``c, a, bsol = self.tableau`` the parts of what the class assigned to it. The inference (``inference.py``) calls these for names it meets.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis import kinds as K
from scalarlint.analysis.array_returns import ARRAY, ARRAYS, VECTOR, VECTORS
from scalarlint.analysis.declared_inputs import declared_ranks
from scalarlint.analysis.gathered_lists import gathered_list_kind
from scalarlint.analysis.kinds import ELEMENT, Doubt, Kind, Origin, Tag
from scalarlint.analysis.node_types import kinds
from scalarlint.analysis.syntax import call_name, is_range, is_range_name, keyword, positional

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView

_UNPACKED = kinds(cst.Element, cst.StarredElement, cst.Tuple, cst.List)  # ``isinstance`` stand-in (``node_types``)


def binding_kind(inf: "InferenceView", name: cst.Name) -> Kind:
    """Kind of the value bound to an assignment-target name."""
    path: list[int] = []
    arity = 1
    child: cst.CSTNode = name
    parent = inf.parents.get(child)
    while type(parent) in _UNPACKED:  # exact types (``node_types``): every name bound goes through here
        if isinstance(parent, (cst.Tuple, cst.List)):
            path.insert(0, [e for e in parent.elements].index(child))  # type: ignore[arg-type]
            arity = max(arity, len(parent.elements))
        if isinstance(parent, cst.StarredElement):
            return K.CONTAINER
        child, parent = parent, inf.parents.get(parent)
    if isinstance(parent, cst.AssignTarget):
        assign = inf.parents.get(parent)
        if isinstance(assign, cst.Assign):
            if not path and isinstance(assign.value, cst.List) and not assign.value.elements:
                gathered = gathered_list_kind(inf, name)  # sizes = []; dist.all_gather(sizes, t)
                if gathered is not None:
                    return gathered
            return unpack(inf, assign.value, path, arity)
    if isinstance(parent, cst.AnnAssign) and parent.value is not None:
        return unpack(inf, parent.value, path, arity)
    if isinstance(parent, cst.AugAssign):
        value = inf.kind(parent.value)
        before = inf.kind(name) if isinstance(parent.target, cst.Name) else K.UNKNOWN  # what it held
        if before.tag is Tag.ARRAY:
            return before  # first_spike_time -= 1 keeps an array an array
        if value.tag is Tag.ARRAY or Tag.DEVICE_SCALAR in (before.tag, value.tag):
            return value if value.tag is Tag.ARRAY else K.Kind(Tag.DEVICE_SCALAR, origin=max(before.origin, value.origin), doubt=K.least_doubt((before, value)))
        return value if value.tag in (Tag.HOST_INT, Tag.ARRAY, Tag.DEVICE_SCALAR) else K.UNKNOWN
    if isinstance(parent, cst.NamedExpr):
        return inf.kind(parent.value)
    if isinstance(parent, (cst.For, cst.CompFor)):
        return loop_element(inf, parent.iter, path)
    return K.UNKNOWN

def unpack(inf: "InferenceView", value: cst.BaseExpression, path: list[int], arity: int = 1) -> Kind:
    """Kind of the part of ``value`` at ``path`` (``a, (b, c) = value``)."""
    for depth, position in enumerate(path):
        value = loop_carry(value)
        if isinstance(value, (cst.Tuple, cst.List)) and position < len(value.elements):
            element = value.elements[position]
            if isinstance(element, cst.StarredElement):
                return K.UNKNOWN
            value = element.value
            continue
        if isinstance(value, cst.Call):
            local = inf.local_function(value)
            if local is not None:  # y, lo, hi = _bounds(p)
                return inf.calls.return_kind(local, path[depth:], arity)
            if call_name(value.func) == ["divmod"]:
                return inf.kind(value)
            parts = inf.returned_parts(value)  # c, a, bsol = construct_rk4(dtype), from another module
            if parts and len(path) - depth == 1 and position < len(parts):
                return part_kind(parts[position])
        if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value in ("self", "ctx"):
            assigned = inf.calls.unpack_attribute(value, path[depth:], arity)  # c, a, bsol = self.tableau
            if assigned is not None:
                return assigned
        if isinstance(value, cst.Name) and len(path) - depth == 1:
            declared = declared_ranks(inf, value)  # params, y = inputs of an op with itypes = [dvector, dmatrix]
            if declared is not None and position < len(declared) and declared[position] is not None:
                return K.array(declared[position])
            residual = inf.calls.residual_kind(value, position)  # args, x = res: what fwd put there
            if residual is not None:
                return residual
        container = inf.kind(value)
        if container.tag is Tag.ARRAY_SEQ and len(path) - depth == 1 and is_saved_access(value):
            saved = inf.calls.saved_kind(value, position)  # padding, = ctx.saved_tensors
            if saved is not None:
                return saved
        if container.tag is Tag.SHAPE and arity >= 2:
            # B, C, H, W = x.shape: sizes of the axes of a multi-dimensional array; an
            # index below one of them picks a slab, not an element.
            return K.host_int(Origin.SIZE)
        if isinstance(value, cst.Subscript) and container.is_device and not container.doubt and arity >= 2:
            return K.Kind(Tag.DEVICE_SCALAR, origin=ELEMENT)  # x0, y0, x1, y1 = rois[i]: a row's elements
        if isinstance(value, cst.Name) and container.tag is Tag.DEVICE_SCALAR and not container.doubt and arity >= 2 and inf.parameter_of(value) is None:
            # ix, iy, iz = index after index = (points[i] / pitch).astype(int): what the inference
            # took for one element is a row (unpacking proves it), and these are its elements
            return K.Kind(Tag.DEVICE_SCALAR, origin=ELEMENT)
        if container.tag is Tag.ARRAY and container.doubt == Doubt.PARAMETER and arity >= 2 and isinstance(value, cst.Name):
            # matrix, indices = arrays: a rule's parameter unpacked into names is the tuple of
            # arrays a registration hands over, or an array's rows: arrays either way
            return K.array(doubt=Doubt.PARAMETER)
        return element_of(container)
    return inf.kind(loop_carry(value))


# jax.lax loops hand back a value shaped like their initial carry: (position, keyword) of it
CARRY_ARGUMENTS = {"fori_loop": (3, "init_val"), "while_loop": (2, "init_val")}


def loop_carry(value: cst.BaseExpression) -> cst.BaseExpression:
    """``lax.fori_loop(0, n, body, (a, b, values))``: its result has the structure and the
    kinds of the initial carry ``(a, b, values)``, so that is what unpacking it reads;
    ``value`` itself for anything else."""
    if not isinstance(value, cst.Call):
        return value
    name = call_name(value.func)
    if not name or name[-1] not in CARRY_ARGUMENTS:
        return value
    position, name_of_it = CARRY_ARGUMENTS[name[-1]]
    named = keyword(value, name_of_it)
    if named is not None:
        return named.value
    args = positional(value)
    return args[position] if position < len(args) else value


def part_kind(part: str) -> Kind:
    """The kind of one part of a tuple another module's function returns (``array_returns``' words)."""
    if part in (ARRAY, VECTOR):
        return K.array(1 if part == VECTOR else None)
    if part in (ARRAYS, VECTORS):
        return replace(K.ARRAY_SEQ, rank=1 if part == VECTORS else None)  # the rank of each array held
    return K.UNKNOWN


def is_saved_access(value: cst.BaseExpression) -> bool:
    """``ctx.saved_tensors`` or ``ctx.saved_tensor()``: what a forward saved for its backward."""
    if isinstance(value, cst.Call):
        value = value.func
    return isinstance(value, cst.Attribute) and value.attr.value.startswith("saved_")


def loop_element(inf: "InferenceView", iterable: cst.BaseExpression, path: list[int]) -> Kind:
    if isinstance(iterable, cst.Call):
        parts = call_name(iterable.func)
        args = positional(iterable)
        if is_range_name(parts) or (parts == ["reversed"] and args and is_range(args[0])):
            rng = args[0] if parts == ["reversed"] else iterable
            bounds = [inf.kind(a) for a in positional(rng)]  # type: ignore[arg-type]
            origin = Origin.DATA if inf.range_over_data(rng) else Origin.STRUCTURAL  # type: ignore[arg-type]
            return K.host_int(origin, K.shared_key(bounds))
        if parts and parts[-1] == "ndindex" and args:
            data = any(inf.kind(a).origin >= Origin.PARAM for a in args)
            return K.host_int(Origin.DATA if data else Origin.STRUCTURAL)
        if parts == ["enumerate"] and args:
            if not path:
                return K.CONTAINER
            if path[0] == 0:
                iterated = inf.kind(args[0])
                return K.host_int(Origin.DATA if iterated.is_array else Origin.STRUCTURAL, iterated.key)
            return loop_element(inf, args[0], path[1:])
        if parts == ["zip"] and args:
            if not path or path[0] >= len(args):
                return K.CONTAINER
            return loop_element(inf, args[path[0]], path[1:])
    container = inf.kind(iterable)
    if container.tag is Tag.ARRAY:
        if container.rank is not None and container.rank >= 2:
            element = K.array(container.rank - 1, doubt=container.doubt if container.doubt >= Doubt.PYTHON_DATA else Doubt.NONE)
        else:  # an element; or a row used as one (rank unknown): only scalar uses act on it
            element = K.Kind(Tag.DEVICE_SCALAR, origin=ELEMENT, doubt=container.doubt)
        if not path:
            return element
        if len(path) > 1:
            return K.UNKNOWN
        if container.rank is None or container.rank <= 2:
            # for m, n in lengths: each row unpacked into its elements (0-d device values); a
            # rank of 1 here came from a name (``lengths``), and the unpacking proves it wrong
            return K.Kind(Tag.DEVICE_SCALAR, origin=ELEMENT, doubt=container.doubt)
        return K.array(container.rank - 2)
    element = element_of(container)
    return element if not path else (K.array() if element.is_array else K.UNKNOWN)


def element_of(container: Kind) -> Kind:
    if container.tag is Tag.ARRAY_SEQ and container.rank == 0 and container.origin >= ELEMENT:
        return K.Kind(Tag.DEVICE_SCALAR, origin=ELEMENT, doubt=container.doubt)  # for c in {c for c in path}: elements
    if container.tag is Tag.ARRAY_SEQ:
        return K.array(container.rank, doubt=container.doubt)  # the rank of each array held, where known
    if container.tag is Tag.SHAPE:
        return K.host_int(Origin.DATA)
    if container.tag is Tag.ARRAY and not container.doubt:  # a, b = xp.linalg.qr(A)
        return K.array()
    if container.is_host_int:  # n, c = divmod(i, width)
        return container
    return K.UNKNOWN
