"""Which expressions are device arrays, and which indices are host integers.

Demand-driven and built on libcst's scope metadata: the kind of a name is the combination of
the kinds of every assignment that can reach it (``combine``), found through the scope's
accesses and referents, so closures see the arrays of the rule that encloses them. Results
are memoised per node and cycles resolve to ``UNKNOWN``. Anything that cannot be decided stays
unknown and is not reported: precision first.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

import libcst as cst
from libcst.metadata import Assignment, BaseAssignment, Scope

from scalarlint.analysis import kinds as K
from scalarlint.analysis.kinds import Doubt, Kind, Origin, Tag, least_doubt
from scalarlint.config import Config

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
                            "masked_select", "unique_consecutive"})
COMPARISONS = frozenset({"equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "isnan", "isinf",
                         "isfinite", "isclose", "logical_and", "logical_or", "logical_not", "logical_xor",
                         "signbit", "isneginf", "isposinf", "eq", "ne", "gt", "ge", "lt", "le"})
NAMESPACE_FACTORIES = frozenset({"array_namespace", "get_array_module", "get_namespace", "array_module"})
ARRAY_METHODS_RANK_KEEP = frozenset(
    {"copy", "astype", "conj", "clip", "abs", "sign", "exp", "log", "sqrt", "contiguous", "clone", "detach", "to",
     "cuda", "cpu", "float", "double", "half", "type_as", "cumsum", "cumprod", "__neg__", "neg", "fill_",
     "zero_", "mul", "add", "sub", "div", "pow", "real", "imag", "conjugate", "round", "floor", "ceil", "get",
     "numpy", "view_as", "expand_as", "masked_fill", "where", "clamp", "relu", "sigmoid", "tanh"}
)
ARRAY_METHODS_UNKNOWN_RANK = frozenset(
    {"transpose", "swapaxes", "squeeze", "unsqueeze", "view", "permute", "expand", "broadcast_to", "repeat",
     "take", "dot", "matmul", "mm", "bmm", "sum_to_size", "diagonal", "sort", "argsort", "flip", "roll",
     "index_select", "gather", "scatter", "scatter_add", "index_add", "narrow", "t"}
)
ARRAY_ATTRS = frozenset({"T", "mT", "H", "real", "imag", "data", "grad", "array"})
HOST_INT_ATTRS = frozenset({"ndim", "size", "itemsize", "nbytes"})
SEQ_METHODS = frozenset({"get_retained_inputs", "get_retained_outputs", "saved_tensors", "saved_variables"})
FUNCTION_PARAMS = frozenset({"f", "fn", "fun", "func", "function", "callback", "op", "loss_fn", "fwd", "bwd"})
OBJECT_PARAMS = frozenset({"self", "cls", "ctx", "model", "module", "layer", "node", "context"})
INDEX_TUPLE_PARAMS = frozenset({"indexes", "indices", "target_input_indexes"})
PLURAL_ARRAY_NAME = re.compile(r"^d?[A-Za-z]s$")  # Xs, dYs, xs, gs: thinc's and jax's lists of arrays
CONTAINER_SUFFIXES = ("_args", "_list", "_seq", "_tuple", "_meta", "_shape", "_shapes", "_dims", "_axes")


def call_name(func: cst.BaseExpression) -> list[str] | None:
    """``xp.linalg.norm`` -> ["xp", "linalg", "norm"]; None for anything but a dotted name."""
    parts: list[str] = []
    while isinstance(func, cst.Attribute):
        parts.append(func.attr.value)
        func = func.value
    if isinstance(func, cst.Name):
        parts.append(func.value)
        return list(reversed(parts))
    return None


def keyword(call: cst.Call, name: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def positional(call: cst.Call) -> list[cst.BaseExpression]:
    return [a.value for a in call.args if a.keyword is None and not a.star]


class Inference:
    """Answers ``kind(expr)`` for expressions of one module."""

    def __init__(
        self,
        config: Config,
        scopes: Mapping[cst.CSTNode, Scope | None],
        parents: Mapping[cst.CSTNode, cst.CSTNode],
        checked_functions: set[cst.CSTNode],
        rule_functions: set[cst.CSTNode] | None = None,
    ) -> None:
        self.config = config
        self.scopes = scopes
        self.parents = parents
        self.checked_functions = checked_functions
        self.rule_functions = rule_functions or set()
        self.array_module_names = frozenset(config.array_modules)
        self._memo: dict[int, Kind] = {}
        self._in_progress: set[int] = set()

    # -- public ------------------------------------------------------------------------
    def kind(self, node: cst.BaseExpression) -> Kind:
        key = id(node)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        if key in self._in_progress:
            return K.UNKNOWN
        self._in_progress.add(key)
        try:
            result = self._infer(node)
        finally:
            self._in_progress.discard(key)
        self._memo[key] = result
        return result

    def is_array_module(self, node: cst.BaseExpression) -> bool:
        return self.kind(node).tag is Tag.MODULE

    def module_call(self, call: cst.Call) -> str | None:
        """For ``xp.linalg.norm(...)``: "linalg.norm"; None unless the head is an array module."""
        parts = call_name(call.func)
        if not parts or len(parts) < 2:
            return None
        head = call.func
        while isinstance(head, cst.Attribute):
            head = head.value
        if not self.is_array_module(head):
            return None
        return ".".join(parts[1:])

    def index_kinds(self, node: cst.Subscript) -> list[Kind] | None:
        """Kinds of the index elements; None when any element is a slice, ``...`` or ``None``."""
        out: list[Kind] = []
        for element in node.slice:
            inner = element.slice
            if not isinstance(inner, cst.Index) or inner.star is not None:
                return None
            value = inner.value
            if isinstance(value, cst.Ellipsis) or (isinstance(value, cst.Name) and value.value == "None"):
                return None
            if isinstance(value, cst.Tuple):
                return None
            out.append(self.kind(value))
        return out

    def selects_element(self, node: cst.Subscript, converted: bool = False) -> bool:
        """True when ``node`` reads or writes exactly one element of a device array with host ints.

        ``converted``: the value is turned into a Python scalar (``float(x[0])``), which only
        works on one element, so a leading-axis int is an element even when the rank is unknown.
        """
        base = self.kind(node.value)
        if base.tag is not Tag.ARRAY:
            return False
        indices = self.index_kinds(node)
        if not indices or not all(k.is_host_int for k in indices):
            return False
        if base.rank is not None:
            return len(indices) >= base.rank
        # Rank unknown: an int on the leading axis may pick a row or a slab. Report only
        # when the index comes from the data itself (a length, a search, a parameter).
        return converted or any(k.origin >= Origin.PARAM for k in indices)

    def is_mask_index(self, node: cst.Subscript) -> bool:
        base = self.kind(node.value)
        if base.tag is not Tag.ARRAY:
            return False
        indices = self.index_kinds(node)
        return bool(indices) and any(k.tag is Tag.ARRAY and k.boolean for k in indices)

    # -- dispatch ------------------------------------------------------------------------
    def _infer(self, node: cst.BaseExpression) -> Kind:
        if isinstance(node, cst.Integer):
            return K.host_int(Origin.LITERAL)
        if isinstance(node, (cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return K.HOST_SCALAR
        if isinstance(node, cst.Name):
            return self._name(node)
        if isinstance(node, cst.Attribute):
            return self._attribute(node)
        if isinstance(node, cst.Subscript):
            return self._subscript(node)
        if isinstance(node, cst.Call):
            return self._call(node)
        if isinstance(node, cst.BinaryOperation):
            return self._binary(node)
        if isinstance(node, cst.UnaryOperation):
            return self._unary(node)
        if isinstance(node, cst.Comparison):
            return self._comparison(node)
        if isinstance(node, cst.BooleanOperation):
            return K.combine([self.kind(node.left), self.kind(node.right)])
        if isinstance(node, cst.IfExp):
            return K.combine([self.kind(node.body), self.kind(node.orelse)])
        if isinstance(node, (cst.Tuple, cst.List)):
            return self._sequence(node)
        if isinstance(node, (cst.Dict, cst.Set, cst.DictComp, cst.SetComp)):
            return K.CONTAINER
        if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
            return K.CONTAINER
        if isinstance(node, cst.Lambda):
            return K.FUNCTION
        if isinstance(node, cst.NamedExpr):
            return self.kind(node.value)
        return K.UNKNOWN

    # -- names ---------------------------------------------------------------------------
    def _name(self, node: cst.Name) -> Kind:
        if node.value in ("None",):
            return K.NONE
        if node.value in ("True", "False"):
            return K.HOST_SCALAR
        scope = self.scopes.get(node)
        referents = self._referents(node, scope)
        if referents is None or not referents:
            if node.value in self.array_module_names:
                return K.MODULE
            return K.UNKNOWN
        kinds = [self._assignment_kind(r, node, scope) for r in referents]
        return K.combine(kinds)

    def _referents(self, node: cst.Name, scope: Scope | None) -> Sequence[BaseAssignment] | None:
        if scope is None:
            return None
        for access in scope.accesses[node.value]:
            if access.node is node:
                return list(access.referents)
        # Not an access recorded by the scope (e.g. a synthesised node): look the name up.
        if node.value in scope:
            return list(scope[node.value])
        return None

    def _names_array_module(self, node: cst.Name, scope: Scope) -> bool:
        try:
            names = scope.get_qualified_names_for(node)
        except Exception:  # libcst can fail on exotic nodes; unknown is fine
            return False
        for qn in names:
            if qn.name in self.array_module_names:
                return True
        return False

    def _assignment_kind(self, ref: BaseAssignment, use: cst.Name, scope: Scope | None) -> Kind:
        if not isinstance(ref, Assignment):
            return K.UNKNOWN  # builtins
        target = ref.node
        if isinstance(target, cst.Param):
            return self._param(target)
        if isinstance(target, (cst.Import, cst.ImportFrom)):
            if scope is not None and self._names_array_module(use, scope):
                return K.MODULE
            return K.OBJECT
        if isinstance(target, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return K.FUNCTION
        if isinstance(target, cst.Name):
            return self._binding(target)
        return K.UNKNOWN

    def _binding(self, name: cst.Name) -> Kind:
        """Kind of the value bound to an assignment-target name."""
        path: list[int] = []
        arity = 1
        child: cst.CSTNode = name
        parent = self.parents.get(child)
        while isinstance(parent, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
            if isinstance(parent, (cst.Tuple, cst.List)):
                path.insert(0, [e for e in parent.elements].index(child))  # type: ignore[arg-type]
                arity = max(arity, len(parent.elements))
            if isinstance(parent, cst.StarredElement):
                return K.CONTAINER
            child, parent = parent, self.parents.get(parent)
        if isinstance(parent, cst.AssignTarget):
            assign = self.parents.get(parent)
            if isinstance(assign, cst.Assign):
                return self._unpack(assign.value, path, arity)
        if isinstance(parent, cst.AnnAssign) and parent.value is not None:
            return self._unpack(parent.value, path, arity)
        if isinstance(parent, cst.AugAssign):
            value = self.kind(parent.value)
            return value if value.tag in (Tag.HOST_INT, Tag.ARRAY, Tag.DEVICE_SCALAR) else K.UNKNOWN
        if isinstance(parent, cst.NamedExpr):
            return self.kind(parent.value)
        if isinstance(parent, (cst.For, cst.CompFor)):
            return self._loop_element(parent.iter, path)
        return K.UNKNOWN

    def _unpack(self, value: cst.BaseExpression, path: list[int], arity: int = 1) -> Kind:
        for position in path:
            if isinstance(value, (cst.Tuple, cst.List)) and position < len(value.elements):
                element = value.elements[position]
                if isinstance(element, cst.StarredElement):
                    return K.UNKNOWN
                value = element.value
                continue
            container = self.kind(value)
            if container.tag is Tag.SHAPE and arity >= 2:
                # B, C, H, W = x.shape: sizes of the axes of a multi-dimensional array; an
                # index below one of them picks a slab, not an element.
                return K.host_int(Origin.STRUCTURAL)
            return self._element_of(container)
        return self.kind(value)

    def _element_of(self, container: Kind) -> Kind:
        if container.tag is Tag.ARRAY_SEQ:
            return K.array(doubt=container.doubt)
        if container.tag is Tag.SHAPE:
            return K.host_int(Origin.DATA)
        if container.tag is Tag.ARRAY and not container.doubt:  # a, b = xp.linalg.qr(A)
            return K.array()
        return K.UNKNOWN

    def _loop_element(self, iterable: cst.BaseExpression, path: list[int]) -> Kind:
        if isinstance(iterable, cst.Call):
            parts = call_name(iterable.func)
            args = positional(iterable)
            if is_range_name(parts) or (parts == ["reversed"] and args and _is_range(args[0])):
                rng = args[0] if parts == ["reversed"] else iterable
                return K.host_int(Origin.DATA if self.range_over_data(rng) else Origin.STRUCTURAL)
            if parts == ["enumerate"] and args:
                if not path:
                    return K.CONTAINER
                if path[0] == 0:
                    over_data = self.kind(args[0]).is_array
                    return K.host_int(Origin.DATA if over_data else Origin.STRUCTURAL)
                return self._loop_element(args[0], path[1:])
            if parts == ["zip"] and args:
                if not path or path[0] >= len(args):
                    return K.CONTAINER
                return self._loop_element(args[path[0]], path[1:])
        container = self.kind(iterable)
        if container.tag is Tag.ARRAY:
            element = K.array(container.rank - 1) if container.rank and container.rank >= 2 else K.DEVICE_SCALAR
            return element if not path else K.UNKNOWN
        element = self._element_of(container)
        return element if not path else (K.array() if element.is_array else K.UNKNOWN)

    def range_over_data(self, call: cst.Call) -> bool:
        """``range(len(x))``, ``range(x.shape[0])``, ``range(n)`` with an int parameter ``n``."""
        return any(self.kind(a).origin >= Origin.PARAM and self.kind(a).is_host_int for a in positional(call))

    # -- parameters ------------------------------------------------------------------------
    def _param(self, param: cst.Param) -> Kind:
        params = self.parents.get(param)
        func = self.parents.get(params) if params is not None else None
        name = param.name.value
        checked = func in self.checked_functions
        if name in OBJECT_PARAMS:
            return K.OBJECT
        if isinstance(params, cst.Parameters):
            if params.star_arg is param:  # *xs: each element has the annotated type
                if param.annotation is not None:
                    element = self._annotation(param.annotation.annotation)
                    return K.ARRAY_SEQ if element.is_array else K.CONTAINER
                return K.ARRAY_SEQ if checked else K.CONTAINER
            if params.star_kwarg is param:
                return K.CONTAINER
        if param.annotation is not None:
            return self._annotation(param.annotation.annotation)
        if param.default is not None:
            default = self.kind(param.default)
            if default.tag is Tag.HOST_INT:
                return K.host_int(Origin.STRUCTURAL)
            if default.tag in (Tag.HOST_SCALAR, Tag.SHAPE, Tag.CONTAINER, Tag.FUNCTION, Tag.MODULE):
                return default if not default.is_none else K.UNKNOWN
        if name in self.config.scalar_params:
            return K.host_int(Origin.STRUCTURAL)
        if name in INDEX_TUPLE_PARAMS:
            return K.SHAPE
        if name in self.config.container_params or PLURAL_ARRAY_NAME.match(name):
            return K.ARRAY_SEQ
        if name == "args" or name.endswith(CONTAINER_SUFFIXES):
            return K.CONTAINER
        if name in self.array_module_names:
            return K.MODULE
        if name in FUNCTION_PARAMS:
            return K.FUNCTION
        if not checked:
            return K.UNKNOWN
        # A parameter of a named rule is an array; one of a helper or a lambda (autograd's
        # vjp makers also take tuples, keys and shapes) is probably one.
        named_rule = func in self.rule_functions and isinstance(func, cst.FunctionDef)
        return K.array(doubt=Doubt.NONE if named_rule else Doubt.PARAMETER)

    def _annotation(self, node: cst.BaseExpression) -> Kind:
        if isinstance(node, cst.Subscript):
            head = call_name(node.value) or []
            last = head[-1] if head else ""
            if last == "Optional" and node.slice:
                inner = node.slice[0].slice
                if isinstance(inner, cst.Index):
                    return self._annotation(inner.value)
            if last in ("tuple", "Tuple", "list", "List", "Sequence", "dict", "Dict", "Mapping", "Iterable"):
                return K.CONTAINER
            if last in ("NDArray", "ndarray", "Array", "Tensor"):
                return K.array()
            return K.UNKNOWN
        if isinstance(node, cst.BinaryOperation):  # X | None
            left, right = self._annotation(node.left), self._annotation(node.right)
            return left if right.tag is Tag.UNKNOWN or right.is_none else K.combine([left, right])
        parts = call_name(node) or []
        last = parts[-1] if parts else (node.value if isinstance(node, cst.SimpleString) else "")
        if last == "int":
            return K.host_int(Origin.PARAM)
        if last in ("float", "bool", "str", "complex", "None", "dtype", "DType"):
            return K.HOST_SCALAR
        if last in ("tuple", "Tuple", "list", "List", "Sequence", "dict", "Dict", "Mapping", "Shape"):
            return K.CONTAINER
        if last in ("ndarray", "NDArray", "Array", "ArrayLike", "Tensor", "Variable", "ArrayType", "Floats1d",
                    "Floats2d", "Floats3d", "Floats4d", "FloatsXd", "Ints1d", "Ints2d"):
            rank = None
            for dims in ("1d", "2d", "3d", "4d"):
                if last.endswith(dims):
                    rank = int(dims[0])
            return K.array(rank)
        return K.UNKNOWN

    # -- attributes, subscripts -----------------------------------------------------------
    def _attribute(self, node: cst.Attribute) -> Kind:
        attr = node.attr.value
        if attr in SEQ_METHODS:
            return K.ARRAY_SEQ
        if attr in self.array_module_names and attr not in ("torch", "numpy"):
            return K.MODULE  # self.xp, model.ops.xp, cuda.cupy
        base = self.kind(node.value)
        if base.tag is Tag.MODULE:
            if attr in ("linalg", "fft", "random", "special", "testing"):
                return K.MODULE
            if attr in ("pi", "e", "inf", "nan", "newaxis") or attr in HOST_RESULT:
                return K.HOST_SCALAR
            return K.UNKNOWN
        if base.tag is Tag.ARRAY or base.tag is Tag.DEVICE_SCALAR:
            if attr == "shape":
                return K.Kind(Tag.SHAPE, rank=base.rank, origin=Origin.DATA)
            if attr in HOST_INT_ATTRS:
                return K.host_int(Origin.DATA if attr == "size" else Origin.STRUCTURAL)
            if attr in ("dtype", "device", "flags", "strides", "is_cuda", "requires_grad"):
                return K.HOST_SCALAR
            if attr in ARRAY_ATTRS:
                return K.array(base.rank, base.boolean) if base.tag is Tag.ARRAY else base
            if attr == "flat":
                return K.array(1)
        return K.UNKNOWN

    def _subscript(self, node: cst.Subscript) -> Kind:
        base = self.kind(node.value)
        if base.tag is Tag.SHAPE:
            indices = self.index_kinds(node)
            if indices is None:
                return K.SHAPE
            return K.host_int(base.origin if base.origin else Origin.STRUCTURAL)
        if base.tag is Tag.ARRAY_SEQ:
            indices = self.index_kinds(node)
            return K.array(doubt=base.doubt) if indices else base
        if base.tag is not Tag.ARRAY:
            return K.UNKNOWN
        indices = self.index_kinds(node)
        if indices is None:  # slices, ellipsis, newaxis: a view
            ints = sum(
                1
                for e in node.slice
                if isinstance(e.slice, cst.Index) and self.kind(e.slice.value).tag in (Tag.HOST_INT, Tag.DEVICE_SCALAR)
            )
            newaxes = sum(1 for e in node.slice if isinstance(e.slice, cst.Index) and _is_none(e.slice.value))
            has_ellipsis = any(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Ellipsis) for e in node.slice)
            rank = None if base.rank is None or has_ellipsis else base.rank - ints + newaxes
            return K.array(rank, base.boolean, base.doubt)
        if any(k.tag is Tag.ARRAY for k in indices):
            if any(k.boolean for k in indices):
                return K.array(1, base.boolean)
            return K.array(None, base.boolean)
        if all(k.tag in (Tag.HOST_INT, Tag.DEVICE_SCALAR) for k in indices):
            if base.rank is not None and len(indices) < base.rank:
                return K.array(base.rank - len(indices), base.boolean)
            if base.rank is None and not any(k.origin >= Origin.PARAM or k.tag is Tag.DEVICE_SCALAR for k in indices):
                return K.array(None, base.boolean, base.doubt)
            return K.Kind(Tag.DEVICE_SCALAR, boolean=base.boolean)
        return K.UNKNOWN

    # -- calls -------------------------------------------------------------------------------
    def _call(self, node: cst.Call) -> Kind:
        parts = call_name(node.func)
        args = positional(node)
        if parts and len(parts) == 1:
            builtin = self._builtin(parts[0], node, args)
            if builtin is not None:
                return builtin
        if parts and parts[-1] in NAMESPACE_FACTORIES:
            return K.MODULE
        module_func = self.module_call(node)
        if module_func is not None:
            return self._array_function(module_func, node, args)
        if isinstance(node.func, cst.Attribute):
            attr = node.func.attr.value
            if attr in SEQ_METHODS:
                return K.ARRAY_SEQ
            receiver = self.kind(node.func.value)
            if receiver.is_device:
                return self._array_method(attr, receiver, node, args)
        return K.UNKNOWN

    def _builtin(self, name: str, node: cst.Call, args: list[cst.BaseExpression]) -> Kind | None:
        if name == "len":
            if args and self.kind(args[0]).is_array:
                return K.host_int(Origin.DATA)
            return K.host_int(Origin.STRUCTURAL)
        if name == "int":
            if args:
                inner = self.kind(args[0])
                if inner.is_device:
                    return K.host_int(Origin.DATA)
                if inner.tag in (Tag.HOST_INT, Tag.HOST_SCALAR) and not inner.is_none:
                    return K.host_int(inner.origin)
                # int(i / width) with an unknown width: the index still follows i.
                return K.host_int(max([Origin.STRUCTURAL, *self._host_origins(args[0])]))
            return K.host_int(Origin.STRUCTURAL)
        if name in ("float", "bool", "complex", "str", "repr", "isinstance", "hasattr", "callable"):
            return K.HOST_SCALAR
        if name in ("tuple", "list"):
            if args:
                inner = self.kind(args[0])
                if inner.tag in (Tag.SHAPE, Tag.ARRAY_SEQ):
                    return inner
            return K.CONTAINER
        if name in ("dict", "set", "sorted", "zip", "enumerate", "map", "filter", "range", "xrange"):
            return K.CONTAINER
        if name in ("max", "min", "sum", "abs", "round", "pow", "divmod"):
            kinds = [self.kind(a) for a in args]
            if kinds and all(k.is_host_int for k in kinds):
                return K.combine(kinds)
            if len(kinds) == 1 and kinds[0].tag is Tag.SHAPE:
                return K.host_int(kinds[0].origin)
            if name == "abs" and kinds and kinds[0].is_device:
                return kinds[0]
            return K.UNKNOWN
        return None

    def _host_origins(self, expr: cst.BaseExpression) -> list[Origin]:
        out: list[Origin] = []
        stack: list[cst.CSTNode] = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Name):
                kind = self.kind(node)
                if kind.tag in (Tag.HOST_INT, Tag.HOST_SCALAR):
                    out.append(kind.origin)
            elif not isinstance(node, (cst.Call, cst.Subscript, cst.Attribute)):
                stack.extend(node.children)
        return out

    def _array_function(self, func: str, node: cst.Call, args: list[cst.BaseExpression]) -> Kind:
        name = func.rsplit(".", 1)[-1]
        arg_kinds = [self.kind(a) for a in args]
        if func in SHAPE_RESULT:
            return K.SHAPE
        if name in HOST_RESULT:
            return K.HOST_SCALAR
        if (name in DATA_DEPENDENT or name == "where" and len(args) == 1) and not any(k.is_device for k in arg_kinds):
            return K.UNKNOWN  # host bookkeeping (shapes, Python lists)
        if name in DATA_DEPENDENT:
            doubt = least_doubt(arg_kinds)
            if name == "nonzero":
                return K.Kind(Tag.ARRAY_SEQ, doubt=doubt)
            return K.array(2 if name == "argwhere" else 1, doubt=doubt)
        if name in ("zeros", "ones", "empty", "full"):
            return K.array(self._shape_rank(args[0]) if args else None)
        if name in ("arange", "linspace", "logspace"):
            return K.array(1)
        if name in ("eye", "identity"):
            return K.array(2)
        if name in LIKE and arg_kinds:
            first = arg_kinds[0]
            if first.is_device:
                return K.array(first.rank if first.tag is Tag.ARRAY else 0, first.boolean and name != "zeros_like")
            if name in ("asarray", "array") and first.tag in (Tag.HOST_INT, Tag.HOST_SCALAR):
                return K.DEVICE_SCALAR
            if name in ("asarray", "array") and first.tag is Tag.SHAPE:
                return K.SHAPE  # host bookkeeping on shapes
            # Built from Python data: an array, but often a host one (index lists, shapes).
            return K.array(doubt=Doubt.PYTHON_DATA if name in ("asarray", "array") else Doubt.NONE)
        if name in CREATION:
            return K.array()
        if name in REDUCTIONS:
            if any(k.tag is Tag.SHAPE for k in arg_kinds):
                return K.host_int(Origin.DATA)
            has_axis = keyword(node, "axis") is not None or keyword(node, "dim") is not None or len(args) >= 2
            if name in ("vdot", "inner", "trace", "det", "logdet"):
                has_axis = False
            if not has_axis:
                return K.Kind(Tag.DEVICE_SCALAR, boolean=name in ("any", "all"))
            return K.array(None, name in ("any", "all"))
        device = [k for k in arg_kinds if k.is_device]
        if not device:
            if arg_kinds and all(k.tag in (Tag.HOST_INT, Tag.HOST_SCALAR) for k in arg_kinds):
                return K.HOST_SCALAR
            return K.array() if any(k.tag is Tag.ARRAY_SEQ for k in arg_kinds) else K.UNKNOWN
        boolean = name in COMPARISONS
        doubt = least_doubt(device)
        ranks = [k.rank if k.tag is Tag.ARRAY else 0 for k in device]
        if all(k.tag is Tag.DEVICE_SCALAR for k in device) and name not in ("stack", "concatenate"):
            return K.Kind(Tag.DEVICE_SCALAR, boolean=boolean)
        elementwise = "." not in func and name not in ("stack", "concatenate", "dot", "matmul", "outer", "einsum",
                                                       "tensordot", "kron", "reshape", "ravel", "expand_dims",
                                                       "squeeze", "transpose", "moveaxis", "swapaxes", "take",
                                                       "take_along_axis", "cumsum", "cumprod", "sort", "argsort")
        if elementwise and None not in ranks:
            return K.array(max(r for r in ranks if r is not None), boolean, doubt)
        if name in ("ravel", "flatten"):
            return K.array(1, boolean, doubt)
        if name == "reshape" and len(args) >= 2:
            return K.array(self._shape_rank(args[1]), boolean, doubt)
        if name in ("cumsum", "cumprod", "sort", "argsort", "flip") and device[0].tag is Tag.ARRAY:
            return K.array(device[0].rank, doubt=doubt)
        if name == "where" and len(args) == 1:
            return K.Kind(Tag.ARRAY_SEQ, doubt=doubt)
        return K.array(None, boolean, doubt)

    def _shape_rank(self, node: cst.BaseExpression) -> int | None:
        if isinstance(node, (cst.Tuple, cst.List)):
            return len(node.elements)
        kind = self.kind(node)
        if kind.is_host_int:
            return 1
        if kind.tag is Tag.SHAPE:
            return kind.rank
        return None

    def _array_method(self, attr: str, receiver: Kind, node: cst.Call, args: list[cst.BaseExpression]) -> Kind:
        rank = receiver.rank if receiver.tag is Tag.ARRAY else 0
        if attr in ("item",):
            return K.HOST_SCALAR
        if attr == "tolist":
            return K.CONTAINER
        if attr in ("size", "numel", "dim", "ndimension", "nelement") and not (attr == "size" and args):
            return K.host_int(Origin.DATA if attr in ("numel", "nelement", "size") else Origin.STRUCTURAL)
        if attr == "size" and args:
            return K.host_int(Origin.DATA)
        if attr in REDUCTIONS:
            has_axis = bool(args) or keyword(node, "axis") is not None or keyword(node, "dim") is not None
            if not has_axis:
                return K.Kind(Tag.DEVICE_SCALAR, boolean=attr in ("any", "all"))
            return K.array(None, attr in ("any", "all"))
        if attr == "nonzero":
            return K.ARRAY_SEQ
        if attr in ("reshape", "view") and args:
            if len(args) == 1:
                return K.array(self._shape_rank(args[0]))
            return K.array(len(args))
        if attr in ("ravel", "flatten"):
            return K.array(1)
        if attr in ARRAY_METHODS_RANK_KEEP:
            return K.array(rank) if receiver.tag is Tag.ARRAY else receiver
        if attr in ARRAY_METHODS_UNKNOWN_RANK:
            return K.array()
        if attr.startswith("__") or attr in COMPARISONS:
            return K.array(rank, attr in COMPARISONS)
        return K.UNKNOWN

    # -- operators --------------------------------------------------------------------------
    def _binary(self, node: cst.BinaryOperation) -> Kind:
        left, right = self.kind(node.left), self.kind(node.right)
        if isinstance(node.operator, cst.MatrixMultiply):
            return K.array() if left.is_device or right.is_device else K.UNKNOWN
        if left.tag is Tag.ARRAY or right.tag is Tag.ARRAY:
            ranks = [k.rank for k in (left, right) if k.tag is Tag.ARRAY]
            others = [k for k in (left, right) if k.tag is not Tag.ARRAY]
            if any(k.tag in (Tag.UNKNOWN, Tag.CONTAINER, Tag.OBJECT) for k in others) and not isinstance(
                node.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power)
            ):
                return K.array()
            rank = max(ranks) if None not in ranks else None  # type: ignore[type-var]
            if len(ranks) == 2 and ranks[0] != ranks[1]:
                rank = None if None in ranks else max(ranks)  # type: ignore[type-var]
            boolean = isinstance(node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)) and all(
                k.boolean for k in (left, right) if k.is_device
            )
            return K.array(rank, boolean, least_doubt((left, right)))
        if left.tag is Tag.DEVICE_SCALAR or right.tag is Tag.DEVICE_SCALAR:
            other = right if left.tag is Tag.DEVICE_SCALAR else left
            if other.tag in (Tag.HOST_INT, Tag.HOST_SCALAR, Tag.DEVICE_SCALAR):
                return K.DEVICE_SCALAR
            return K.UNKNOWN
        if left.is_host_int and right.is_host_int:
            if isinstance(node.operator, (cst.Divide,)):
                return K.Kind(Tag.HOST_SCALAR, origin=max(left.origin, right.origin))
            return K.host_int(max(left.origin, right.origin))
        if left.tag is Tag.SHAPE and right.tag is Tag.SHAPE and isinstance(node.operator, cst.Add):
            return K.SHAPE
        if {left.tag, right.tag} <= {Tag.HOST_INT, Tag.HOST_SCALAR}:
            return K.Kind(Tag.HOST_SCALAR, origin=max(left.origin, right.origin))
        return K.UNKNOWN

    def _unary(self, node: cst.UnaryOperation) -> Kind:
        inner = self.kind(node.expression)
        if isinstance(node.operator, cst.Not):
            return K.HOST_SCALAR if not inner.is_device else K.UNKNOWN
        return inner

    def _comparison(self, node: cst.Comparison) -> Kind:
        operands = [self.kind(node.left), *[self.kind(c.comparator) for c in node.comparisons]]
        if any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in node.comparisons):
            return K.HOST_SCALAR
        arrays = [k for k in operands if k.tag is Tag.ARRAY]
        if arrays:
            ranks = [k.rank for k in arrays]
            return K.array(ranks[0] if len(set(ranks)) == 1 else None, boolean=True, doubt=least_doubt(arrays))
        if any(k.tag is Tag.DEVICE_SCALAR for k in operands):
            return K.Kind(Tag.DEVICE_SCALAR, boolean=True)
        if all(k.tag in (Tag.HOST_INT, Tag.HOST_SCALAR) for k in operands):
            return K.HOST_SCALAR
        return K.UNKNOWN

    def _sequence(self, node: cst.Tuple | cst.List) -> Kind:
        elements = [e.value for e in node.elements if not isinstance(e, cst.StarredElement)]
        if len(elements) != len(node.elements):
            return K.CONTAINER
        kinds = [self.kind(e) for e in elements]
        if kinds and all(k.is_host_int for k in kinds):
            return K.Kind(Tag.SHAPE, rank=len(kinds), origin=max(k.origin for k in kinds))
        if kinds and all(k.is_device or k.is_none for k in kinds) and any(k.is_device for k in kinds):
            return K.ARRAY_SEQ
        return K.CONTAINER


def is_range_name(parts: list[str] | None) -> bool:
    """``range``, ``xrange`` and ``six.moves.range`` (old AD code bases still use it)."""
    return bool(parts) and parts[-1] in ("range", "xrange") and parts[:-1] in ([], ["six", "moves"], ["moves"], ["builtins"])  # type: ignore[index]


def _is_range(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and is_range_name(call_name(node.func))


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"
