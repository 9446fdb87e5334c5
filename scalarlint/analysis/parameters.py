"""What a function's parameters hold.

In order of the evidence's strength: the framework's calling convention (chainer passes tuples of
arrays, MyGrad a cotangent and an int), annotations, defaults, the arguments at the function's
call sites in the same module (joined over all callers), the primal output a pullback's
cotangent mirrors (``return y, pullback``), and last the naming conventions AD code shares
(``axis`` is an int, ``inputs`` a tuple, ``xp`` a namespace, ``out=None`` the array a
function writes into). A parameter of a named rule with
no other evidence is an array; one of a helper or a lambda probably is.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

import libcst as cst

from scalarlint.analysis import kinds as K
from scalarlint.analysis.frameworks import base as roles
from scalarlint.analysis.kinds import Doubt, Kind, Origin, Tag
from scalarlint.analysis.scalar_use import NUMERIC_OPERATORS
from scalarlint.analysis.syntax import call_name
from scalarlint.analysis.node_types import kinds
from scalarlint.analysis.tree import names_in, walk
from scalarlint.analysis.vectorize_signature import core_ranks

_CALLS, _NAMES, _ATTRIBUTES = kinds(cst.Call), kinds(cst.Name), kinds(cst.Attribute)  # ``isinstance`` stand-ins (``node_types``)

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView

OUTPUT_PARAMS = frozenset({"out"})  # ``def f(x, out=None)``: the array a function writes its result into
FUNCTION_PARAMS = frozenset({"f", "fn", "fun", "func", "function", "callback", "op", "loss_fn", "fwd", "bwd"})
OBJECT_PARAMS = frozenset({"self", "cls", "ctx", "model", "module", "layer", "node", "context"})
INDEX_TUPLE_PARAMS = frozenset({"indexes", "indices", "target_input_indexes"})
PLURAL_ARRAY_NAME = re.compile(r"^d?[A-Za-z]s$")  # Xs, dYs, xs, gs: thinc's and jax's lists of arrays
CONTAINER_NAMES = frozenset({"args", "callbacks", "layers", "hooks", "fns", "funcs", "children", "nodes"})
CONTAINER_SUFFIXES = ("_args", "_list", "_seq", "_tuple", "_meta", "_shape", "_shapes", "_dims", "_axes")
ROLE_KINDS = {
    roles.ARRAY: K.array(),
    roles.ARRAYS: K.ARRAY_SEQ,
    roles.INDEXES: K.SHAPE,
    roles.INT: K.host_int(Origin.STRUCTURAL),
    roles.OBJECT: K.OBJECT,
    roles.CONTAINER: K.CONTAINER,
    roles.FLAG: K.HOST_SCALAR,
}


def param_kind(inf: "InferenceView", param: cst.Param) -> Kind:
    params = inf.parents.get(param)
    func = inf.parents.get(params) if params is not None else None
    name = param.name.value
    checked = func in inf.checked_functions
    if name in OBJECT_PARAMS:
        return K.OBJECT
    if getattr(inf.targets.get(func), "host_callback", False):
        return K.array(doubt=Doubt.HOST_COPY)  # the callback of jax.pure_callback gets host NumPy copies
    if isinstance(params, cst.Parameters):
        role = _framework_role(inf, func, params, param)
        if role is not None:
            return role
        if params.star_arg is param:  # *xs: each element has the annotated type
            if param.annotation is not None:
                element = annotation_kind(param.annotation.annotation)
                return K.ARRAY_SEQ if element.is_array else K.CONTAINER
            return K.ARRAY_SEQ if checked else K.CONTAINER
        if params.star_kwarg is param:
            return K.CONTAINER
    vectorized = vectorized_kind(func, params, param)
    if vectorized is not None:
        return vectorized
    if param.annotation is not None:
        annotated = annotation_kind(param.annotation.annotation)
        if annotated.tag in (Tag.HOST_SCALAR, Tag.HOST_INT) and func in inf.rule_functions and _used_as_array(inf, func, name):
            return K.array()  # ``theta: float`` of a custom gradient that reads ``theta.dtype``: a tensor
        if annotated.is_host_int and isinstance(func, cst.FunctionDef) and _mapped_by_jax(func):
            return K.Kind(Tag.DEVICE_SCALAR)  # ``r: int`` of a vmapped function is a tracer: x[r] gathers
        if annotated.tag in (Tag.HOST_SCALAR, Tag.HOST_INT) and isinstance(func, cst.FunctionDef) and isinstance(params, cst.Parameters):
            passed = inf.calls.argument_kind(func, params, param)
            if passed is not None and passed.tag is Tag.DEVICE_SCALAR and not passed.doubt:
                return passed  # ``T: int`` handed ``input_lengths[mb]`` by every caller: Python never checks it
        if annotated.tag is Tag.ARRAY and annotated.rank is None and isinstance(func, cst.FunctionDef) and isinstance(params, cst.Parameters):
            passed = inf.calls.argument_kind(func, params, param)
            if passed is not None and passed.tag is Tag.ARRAY and passed.rank is not None:
                return replace(annotated, rank=passed.rank)  # ``lower: NDArray``: the callers pass rank-1 arrays
        return annotated
    if param.default is not None:
        default = inf.kind(param.default)
        if name in OUTPUT_PARAMS and default.is_none:
            return K.array(doubt=Doubt.PARAMETER)  # out=None: NumPy's convention for the array to write into
        if default.tag is Tag.HOST_INT:
            return K.host_int(Origin.STRUCTURAL)
        if default.tag in (Tag.HOST_SCALAR, Tag.SHAPE, Tag.CONTAINER, Tag.FUNCTION, Tag.MODULE):
            return default if not default.is_none else K.UNKNOWN
    if isinstance(func, cst.FunctionDef) and isinstance(params, cst.Parameters):
        from_callers = inf.calls.argument_kind(func, params, param)
        if _configures_rules(inf, func) and not _used_as_array(inf, func, name) and not _vouched(from_callers):
            # PSROIAlign2D(out_h, spatial_scale, group_size): settings the rule reads as self.group_size
            return K.host_int(Origin.STRUCTURAL)
        if from_callers is not None and not _host_data_for_rule(inf, func, from_callers):
            return from_callers
        cotangent = _cotangent(inf, func, params, param)
        if cotangent is not None:
            return cotangent
    if name in inf.config.scalar_params and not _used_as_array(inf, func, name):
        return K.host_int(Origin.STRUCTURAL)
    if name in INDEX_TUPLE_PARAMS:
        return K.SHAPE
    if name in inf.config.container_params or (PLURAL_ARRAY_NAME.match(name) and not _used_as_one_array(func, name)):
        return K.ARRAY_SEQ
    if name in CONTAINER_NAMES or name.endswith(CONTAINER_SUFFIXES):
        return K.CONTAINER
    if name in inf.array_module_names:
        return K.MODULE
    if name in FUNCTION_PARAMS:
        return K.FUNCTION
    if not checked or (isinstance(params, cst.Parameters) and param in params.kwonly_params):
        return K.UNKNOWN  # keyword-only parameters configure a rule; its arrays come positionally
    target = inf.targets.get(func)
    if target is not None and target.beside_rule and not _used_as_array(inf, func, name):
        return K.UNKNOWN  # a rule class's other method: its callers or its own uses must vouch
    named_rule = func in inf.rule_functions and isinstance(func, cst.FunctionDef)
    if not named_rule and _given_to_host_numpy(inf, func, name):
        return K.array(doubt=Doubt.HOST_COPY)  # np.full_like(matrix, ...) in a torch module: a NumPy array
    return K.array(doubt=Doubt.NONE if named_rule else Doubt.PARAMETER)


def vectorized_kind(func: cst.CSTNode | None, params: cst.CSTNode | None, param: cst.Param) -> Kind | None:
    """A positional parameter of a function under ``vectorize(signature=...)`` with core
    dimensions: an array of exactly that rank (``vectorize_signature``). A ``()`` part gives no
    answer here (a 0-d value, left to the other evidence)."""
    if not isinstance(func, cst.FunctionDef) or not isinstance(params, cst.Parameters) or not func.decorators:
        return None
    ranks = core_ranks(func)
    positional = [*params.posonly_params, *params.params]
    if ranks is None or param not in positional:
        return None
    at = positional.index(param)
    return K.array(rank=ranks[at]) if at < len(ranks) and ranks[at] > 0 else None


def _vouched(kind: Kind | None) -> bool:
    """The callers say what they hand: device data for certain (``Grad(self.ignore_mask, ...)``
    built in a backward) or host data (``bottom_data.shape``); not a doubted parameter."""
    if kind is None or kind.tag is Tag.UNKNOWN:
        return False
    return not kind.is_device or not kind.doubt


def _configures_rules(inf: "InferenceView", func: cst.FunctionDef) -> bool:
    """``__init__`` of a class whose methods are AD rules (a chainer ``Function``): it stores the
    rule's configuration; its arrays arrive later, through the forward's inputs."""
    if func.name.value != "__init__":
        return False
    owner = inf.facts.enclosing_class(func)
    if owner is None:
        return False
    return any(isinstance(stmt, cst.FunctionDef) and stmt in inf.rule_functions for stmt in owner.body.body)


def _given_to_host_numpy(inf: "InferenceView", func: cst.CSTNode | None, name: str) -> bool:
    """A helper's parameter that the helper hands to NumPy where NumPy is the host (a module
    written for torch or TensorFlow): ``dijkstra(matrix)`` run on ``.cpu().numpy()`` copies."""

    def handed(node: cst.CSTNode) -> str | None:
        first = node.args[0].value if type(node) in _CALLS and node.args else None  # type: ignore[attr-defined]
        # the parameter itself, never rebound (not ``x = x.asnumpy(); np.sum(x)``)
        if type(first) in _NAMES and inf.namespaces.host_numpy_call(node) and inf.parameter_of(first) is not None:  # type: ignore[arg-type]
            return first.value
        return None

    return name in names_in(inf.cache, func, "host-numpy-args", handed)


MAPPING_TRANSFORMS = frozenset({"vmap", "pmap", "shard_map", "xmap"})


def _mapped_by_jax(func: cst.FunctionDef) -> bool:
    """``@jax.vmap`` or ``@functools.partial(jax.vmap, in_axes=...)``: the function runs on
    tracers of its arguments, whatever their annotations say."""
    for decorator in func.decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):  # @jax.vmap(...) or @functools.partial(jax.vmap, ...)
            expr = expr.args[0].value if call_name(expr.func) in (["partial"], ["functools", "partial"]) and expr.args else expr.func
        name = call_name(expr)
        if name and name[-1] in MAPPING_TRANSFORMS:
            return True
    return False


def _host_data_for_rule(inf: "InferenceView", func: cst.FunctionDef, from_callers: Kind) -> bool:
    """A rule's inputs are device-capable arrays whatever a caller passes: a demo call with
    ``np.array([1.0, -2.0])`` is the CPU path of the same generic code, so what callers pass may
    tell a rank but never turns a rule's parameter into host data."""
    if func not in inf.rule_functions:
        return False
    return from_callers.tag is not Tag.ARRAY or from_callers.doubt > Doubt.NONE


ARRAY_USES = frozenset({"shape", "dtype", "ndim", "size", "T"})
# methods only a framework's tensor answers (a Python number has none of them, and a NumPy
# scalar has ``reshape``/``astype``/``tolist`` but none of these): ``b.asnumpy()`` in a
# MindSpore ``construct(self, a, b)`` says ``b`` is a tensor, whatever its name suggests
ARRAY_ONLY_METHODS = frozenset({"asnumpy", "numpy", "cpu", "cuda", "asscalar", "detach"})


def _used_as_array(inf: "InferenceView", func: cst.CSTNode | None, name: str) -> bool:
    """``p.shape[0]``, ``p.dtype``: a parameter named like a scalar (``p``, ``n``, ``k``) that
    the function treats as an array (polynomial coefficients, not a norm's order)."""

    def used(node: cst.CSTNode) -> str | None:
        kind = type(node)  # exact types (``node_types``): this runs on every node of the function
        if kind in _ATTRIBUTES and node.attr.value in ARRAY_USES and type(node.value) in _NAMES:  # type: ignore[attr-defined]
            return node.value.value  # type: ignore[attr-defined]
        if kind in _CALLS:
            called = node.func  # type: ignore[attr-defined]
            if type(called) in _ATTRIBUTES and called.attr.value in ARRAY_ONLY_METHODS and type(called.value) in _NAMES:
                return called.value.value  # b.asnumpy(): only an array has that method
            if node.args and type(node.args[0].value) in _NAMES and inf.module_call(node):  # type: ignore[attr-defined, arg-type]
                return node.args[0].value.value  # np.cumsum(p): the operand of an array function
        return None

    return name in names_in(inf.cache, func, "array-uses", used)


SEQUENCE_METHODS = frozenset({"append", "extend", "insert", "pop", "index", "count", "remove", "sort", "reverse", "copy", "clear"})
ARRAY_ONLY_OPERATORS = (*NUMERIC_OPERATORS, cst.MatrixMultiply)  # lists only add and repeat


def _used_as_one_array(func: cst.CSTNode | None, name: str) -> bool:
    """``ts`` of ``self.ts = -ts`` or ``ts.reshape(-1)``: a plural name (``xs``, ``ts``) that
    the function negates, subtracts, divides or calls an array method on holds one array
    (the time grid of an ODE solver), not a list of arrays: lists only add and repeat."""
    if func is None:
        return False
    for node in walk(func):
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            operands: tuple[cst.CSTNode, ...] = (node.expression,)
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, ARRAY_ONLY_OPERATORS):
            operands = (node.left, node.right)
        elif isinstance(node, cst.Attribute) and node.attr.value in ARRAY_USES | {"device", "requires_grad"}:
            operands = (node.value,)
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value not in SEQUENCE_METHODS:
            operands = (node.func.value,)
        else:
            continue
        if any(isinstance(o, cst.Name) and o.value == name for o in operands):
            return True
    return False


def _framework_role(inf: "InferenceView", func: cst.CSTNode | None, params: cst.Parameters, param: cst.Param) -> Kind | None:
    """The kind a framework passes in this position (``backward(self, inputs, grad_outputs)``)."""
    target = inf.targets.get(func) if func is not None else None
    if target is None or not target.param_roles:
        return None
    if params.star_arg is param:
        return K.ARRAY_SEQ if roles.STAR_ARRAYS in target.param_roles else None
    positional = list(params.params)
    if positional and positional[0].name.value in OBJECT_PARAMS:
        positional = positional[1:]  # the receiver (``self``, torch's ``ctx``): the roles start after it
    if param not in positional:
        return None
    position = positional.index(param)
    if position >= len(target.param_roles) or target.param_roles[position] == roles.STAR_ARRAYS:
        return None
    return ROLE_KINDS[target.param_roles[position]]


def _cotangent(inf: "InferenceView", func: cst.FunctionDef, params: cst.Parameters, param: cst.Param) -> Kind | None:
    """A pullback returned as ``return y, pullback`` takes a cotangent shaped like ``y``; a jax
    ``bwd(res, g)`` registered with ``f.defvjp(fwd, bwd)`` one shaped like ``fwd``'s primal."""
    if func.name.value in inf.facts.forward_of and params.params and params.params[-1] is param:
        return _jax_cotangent(inf, func)
    if not params.params or params.params[0] is not param:
        return None
    outer = inf.enclosing_function(func)
    if outer is None:
        return None
    for ret in inf.returns(outer):
        value = ret.value
        if isinstance(value, cst.Tuple) and len(value.elements) == 2:
            last = value.elements[1].value
            if isinstance(last, cst.Name) and last.value == func.name.value:
                primal = inf.kind(value.elements[0].value)
                if primal.tag is Tag.ARRAY:
                    return K.array(primal.rank, doubt=_framework_made(primal.doubt), key=primal.key)
                if primal.tag is Tag.DEVICE_SCALAR:
                    return K.array(0)
    return None


def _framework_made(primal: Doubt) -> Doubt:
    """The framework makes a cotangent, in its own arrays, whatever the forward computed its
    primal with: a forward that returns a NumPy copy (``_tensor = np.array(tensor)`` in a
    ``tf.custom_gradient``) still gets a device tensor back. The primal's doubt carries over
    only as far as a rule's parameter's."""
    return min(primal, Doubt.PARAMETER)


def _jax_cotangent(inf: "InferenceView", bwd: cst.FunctionDef) -> Kind | None:
    for fwd, ret in inf.calls.forward_returns(bwd):
        if isinstance(ret.value, cst.Tuple) and len(ret.value.elements) == 2:
            if _unpacked_in(fwd, ret.value.elements[0].value):
                return K.ARRAY_SEQ  # the primal is a tuple of outputs: so is its cotangent
            primal = inf.kind(ret.value.elements[0].value)
            if primal.tag is Tag.ARRAY:
                return K.array(primal.rank, doubt=_framework_made(primal.doubt), key=primal.key)
    return None


def _unpacked_in(fwd: cst.FunctionDef, primal: cst.BaseExpression) -> bool:
    """``return (a, b), res`` or ``X, U, *_ = out; return out, res``: a fwd whose primal is
    a tuple written out, or a value it unpacks into several names, returns several outputs."""
    if isinstance(primal, cst.Tuple):
        return True
    if not isinstance(primal, cst.Name):
        return False
    for statement in fwd.body.body:
        for small in getattr(statement, "body", ()):
            if isinstance(small, cst.Assign) and isinstance(small.value, cst.Name) and small.value.value == primal.value:
                if any(isinstance(t.target, (cst.Tuple, cst.List)) and len(t.target.elements) >= 2 for t in small.targets):
                    return True
    return False


def _union_kind(members: list[Kind]) -> Kind:
    """``Union[List, Tensor]``: a parameter that may be an array is device-capable in a rule (the
    policy for rule inputs), with the doubt of a parameter since a caller may pass the list; a
    union without an array member says nothing."""
    arrays = [m for m in members if m.is_array]
    if not arrays:
        return K.UNKNOWN
    ranks = {a.rank for a in arrays}
    rank = ranks.pop() if len(ranks) == 1 else None
    if len(arrays) == len(members):
        return K.array(rank)
    return K.array(rank, doubt=Doubt.PARAMETER)


def annotation_kind(node: cst.BaseExpression) -> Kind:
    if isinstance(node, cst.Subscript):
        head = call_name(node.value) or []
        last = head[-1] if head else ""
        if last == "Optional" and node.slice:
            inner = node.slice[0].slice
            if isinstance(inner, cst.Index):
                return annotation_kind(inner.value)
        if last == "Union" and node.slice:
            return _union_kind([annotation_kind(e.slice.value) for e in node.slice if isinstance(e.slice, cst.Index)])
        if last in ("tuple", "Tuple", "list", "List", "Sequence", "dict", "Dict", "Mapping", "Iterable"):
            return K.CONTAINER
        if last in ("NDArray", "ndarray", "Array", "Tensor"):
            return K.array()
        return K.UNKNOWN
    if isinstance(node, cst.BinaryOperation):  # X | None
        left, right = annotation_kind(node.left), annotation_kind(node.right)
        return left if right.tag is Tag.UNKNOWN or right.is_none else K.combine([left, right])
    parts = call_name(node) or []
    last = parts[-1] if parts else (node.raw_value.rsplit(".", 1)[-1] if isinstance(node, cst.SimpleString) else "")
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
