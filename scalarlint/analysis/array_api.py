"""Transfer rules for the array API: what ``xp.f(...)`` and ``x.m(...)`` return, and of which rank.

Kept apart from the inference's dispatch (``inference.py``) and from the frameworks' knowledge
(``frameworks/``): this module knows NumPy-like libraries (NumPy, CuPy, PyTorch, JAX, the array
API standard) and nothing about AD rules. Ranks are only claimed with evidence: a shape tuple's
length, a host-int size, ``reshape(-1)``, a reduction over an axis of a known rank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis import kinds as K
from scalarlint.analysis.imports import call_head
from scalarlint.analysis.kinds import Doubt, Kind, Origin, Tag, least_doubt
from scalarlint.analysis.syntax import call_name, final_name, is_range, keyword
from scalarlint.analysis.tree import names_in

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView

CREATION = frozenset(
    {"zeros", "ones", "empty", "full", "arange", "linspace", "logspace", "eye", "identity", "asarray", "array",
     "ascontiguousarray", "asanyarray", "tensor", "as_tensor", "from_numpy", "zeros_like", "ones_like",
     "empty_like", "full_like", "rand", "randn", "tri", "meshgrid", "diag", "diagflat"}
)
LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like", "copy", "asarray", "ascontiguousarray",
                  "array", "conj", "negative", "positive", "real", "imag"})
REDUCTIONS = frozenset(
    {"sum", "prod", "max", "min", "amax", "amin", "mean", "argmax", "argmin", "any", "all", "count_nonzero",
     "std", "var", "nansum", "nanmax", "nanmin", "nanmean", "nanargmax", "nanargmin", "median", "norm",
     "vdot", "trace", "det", "logsumexp", "ptp", "average", "nanprod", "logdet", "inner"}
)
HOST_RESULT = frozenset(
    {"shape", "ndim", "isscalar", "result_type", "dtype", "finfo", "iinfo", "issubdtype", "can_cast",
     "broadcast_shapes", "iscomplexobj", "isrealobj", "promote_types", "is_tensor", "is_floating_point",
     "get_default_dtype", "float32", "float64", "float16", "int32", "int64", "bool_", "dtype"}
)
SHAPE_RESULT = frozenset({"shape", "broadcast_shapes"})
DATA_DEPENDENT = frozenset({"nonzero", "flatnonzero", "argwhere", "unique", "extract", "compress",
                            "masked_select", "unique_consecutive", "unique_values", "unique_counts",
                            "unique_inverse", "unique_all"})
COMPARISONS = frozenset({"equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "isnan", "isinf",
                         "isfinite", "isclose", "logical_and", "logical_or", "logical_not", "logical_xor",
                         "signbit", "isneginf", "isposinf", "eq", "ne", "gt", "ge", "lt", "le"})
# ``xp = get_array_module(x)``; ``xpv = xp(device)``, ``get_xp(x)``: a project's own chooser
# between NumPy and CuPy, named after the ``xp`` convention
NAMESPACE_FACTORIES = frozenset({"array_namespace", "get_array_module", "get_namespace", "array_module",
                                 "__array_namespace__", "xp", "get_xp", "_xp", "_get_xp"})
ARRAY_METHODS_RANK_KEEP = frozenset(
    {"copy", "astype", "conj", "clip", "abs", "sign", "exp", "log", "sqrt", "contiguous", "clone", "detach", "to",
     "cuda", "cpu", "float", "double", "half", "type_as", "cumsum", "cumprod", "__neg__", "neg", "fill_",
     "zero_", "mul", "add", "sub", "div", "pow", "real", "imag", "conjugate", "round", "floor", "ceil", "get",
     "view_as", "expand_as", "masked_fill", "where", "clamp", "relu", "sigmoid", "tanh",
     "long", "int", "short", "char", "bfloat16", "cfloat", "cdouble", "type"}
)
ARRAY_METHODS_UNKNOWN_RANK = frozenset(
    {"transpose", "swapaxes", "squeeze", "unsqueeze", "view", "permute", "expand", "broadcast_to", "repeat",
     "take", "dot", "matmul", "mm", "bmm", "sum_to_size", "diagonal", "sort", "argsort", "flip", "roll",
     "index_select", "gather", "scatter", "scatter_add", "index_add", "narrow", "t"}
)
NOT_ELEMENTWISE = frozenset({"stack", "concatenate", "concat", "dot", "matmul", "outer", "einsum", "tensordot", "kron",
                             "reshape", "ravel", "expand_dims", "squeeze", "transpose", "moveaxis", "swapaxes", "take",
                             "take_along_axis", "cumsum", "cumprod", "sort", "argsort", "tril", "triu", "pad",
                             "broadcast_to", "tile", "repeat", "diagonal", "unravel_index", "indices", "split"})
SEQUENCE_RESULT = frozenset({"split", "array_split", "hsplit", "vsplit", "dsplit", "broadcast_arrays", "unstack",
                             "meshgrid", "unravel_index", "chunk", "tensor_split", "unbind"})
HOST_COPIES = frozenset({"asnumpy", "numpy", "get"})  # a whole array copied to the host: host data after
# methods that move, view or copy elements without changing their dtype
DTYPE_KEEPING = frozenset({"reshape", "view", "ravel", "flatten", "transpose", "swapaxes", "squeeze", "unsqueeze",
                           "permute", "expand", "broadcast_to", "repeat", "flip", "roll", "narrow", "t", "copy",
                           "contiguous", "clone", "detach", "to", "cuda", "cpu", "view_as", "expand_as", "get"})
# ``m.bool()``, ``m.byte()``: torch's casts to a mask dtype; indexing with the result selects by mask
MASK_CASTS = frozenset({"bool", "byte"})
NEW_METHODS = frozenset({"new_zeros", "new_ones", "new_empty", "new_full", "new_tensor"})  # torch: a new array on x's device
# JAX's functional updates of what ``x.at[i]`` selects (``.get()`` reads it)
JAX_UPDATES = frozenset({"set", "add", "multiply", "mul", "divide", "power", "min", "max", "apply"})
# an array in, an array with its axes out; a number in, a 0-d tensor: torch's ``tensor``, Paddle's
# ``to_tensor``, TensorFlow's ``convert_to_tensor``/``constant`` (not ``torch.Tensor(n)``, whose
# numbers are sizes)
TENSOR_CONVERTERS = frozenset({"tensor", "as_tensor", "from_numpy", "to_tensor", "convert_to_tensor", "constant"})
# Gauss quadrature rules (``np.polynomial.legendre.leggauss(n)``, ``scipy.special.roots_legendre``):
# a pair of one-axis arrays, the nodes and the weights
QUADRATURE_RULES = frozenset({"leggauss", "hermgauss", "hermegauss", "laggauss", "chebgauss", "roots_legendre",
                              "roots_hermite", "roots_laguerre", "roots_chebyt"})
RANK_KEEPING = frozenset({"cumsum", "cumprod", "sort", "argsort", "flip", "roll", "tril", "triu", "clip"})


def array_function(inf: "InferenceView", func: str, node: cst.Call, args: list[cst.BaseExpression]) -> Kind:
    """Kind of ``xp.<func>(*args)``."""
    name = func.rsplit(".", 1)[-1]
    arg_kinds = [inf.kind(a) for a in args]
    if func in SHAPE_RESULT:
        return K.SHAPE
    if name in HOST_RESULT:
        return K.HOST_SCALAR
    if (name in DATA_DEPENDENT or name == "where" and len(args) == 1) and not any(k.is_device for k in arg_kinds):
        return K.UNKNOWN  # host bookkeeping (shapes, Python lists)
    if name in DATA_DEPENDENT or name == "where" and len(args) == 1:
        doubt = least_doubt(arg_kinds)
        key = arg_kinds[0].key if arg_kinds and name in ("nonzero", "flatnonzero", "argwhere") else None  # indices into it
        if name in ("nonzero", "where", "unique_inverse", "unique_counts", "unique_all"):  # where(m): a tuple like nonzero
            return K.Kind(Tag.ARRAY_SEQ, doubt=doubt, key=key)
        return K.array(2 if name == "argwhere" else 1, doubt=doubt, key=key)
    if name == "unravel_index" and arg_kinds and arg_kinds[0].tag is Tag.ARRAY:
        # one index array per axis, each shaped like the flat indices it unravels
        return K.Kind(Tag.ARRAY_SEQ, rank=arg_kinds[0].rank, doubt=least_doubt(arg_kinds))
    if name in SEQUENCE_RESULT:
        return K.Kind(Tag.ARRAY_SEQ, doubt=least_doubt(arg_kinds))  # a list of arrays
    if name in ("zeros", "ones", "empty", "full"):
        return K.array(shape_rank(inf, args[0]) if args else None, boolean_dtype(node), doubt=host_side(inf, node))
    if name in ("arange", "linspace", "logspace"):
        sized = any(k.is_host_int and k.origin >= Origin.SIZE for k in arg_kinds)
        if sized or not names_numpy(node):  # xp.arange(n), torch.arange(n): made on the device
            return K.array(1, doubt=host_side(inf, node))
        return K.array(1, doubt=Doubt.PYTHON_DATA)  # np.arange(-l, u + 1): offsets, host bookkeeping
    if name in ("eye", "identity"):
        return K.array(2)
    if name in LIKE and arg_kinds:
        first = arg_kinds[0]
        if name in ("asarray", "array") and (first.tag is Tag.UNKNOWN or first.is_array and first.doubt >= Doubt.HOST_COPY) and inf.namespaces.converts_onto_device(node):
            return K.array(first.rank, first.boolean)  # jnp.array(result) of a host result: back on the device
        if first.is_device:
            boolean = (first.boolean and name != "zeros_like") or boolean_dtype(node)
            return K.array(first.rank if first.tag is Tag.ARRAY else 0, boolean, first.doubt, first.key)
        if name in ("asarray", "array") and first.tag in (Tag.HOST_INT, Tag.HOST_SCALAR):
            return K.Kind(Tag.DEVICE_SCALAR, doubt=Doubt.PYTHON_DATA)
        if name in ("asarray", "array") and first.tag is Tag.SHAPE:
            return K.SHAPE  # host bookkeeping on shapes
        # Built from Python data: an array, but often a host one (index lists, shapes).
        return K.array(display_rank(inf, args[0]), doubt=Doubt.PYTHON_DATA if name in ("asarray", "array") else Doubt.NONE)
    if name in TENSOR_CONVERTERS and arg_kinds and arg_kinds[0].tag is Tag.ARRAY:
        return K.array(arg_kinds[0].rank, arg_kinds[0].boolean, doubt=host_side(inf, node))  # torch.tensor(nodes): the same axes
    if name in TENSOR_CONVERTERS and arg_kinds and arg_kinds[0].tag in (Tag.HOST_INT, Tag.HOST_SCALAR):
        return K.Kind(Tag.DEVICE_SCALAR, doubt=host_side(inf, node))  # torch.tensor(ub) of a number: a 0-d tensor
    if name in CREATION or name in TENSOR_CONVERTERS:
        return K.array(display_rank(inf, args[0]) if args else None, doubt=host_side(inf, node))
    if name in QUADRATURE_RULES:
        return K.Kind(Tag.ARRAY_SEQ, rank=1, doubt=host_side(inf, node))  # nodes and weights: two vectors
    if name in REDUCTIONS:
        return _reduction(inf, name, node, args, arg_kinds)
    if name == "stack" and args and (stacked := _stacked_rank(inf, args[0])) is not None:
        return stacked
    device = [k for k in arg_kinds if k.is_device]
    if not device:
        if arg_kinds and all(k.tag in (Tag.HOST_INT, Tag.HOST_SCALAR) for k in arg_kinds):
            return K.HOST_SCALAR
        return K.array() if any(k.tag is Tag.ARRAY_SEQ for k in arg_kinds) else K.UNKNOWN
    boolean = name in COMPARISONS
    doubt = least_doubt(device)
    ranks = [k.rank if k.tag is Tag.ARRAY else 0 for k in device]
    if all(k.tag is Tag.DEVICE_SCALAR for k in device) and name not in ("stack", "concatenate", "concat"):
        return K.Kind(Tag.DEVICE_SCALAR, boolean=boolean, doubt=doubt, origin=max(k.origin for k in device))
    elementwise = "." not in func and name not in NOT_ELEMENTWISE
    key = device[0].key
    if elementwise and None not in ranks:
        return K.array(max(r for r in ranks if r is not None), boolean, doubt, key)
    if elementwise:
        return K.array(None, boolean, doubt, key)
    if name in ("ravel", "flatten"):
        return K.array(1, boolean, doubt)
    if name == "reshape" and len(args) >= 2:
        return K.array(shape_rank(inf, args[1]), boolean, doubt)
    if name in ("cumsum", "cumprod") and len(args) == 1 and keyword(node, "axis") is None and device[0].tag is Tag.ARRAY:
        return K.array(1, doubt=doubt, key=key if device[0].rank == 1 else None)  # no axis: flattened
    if name in RANK_KEEPING and device[0].tag is Tag.ARRAY:
        return K.array(device[0].rank, doubt=doubt, key=key)
    if func.startswith("fft.") and device[0].tag is Tag.ARRAY:
        return K.array(device[0].rank, doubt=doubt)  # xp.fft.fft/ifft/rfft/fftn/fftshift: a transform along axes keeps them
    if name == "where" and len(args) == 1:
        return K.Kind(Tag.ARRAY_SEQ, doubt=doubt)
    if name == "outer":
        return K.array(2, doubt=doubt)
    return K.array(None, boolean, doubt)


def _stacked_rank(inf: "InferenceView", items: cst.BaseExpression) -> Kind | None:
    """``xp.stack([xp.min(x), xp.max(x)])``: a display of device values of one known rank
    stacks into an array of one axis more (two 0-d reductions: a vector of two); None when an
    item is no device value or the ranks are unknown or differ."""
    if not isinstance(items, (cst.List, cst.Tuple)) or not items.elements:
        return None
    kinds = [inf.kind(e.value) for e in items.elements if not isinstance(e, cst.StarredElement)]
    if len(kinds) != len(items.elements) or not all(k.is_device for k in kinds):
        return None
    ranks = {0 if k.tag is Tag.DEVICE_SCALAR else k.rank for k in kinds}
    if len(ranks) != 1 or None in ranks:
        return None
    return K.array(ranks.pop() + 1, doubt=least_doubt(kinds))  # type: ignore[operator]


def display_rank(inf: "InferenceView", value: cst.BaseExpression) -> int | None:
    """The rank of the array a list or tuple display of numbers makes (``[1.0, 2.0]``: one axis,
    ``[[c, -s], [s, c]]``: two); None for anything else (a name, a comprehension, ragged or
    mixed nesting, elements that are arrays)."""
    if not isinstance(value, (cst.List, cst.Tuple)) or not value.elements:
        return None
    ranks = set()
    for element in value.elements:
        if isinstance(element, cst.StarredElement):
            return None
        item = element.value
        if isinstance(item, (cst.List, cst.Tuple)):
            inner = display_rank(inf, item)
            if inner is None:
                return None
            ranks.add(inner + 1)
        elif inf.kind(item).tag in (Tag.HOST_INT, Tag.HOST_SCALAR):
            ranks.add(1)
        else:
            return None
    return ranks.pop() if len(ranks) == 1 else None


def names_numpy(call: cst.Call) -> bool:
    """The call's head is NumPy by its conventional names (``np.f``, ``numpy.f``, ``onp.f``)."""
    head = call_head(call)
    return isinstance(head, cst.Name) and head.value in ("numpy", "np", "onp")


def host_side(inf: "InferenceView", call: cst.Call) -> Doubt:
    """``numpy.empty(n)`` in code that otherwise uses a namespace (``xp = get_array_module(x)``)
    is host bookkeeping (offsets, index tables): the author chose NumPy over ``xp`` on purpose."""
    if not names_numpy(call):
        return Doubt.NONE
    function = inf.enclosing_function(call)
    return Doubt.PYTHON_DATA if function is not None and inf.facts.uses_namespace(function) else Doubt.NONE


def _reduction(inf: "InferenceView", name: str, node: cst.Call, args: list[cst.BaseExpression], arg_kinds: list[Kind]) -> Kind:
    if any(k.tag is Tag.SHAPE for k in arg_kinds):
        return K.host_int(Origin.DATA)
    axis = keyword(node, "axis") or keyword(node, "dim")
    has_axis = axis is not None or len(args) >= 2
    if values_and_indices(inf, name, node, args[1:]):
        return K.Kind(Tag.ARRAY_SEQ, doubt=least_doubt(arg_kinds))
    if name in ("vdot", "inner", "trace", "det", "logdet"):
        has_axis = False
    if not has_axis:  # argmax(x): an index into x
        key = arg_kinds[0].key if arg_kinds and name in ("argmax", "argmin", "nanargmax", "nanargmin") else None
        return K.Kind(Tag.DEVICE_SCALAR, boolean=name in ("any", "all"), key=key)
    return K.array(reduced_rank(inf, arg_kinds[0] if arg_kinds else K.UNKNOWN, node, axis.value if axis else args[1]), name in ("any", "all"))


PAIR_REDUCTIONS = frozenset({"max", "min", "median", "nanmedian", "mode", "kthvalue"})


def values_and_indices(inf: "InferenceView", name: str, node: cst.Call, axis_args: list[cst.BaseExpression]) -> bool:
    """``torch.min(x, dim=-1)``, ``x.max(1)``: torch returns ``(values, indices)`` when given a
    dimension, so ``[1]`` of it is the indices array, not one element. Told apart from NumPy's
    ``max(x, axis)`` by the ``dim`` keyword or by a module that imports torch, and from
    ``torch.max(a, b)`` (elementwise) by the second argument being a host int."""
    if name not in PAIR_REDUCTIONS:
        return False
    if keyword(node, "dim") is not None:
        return True
    return bool(axis_args) and inf.kind(axis_args[0]).is_host_int and inf.namespaces.index_reads_host()


def reduced_rank(inf: "InferenceView", operand: Kind, node: cst.Call, axis: cst.BaseExpression) -> int | None:
    """Rank after reducing ``operand`` over ``axis`` (one int: one axis less; keepdims: the same)."""
    if operand.tag is not Tag.ARRAY or operand.rank is None:
        return None
    keep = keyword(node, "keepdims") or keyword(node, "keepdim")
    if keep is not None:
        return operand.rank if isinstance(keep.value, cst.Name) and keep.value.value == "True" else None
    if inf.kind(axis).is_host_int and not isinstance(axis, (cst.Tuple, cst.List)):
        return operand.rank - 1
    if isinstance(axis, (cst.Tuple, cst.List)):
        return operand.rank - len(axis.elements)
    return None


BOOLEAN_DTYPES = frozenset({"bool", "bool_", "bool8"})


def boolean_dtype(node: cst.Call) -> bool:
    """``torch.ones(n, dtype=torch.bool)``, ``np.zeros_like(x, dtype=bool)``: an array of
    booleans by construction, a mask wherever it indexes."""
    given = keyword(node, "dtype")
    dtype = given.value if given is not None else None
    if isinstance(dtype, cst.SimpleString):
        return dtype.evaluated_value in BOOLEAN_DTYPES
    return dtype is not None and (call_name(dtype) or [""])[-1] in BOOLEAN_DTYPES


def shape_rank(inf: "InferenceView", node: cst.BaseExpression) -> int | None:
    """The rank an array built with shape ``node`` has: ``(n, m)`` is 2, a host int ``n`` is 1,
    and so is a 0-d device count (``torch.empty(packs.sum())``: read back as one size)."""
    if isinstance(node, (cst.Tuple, cst.List)):
        return len(node.elements)
    kind = inf.kind(node)
    if kind.is_host_int or (kind.tag is Tag.DEVICE_SCALAR and not kind.boolean):
        return 1
    if kind.tag is Tag.SHAPE:
        return kind.rank
    if isinstance(node, cst.Name) and node.value in _range_bounds(inf, node):
        return 1  # backend.empty(sz2) beside ``for i in range(sz2)``: a count, so one axis
    return None


def _range_bounds(inf: "InferenceView", node: cst.CSTNode) -> frozenset[str]:
    """The names the function around ``node`` passes to ``range()``: counts, whatever their
    origin leaves unknown (a shape is never a range bound)."""

    def bound(node: cst.CSTNode) -> str | None:  # a name passed to range(), start, stop or step
        if type(node) is not cst.Arg or type(node.value) is not cst.Name:  # type: ignore[attr-defined]
            return None
        call = inf.parents.get(node)
        return node.value.value if isinstance(call, cst.Call) and is_range(call) else None  # type: ignore[attr-defined]

    return names_in(inf.cache, inf.enclosing_function(node), "range bounds", bound)


# dtype names as NumPy, CuPy and torch spell them (``np.float64``, ``torch.int32``, ``"f8"`` is not read)
DTYPE_NAMES = frozenset({
    "float16", "float32", "float64", "bfloat16", "half", "double", "int8", "int16", "int32", "int64", "uint8",
    "uint16", "uint32", "uint64", "complex64", "complex128", "bool_", "cfloat", "cdouble",
})


def names_a_dtype(node: cst.BaseExpression) -> bool:
    """``np.float64``, ``torch.int32``, ``self._state_dtype``, ``dtype``: a dtype by its name
    (``x.view(dtype)`` reinterprets the data and keeps the axes; ``x.view(n, m)`` reshapes)."""
    name = final_name(node)
    return name is not None and (name in DTYPE_NAMES or name.lower().endswith("dtype"))


def array_method(inf: "InferenceView", attr: str, receiver: Kind, node: cst.Call, args: list[cst.BaseExpression]) -> Kind:
    """Kind of ``x.<attr>(*args)`` for a device array ``x``."""
    rank = receiver.rank if receiver.tag is Tag.ARRAY else 0
    if attr in ("item", "asscalar"):
        return K.HOST_SCALAR
    if attr in HOST_COPIES and not args:
        return K.array(rank, receiver.boolean, Doubt.HOST_COPY)
    if attr == "tolist":
        return K.CONTAINER
    if attr in ("size", "numel", "dim", "ndimension", "nelement") and not (attr == "size" and args):
        return K.host_int(Origin.DATA if attr in ("numel", "nelement", "size") else Origin.STRUCTURAL)
    if attr == "size" and args:
        return K.host_int(Origin.DATA)
    if values_and_indices(inf, attr, node, args):
        return K.Kind(Tag.ARRAY_SEQ, doubt=receiver.doubt)
    if attr in REDUCTIONS:
        axis = keyword(node, "axis") or keyword(node, "dim")
        if not args and axis is None:
            key = receiver.key if attr in ("argmax", "argmin") else None
            return K.Kind(Tag.DEVICE_SCALAR, boolean=attr in ("any", "all"), key=key, doubt=receiver.doubt)
        return K.array(reduced_rank(inf, receiver, node, axis.value if axis else args[0]), attr in ("any", "all"), receiver.doubt)
    if attr == "nonzero":
        return K.ARRAY_SEQ
    if attr in MASK_CASTS and not args:
        return K.array(rank if receiver.tag is Tag.ARRAY else None, True, key=receiver.key)
    mask = receiver.boolean and attr in DTYPE_KEEPING  # (support == k).squeeze(dim) is still a mask
    # host data stays host data through a reshape (np.array(shapes).reshape(-1, 2) in an MXNet
    # op); a parameter's doubt does not survive one: only an array has these methods
    host = receiver.doubt if receiver.doubt >= Doubt.PYTHON_DATA else Doubt.NONE
    if attr == "view" and len(args) == 1 and names_a_dtype(args[0]):
        return K.array(rank if receiver.tag is Tag.ARRAY else None, False, host)  # x.view(np.float64), x.view(self.state_dtype): same axes
    if attr in ("reshape", "view") and args:
        if len(args) == 1:
            return K.array(shape_rank(inf, args[0]), mask, host)
        return K.array(len(args), mask, host)
    if attr in ("ravel", "flatten"):
        return K.array(1, mask, host)
    if attr in ARRAY_METHODS_RANK_KEEP:
        return K.array(rank, mask, host, key=receiver.key) if receiver.tag is Tag.ARRAY else receiver
    if attr in ("unsqueeze", "expand_dims") and receiver.tag is Tag.DEVICE_SCALAR:
        return K.array(1, receiver.boolean, host)  # x.sum().unsqueeze(0): a vector of one element
    if attr in ARRAY_METHODS_UNKNOWN_RANK:
        return K.array(None, mask, host)
    if attr.startswith("__") or attr in COMPARISONS:
        return K.array(rank, attr in COMPARISONS, host)
    return K.UNKNOWN
