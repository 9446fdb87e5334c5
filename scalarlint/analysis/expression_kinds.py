"""The kind rules for attributes, subscripts and calls: ``x.shape`` is a shape, ``x[i]`` one
element or a row, ``xp.zeros(n)`` an array, ``x.item()`` a host scalar, a local helper's
result what it returns. ``Inference.kind`` dispatches here by node type; names, operators and
sequences have modules of their own (``bindings``, ``operators``)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis import element_access
from scalarlint.analysis import kinds as K
from scalarlint.analysis.array_api import HOST_RESULT, JAX_UPDATES, MASK_CASTS, NAMESPACE_FACTORIES, NEW_METHODS, array_function, array_method, shape_rank
from scalarlint.analysis.bindings import is_saved_access
from scalarlint.analysis.declared_inputs import declared_ranks
from scalarlint.analysis.kinds import ELEMENT
from scalarlint.analysis.frameworks import CONSTRUCTORS, RECEIVERS, SAVED_METHODS
from scalarlint.analysis.index_helpers import IndexHelper, index_helper, offset_kind
from scalarlint.analysis.kinds import Doubt, Kind, Origin, Tag
from scalarlint.analysis.python_builtins import builtin_kind
from scalarlint.analysis.syntax import call_name, integer_value, is_none, jax_at_base, positional

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView

ARRAY_ATTRS = frozenset({"T", "mT", "H", "real", "imag", "data", "grad", "array"})
HOST_INT_ATTRS = frozenset({"ndim", "size", "itemsize", "nbytes"})
# Methods only device arrays have (MXNet/MindSpore ``asnumpy``/``asscalar``, torch/TF/Paddle
# ``numpy``): whatever the receiver's origin, it was a device array and the result is host data.
DEVICE_ONLY_METHODS = frozenset({"asnumpy", "asscalar", "numpy"})
HOST_COPY_FUNCTIONS = frozenset({"asnumpy", "to_numpy", "to_np", "to_host"})  # named for what they return: a NumPy copy
SEQ_METHODS = frozenset({"get_retained_inputs", "get_retained_outputs", "saved_tensors", "saved_variables"}) | SAVED_METHODS


def attribute_kind(inf: "InferenceView", node: cst.Attribute) -> Kind:
    attr = node.attr.value
    if attr in SEQ_METHODS:
        return K.ARRAY_SEQ
    if attr in inf.array_module_names and attr not in ("torch", "numpy"):
        return K.MODULE  # inf.xp, model.ops.xp, cuda.cupy
    base = inf.kind(node.value)
    if base.tag is Tag.MODULE:
        if attr in ("linalg", "fft", "random", "special", "testing"):
            return K.MODULE
        if attr in ("pi", "e", "inf", "nan", "newaxis") or attr in HOST_RESULT:
            return K.HOST_SCALAR
        return K.UNKNOWN
    if base.tag is Tag.OBJECT and isinstance(node.value, cst.Name) and node.value.value in ("self", "ctx"):
        return inf.calls.attribute_kind(node) or K.UNKNOWN
    if attr == "shape" and base.tag is Tag.UNKNOWN:
        return K.Kind(Tag.SHAPE, origin=Origin.DATA)  # inf.inputs[0].shape: a shape, whatever holds it
    if attr == "data" and base.tag is Tag.UNKNOWN and isinstance(node.value, cst.Subscript):
        return K.array(doubt=Doubt.PARAMETER)  # inf.variables[i].data: a Variable's or Tensor's array
    if base.tag is Tag.ARRAY or base.tag is Tag.DEVICE_SCALAR:
        if attr == "shape":
            return K.Kind(Tag.SHAPE, rank=base.rank, origin=Origin.DATA, key=base.key)
        if attr in HOST_INT_ATTRS:
            return K.host_int(Origin.DATA if attr == "size" else Origin.STRUCTURAL, base.key if attr == "size" else None)
        if attr in ("dtype", "device", "flags", "strides", "is_cuda", "requires_grad"):
            return K.HOST_SCALAR
        if attr in ARRAY_ATTRS:
            return K.array(base.rank, base.boolean, key=base.key) if base.tag is Tag.ARRAY else base
        if attr == "flat":
            return K.array(1)
        if attr == "at" and base.tag is Tag.ARRAY:
            return base  # JAX's x.at[i]: indexes x (.get() reads, .set()/.add() write)
    return K.UNKNOWN


def subscript_kind(inf: "InferenceView", node: cst.Subscript) -> Kind:
    base = inf.kind(node.value)
    if base.tag is Tag.SHAPE:
        indices = inf.index_kinds(node)
        if indices is None:
            return K.SHAPE
        leading = len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) and _is_zero(node.slice[0].slice.value)
        return K.host_int(base.origin if base.origin else Origin.STRUCTURAL, base.key if leading else None)
    if base.tag is Tag.ARRAY_SEQ:
        declared = _declared_entry(inf, node)
        if declared is not None:
            return K.array(declared)  # inputs[1] of an op with itypes = [dvector, dmatrix]
        if is_saved_access(node.value) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            index = node.slice[0].slice.value
            saved = inf.calls.saved_kind(node.value, int(index.value)) if isinstance(index, cst.Integer) else None
            if saved is not None:
                return saved
        indices = inf.index_kinds(node)
        if indices and base.rank == 0 and base.origin >= ELEMENT:
            return K.Kind(Tag.DEVICE_SCALAR, origin=ELEMENT, doubt=base.doubt)  # one gathered number (``gathered_lists``)
        return K.array(base.rank, doubt=base.doubt, key=base.key) if indices else base
    if base.tag is not Tag.ARRAY:
        return K.UNKNOWN
    indices = inf.index_kinds(node)
    if indices is None:  # slices, ellipsis, newaxis: a view
        ints = sum(
            1
            for e in node.slice
            if isinstance(e.slice, cst.Index) and inf.kind(e.slice.value).tag in (Tag.HOST_INT, Tag.DEVICE_SCALAR)
        )
        newaxes = sum(1 for e in node.slice if isinstance(e.slice, cst.Index) and is_none(e.slice.value))
        has_ellipsis = any(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Ellipsis) for e in node.slice)
        rank = None if base.rank is None or has_ellipsis else base.rank - ints + newaxes
        return K.array(rank, base.boolean, base.doubt)
    # rows and elements of host data stay host data: of a table built from Python lists when host
    # ints pick them (or entries of host copies, ``for ind in np.where(m)[0]``), not when a
    # device value picks the entry (a gather on the device); of a copy made on the host
    # (``.asnumpy()``, NumPy in an MXNet op: ``clss[ind]``) whatever the index. A parameter's
    # doubt is not passed on (its elements are data)
    host_indices = all(k.is_host_int or (k.tag is Tag.DEVICE_SCALAR and k.doubt >= Doubt.HOST_COPY) for k in indices)
    host = base.doubt if base.doubt >= Doubt.PYTHON_DATA and (host_indices or base.doubt >= Doubt.HOST_COPY) else Doubt.NONE
    if any(k.tag is Tag.ARRAY for k in indices):
        if any(k.boolean for k in indices):
            return K.array(1, base.boolean, host)
        if len(indices) == 1 and base.rank == 1:  # x[idx]: a gather shaped like idx
            return K.array(indices[0].rank, base.boolean, base.doubt)
        return K.array(None, base.boolean, host)
    if all(k.tag in (Tag.HOST_INT, Tag.DEVICE_SCALAR) for k in indices):
        if base.rank is not None and len(indices) < base.rank:
            return K.array(base.rank - len(indices), base.boolean, host)
        if base.rank is None and not element_access.is_element(base, indices) and not any(k.tag is Tag.DEVICE_SCALAR for k in indices):
            if not (base.doubt == Doubt.NONE and all(k.is_host_int for k in indices) and inf.used_as_scalar(node)) and not element_access.written_as_elements(inf, node):
                return K.array(None, base.boolean, base.doubt)
        # An element keeps its array's key: a value of an index array (argsort, nonzero) indexes it.
        return K.Kind(Tag.DEVICE_SCALAR, boolean=base.boolean, origin=ELEMENT, key=base.key, doubt=host)
    return K.UNKNOWN


def _declared_entry(inf: "InferenceView", node: cst.Subscript) -> int | None:
    """The declared rank of ``inputs[k]`` (``declared_inputs``), for a literal ``k``."""
    if not isinstance(node.value, cst.Name) or len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    position = integer_value(node.slice[0].slice.value)
    if position is None or position < 0:
        return None
    ranks = declared_ranks(inf, node.value)
    return ranks[position] if ranks is not None and position < len(ranks) else None


def _offset_helper_kind(inf: "InferenceView", func: cst.FunctionDef, call: cst.Call, args: list[cst.BaseExpression]) -> Kind | None:
    """``idx(t, u)`` of an index helper (``index_helpers``): what its arguments are."""
    key = ("index-helper", func)
    if key not in inf.cache:  # asked at every call of the helper: read its returns once
        inf.cache[key] = index_helper(func, inf.facts.returns_of.get(func, []))
    helper: IndexHelper | None = inf.cache[key]  # type: ignore[assignment]
    if helper is None or len(args) > helper.arity or any(a.keyword is not None or a.star for a in call.args):
        return None
    return offset_kind([inf.kind(a) for a in args], helper.flat)


def call_kind(inf: "InferenceView", node: cst.Call) -> Kind:
    parts = call_name(node.func)
    args = positional(node)
    if parts and len(parts) == 1:
        builtin = builtin_kind(inf, parts[0], node, args)
        if builtin is not None:
            return builtin
    if parts and parts[-1] in NAMESPACE_FACTORIES:
        return K.MODULE
    module_func = inf.module_call(node)
    if module_func is not None:
        made = array_function(inf, module_func, node, args)
        if made.is_device and inf.namespaces.host_numpy_call(node):  # np.zeros(n) in a torch module
            return replace(made, doubt=max(made.doubt, Doubt.HOST_COPY))
        if made.tag is Tag.UNKNOWN and inf.namespaces.host_numpy_call(node):
            return K.array(doubt=Doubt.HOST_COPY)  # np.concatenate([label, boxes]) of untyped parts in an MXNet op: host data
        if made.tag is Tag.HOST_SCALAR and module_func.rsplit(".", 1)[-1] not in HOST_RESULT and inf.namespaces.device_namespace_call(node):
            return K.Kind(Tag.DEVICE_SCALAR)  # torch.sigmoid(threshold): a tensor whatever the annotation says
        return made
    if isinstance(node.func, cst.Attribute):
        attr = node.func.attr.value
        if attr in SEQ_METHODS:
            return K.ARRAY_SEQ
        updated = jax_at_base(node.func.value) if isinstance(node.func.value, cst.Subscript) else None
        if attr in JAX_UPDATES and updated is not None:
            return inf.kind(updated)  # x.at[i].set(v): a new x
        receiver = inf.kind(node.func.value)
        if attr in NEW_METHODS and receiver.tag in (Tag.UNKNOWN, Tag.ARRAY):
            # x.new_zeros(1), grid.new_full((n, m), -1): torch's constructors on an array's device
            return K.array(_new_rank(inf, attr, args))
        if attr == LEGACY_NEW and receiver.tag is Tag.ARRAY and args and all(inf.kind(a).is_host_int for a in args):
            return K.array(len(args))  # X.new(n_states), Q.new(L, S, S): torch's legacy constructor, one size per axis
        if receiver.tag in (Tag.UNKNOWN, Tag.ARRAY) and not args and attr in SPARSE_INDEX_METHODS:
            return K.array(1)  # t.crow_indices(): a sparse CSR/CSC tensor's compressed index vector
        if receiver.is_device:
            return array_method(inf, attr, receiver, node, args)
        if receiver.tag is Tag.UNKNOWN and not args and attr in DEVICE_ONLY_METHODS:
            return K.HOST_SCALAR if attr == "asscalar" else K.array(doubt=Doubt.HOST_COPY)
        if receiver.tag is Tag.UNKNOWN and not args and attr in MASK_CASTS:
            return K.array(None, True)  # util.bdiag(I).bool(): only tensors have these casts
    if parts and parts[-1] in HOST_COPY_FUNCTIONS and len(args) == 1 and inf.module_call(node) is None:
        return K.array(doubt=Doubt.HOST_COPY)  # inf.asnumpy(C), utils.to_numpy(x): a host copy, whoever defines it
    local = inf.local_function(node)
    if local is not None:
        offset = _offset_helper_kind(inf, local, node, args)
        return offset if offset is not None else inf.calls.return_kind(local, [], 1)
    if parts and inf.runs_an_array_helper(node, ".".join(parts)):
        return K.array()  # reindex.flm_2d_to_1d_fast(flm, L): another module's helper returns one
    if isinstance(node.func, cst.Attribute) and parts and len(parts) >= 3 and parts[-1] in CONSTRUCTORS and parts[-2] in RECEIVERS:
        rank = CONSTRUCTORS[parts[-1]]  # model.ops.alloc2f(n, m): a framework's array constructor
        return K.array(rank if rank is not None else (len(args) if parts[-1].startswith("alloc") and len(args) > 1 else None))
    return K.UNKNOWN


LEGACY_NEW = "new"
# torch's accessors of a sparse compressed tensor's index vectors (one axis each, unbatched);
# only sparse tensors have them, whatever holds the tensor
SPARSE_INDEX_METHODS = frozenset({"crow_indices", "col_indices", "ccol_indices", "row_indices"})


def _new_rank(inf: "InferenceView", attr: str, args: list[cst.BaseExpression]) -> int | None:
    """``x.new_zeros((n, m))`` and ``x.new_zeros(n, m)`` both have rank 2; ``new_full``'s second
    argument is its fill value, and ``new_tensor`` copies data of any rank."""
    if not args or attr == "new_tensor":
        return None
    sizes = args[:1] if attr == "new_full" else args
    if len(sizes) > 1:
        return len(sizes) if all(inf.kind(a).is_host_int for a in sizes) else None
    return shape_rank(inf, sizes[0])


def _is_zero(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Integer) and node.value == "0"
