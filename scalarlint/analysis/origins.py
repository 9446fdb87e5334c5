"""Why a value is a device array, and why an index is a host int, in words, with how sure each
reason makes the checker (``diagnostics.Confidence``).

The inference answers *what* an expression is (a ``Kind``); a report also needs *why*. These
functions walk back one or two definitions from an expression (``Inference.definition_of``,
``local_calls.assigned_value``) and name what they find: an array-module call that builds the
array (``high``: proven by construction), a framework's convention, a saved tensor, a rule's or
helper's parameter (``medium``), a literal or a loop over ``range`` for an index (``high``).
What cannot be traced is ``medium`` when the inference still calls it an array (its reasons
are conventions too), so explaining a finding never hides one at the default threshold.

Only findings are explained (a handful per file), so nothing here is on the checker's hot path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

import libcst as cst

from scalarlint.analysis.array_api import NEW_METHODS
from scalarlint.analysis.bindings import is_saved_access
from scalarlint.analysis.frameworks import CONSTRUCTORS, RECEIVERS
from scalarlint.analysis.frameworks import base as roles
from scalarlint.analysis.kinds import Tag
from scalarlint.analysis.local_calls import assigned_value
from scalarlint.analysis.parameters import OBJECT_PARAMS, vectorized_kind
from scalarlint.analysis.syntax import call_name, is_range_name, positional
from scalarlint.diagnostics import Confidence

if TYPE_CHECKING:
    from scalarlint.analysis.inference import Inference

HIGH, MEDIUM, LOW = Confidence.HIGH, Confidence.MEDIUM, Confidence.LOW
HOPS = 6  # steps followed back from one expression (`int(round(x0 * s))` -> x0 -> rois[i] -> rois -> inputs)
CONVERSIONS = frozenset({"asarray", "array", "ascontiguousarray", "asanyarray", "as_tensor", "tensor", "from_numpy", "copy"})
COTANGENT_METHODS = ("backward", "grad", "bprop", "vjp", "pullback", "L_op", "backward_var")
ARRAY_ROLES = (roles.ARRAY, roles.ARRAYS, roles.STAR_ARRAYS)


@dataclass(frozen=True)
class Reason:
    """What one step of the explanation found, and how sure it is."""

    confidence: Confidence
    texts: tuple[str, ...]

    def then(self, *more: "Reason | None") -> "Reason":
        """This reason followed by others: the weakest confidence, every text once."""
        found = [self, *(r for r in more if r is not None)]
        texts = tuple(dict.fromkeys(t for r in found for t in r.texts))
        return Reason(weakest(r.confidence for r in found), texts)


def weakest(levels: Iterable[Confidence]) -> Confidence:
    return min(levels, key=lambda level: level.rank, default=HIGH)


def code(node: cst.CSTNode, limit: int = 40) -> str:
    """The source of ``node`` on one line, shortened: what a reason quotes."""
    text = " ".join(cst.Module(body=[]).code_for_node(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- device values ----------------------------------------------------------------------------
def array_origin(inf: "Inference", expr: cst.BaseExpression, hops: int = HOPS) -> Reason:
    """Why ``expr`` is a device array (or a 0-d device value)."""
    found = _origin(inf, expr, hops) if hops > 0 else None
    return found if found is not None else _by_inference(inf, expr)


def _by_inference(inf: "Inference", expr: cst.BaseExpression) -> Reason:
    """The last resort: the inference says array, through a chain not followed here."""
    kind = inf.kind(expr)
    if kind.tag is Tag.UNKNOWN:
        return Reason(LOW, (f"`{code(expr)}`: a value the inference cannot follow",))
    return Reason(MEDIUM, (f"`{code(expr)}`: an array by the inference's conventions (origin not traced here)",))


def _origin(inf: "Inference", expr: cst.BaseExpression, hops: int) -> Reason | None:
    if isinstance(expr, cst.Name):
        return _name_origin(inf, expr, hops)
    if isinstance(expr, cst.Call):
        return _call_origin(inf, expr, hops)
    if isinstance(expr, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison)):
        operands = _operands(expr)
        device = [o for o in operands if inf.kind(o).is_device]
        if not device:
            return None
        best = max((array_origin(inf, o, hops - 1) for o in device), key=lambda r: r.confidence.rank)
        return Reason(best.confidence, (f"`{code(expr)}`: {'a comparison' if isinstance(expr, cst.Comparison) else 'arithmetic'} on device values", *best.texts))
    if isinstance(expr, cst.Subscript):
        return _part_origin(inf, expr, hops)
    if isinstance(expr, cst.Attribute):
        return _attribute_origin(inf, expr, hops)
    return None


def _operands(expr: cst.BinaryOperation | cst.UnaryOperation | cst.Comparison) -> list[cst.BaseExpression]:
    if isinstance(expr, cst.BinaryOperation):
        return [expr.left, expr.right]
    if isinstance(expr, cst.Comparison):
        return [expr.left, *(c.comparator for c in expr.comparisons)]
    return [expr.expression]


def _name_origin(inf: "Inference", name: cst.Name, hops: int) -> Reason | None:
    node = inf.definition_of(name)
    if node is None:
        return _several_origins(inf, name, hops)
    return _binding_origin(inf, name.value, node, hops)


def _binding_origin(inf: "Inference", name: str, node: cst.CSTNode, hops: int) -> Reason | None:
    if isinstance(node, cst.Param):
        return parameter_origin(inf, node)
    if not isinstance(node, cst.Name):
        return None
    value = assigned_value(node, inf.parents)
    if value is not None:
        inner = array_origin(inf, value, hops - 1)
        if inner.texts and inner.texts[0].startswith("built by"):  # `dx` built by `np.zeros_like(x)`
            return Reason(inner.confidence, (f"`{name}` {inner.texts[0]}", *inner.texts[1:]))
        return Reason(inner.confidence, (f"`{name} = {code(value)}`", *inner.texts))
    return _unpacked_origin(inf, node, hops)


def _several_origins(inf: "Inference", name: cst.Name, hops: int) -> Reason | None:
    """A name assigned on several paths: the reason of each assignment that reaches this use
    (``dx += v`` keeps dx's origin), the weakest decides."""
    targets = [t for t in reaching_targets(inf, name) if not isinstance(inf.parents.get(t), cst.AugAssign)]
    reasons = [_binding_origin(inf, name.value, t, hops) for t in targets[:3]]
    known = [r for r in reasons if r is not None]
    if not known or len(known) < len(reasons):
        return None
    return known[0].then(*known[1:])


def reaching_targets(inf: "Inference", name: cst.Name) -> list[cst.CSTNode]:
    """The targets of the assignments of ``name`` that reach this use (``Inference.flow``)."""
    scope = inf.scopes.get(name)
    if scope is None:
        return []
    for access in scope.accesses[name.value]:
        if access.node is name:
            referents = list(access.referents)
            return [r.node for r in inf.flow.reaching(name, referents) if getattr(r, "node", None) is not None]
    return []


def _unpacked_origin(inf: "Inference", target: cst.Name, hops: int) -> Reason | None:
    """``a, b = ctx.saved_tensors``, ``for g in grads``: where the unpacked value comes from."""
    holder: cst.CSTNode | None = inf.parents.get(target)
    while isinstance(holder, (cst.Element, cst.StarredElement, cst.Tuple, cst.List)):
        holder = inf.parents.get(holder)
    if isinstance(holder, cst.AssignTarget):
        assign = inf.parents.get(holder)
        value = assign.value if isinstance(assign, cst.Assign) else None
    elif isinstance(holder, (cst.For, cst.CompFor)):
        value = holder.iter
    else:
        return None
    if value is None:
        return None
    if is_saved_access(value):
        return Reason(MEDIUM, (f"`{target.value}`: saved by the forward (`{code(value)}`, framework convention)",))
    inner = array_origin(inf, value, hops - 1)
    return Reason(inner.confidence, (f"`{target.value}`: unpacked from `{code(value)}`", *inner.texts))


def _call_origin(inf: "Inference", call: cst.Call, hops: int) -> Reason | None:
    func = inf.module_call(call)
    if func is not None:
        last = func.rsplit(".", 1)[-1]
        args = positional(call)
        if last in CONVERSIONS and args and inf.kind(args[0]).is_device:
            inner = array_origin(inf, args[0], hops - 1)
            return Reason(inner.confidence, (f"`{code(call)}`: converts a device value", *inner.texts))
        return Reason(HIGH, (f"built by `{code(call)}`, an array-module call",))
    if isinstance(call.func, cst.Attribute):
        receiver = call.func.value
        method = call.func.attr.value
        if is_saved_access(call):
            return Reason(MEDIUM, (f"saved by the forward (`{code(call)}`, framework convention)",))
        if inf.kind(receiver).is_device:
            if method in NEW_METHODS:
                return Reason(HIGH, (f"built by `{code(call)}`, a new device array",))
            inner = array_origin(inf, receiver, hops - 1)
            return Reason(inner.confidence, (f"`.{method}()` of a device array", *inner.texts))
    local = inf.local_function(call)
    if local is not None:
        return Reason(MEDIUM, (f"returned by `{local.name.value}()`, which the inference follows",))
    device = [a for a in positional(call) if inf.kind(a).is_device]
    if isinstance(call.func, cst.Name) and device:  # round(ymax * scale), abs(d): of a device value
        inner = array_origin(inf, device[0], hops - 1)
        return Reason(inner.confidence, (f"`{code(call)}` of a device value", *inner.texts))
    parts = call_name(call.func) or []
    if len(parts) >= 3 and parts[-1] in CONSTRUCTORS and parts[-2] in RECEIVERS:  # model.ops.alloc2f(n, m)
        return Reason(HIGH, (f"built by `{code(call)}`, a framework's array constructor",))
    return None


def _part_origin(inf: "Inference", sub: cst.Subscript, hops: int) -> Reason | None:
    """``grads[0]``, ``ctx.saved_tensors[1]``, ``x[:, 0]``: a part of something."""
    if is_saved_access(sub.value):
        return Reason(MEDIUM, (f"`{code(sub)}`: saved by the forward (framework convention)",))
    whole = inf.kind(sub.value)
    if whole.tag not in (Tag.ARRAY, Tag.ARRAY_SEQ, Tag.DEVICE_SCALAR):
        return None
    inner = array_origin(inf, sub.value, hops - 1)
    what = "one of the arrays in" if whole.tag is Tag.ARRAY_SEQ else "a part of"
    return Reason(inner.confidence, (f"`{code(sub)}`: {what} `{code(sub.value)}`", *inner.texts))


def _attribute_origin(inf: "Inference", attr: cst.Attribute, hops: int) -> Reason | None:
    if attr.attr.value.startswith("saved_") or attr.attr.value in ("saved_variables", "get_retained_inputs"):
        return Reason(MEDIUM, (f"`{code(attr)}`: what the forward saved (framework convention)",))
    base = inf.kind(attr.value)
    if base.is_device:
        inner = array_origin(inf, attr.value, hops - 1)
        return Reason(inner.confidence, (f"`{code(attr)}`: an attribute of a device array", *inner.texts))
    if isinstance(attr.value, cst.Name) and attr.value.value == "self":
        return Reason(MEDIUM, (f"`{code(attr)}`: set to an array elsewhere in its class",))
    return None


def parameter_origin(inf: "Inference", param: cst.Param) -> Reason:
    """Why a parameter holds an array: always a convention (``medium``), named as precisely as
    the evidence allows."""
    params = inf.parents.get(param)
    func = inf.parents.get(params) if params is not None else None
    name = param.name.value
    fname = func.name.value if isinstance(func, cst.FunctionDef) else "<lambda>"
    target = inf.targets.get(func) if func is not None else None
    rule = getattr(target, "rule", "") or ""
    role = _role_of(param, params, getattr(target, "param_roles", ()) or ())
    if role is not None:
        cotangent = fname.startswith(COTANGENT_METHODS) or fname.endswith("backward")
        starred = isinstance(params, cst.Parameters) and params.star_arg is param
        what = {roles.ARRAY: "the cotangent" if cotangent else "an array", roles.ARRAYS: "the tuple of arrays",
                roles.STAR_ARRAYS: ("the cotangents" if starred else "a cotangent") if cotangent else
                ("the arrays" if starred else "an array")}[role]
        return Reason(MEDIUM, (f"`{name}`: {what} a framework's `{fname}` receives (its calling convention)",))
    if vectorized_kind(func, params, param) is not None:
        return Reason(MEDIUM, (f"`{name}`: an array with the core axes `{fname}`'s `vectorize` signature gives it",))
    if param.annotation is not None:
        return Reason(MEDIUM, (f"`{name}`: annotated `{code(param.annotation.annotation)}`",))
    if isinstance(func, cst.FunctionDef) and _returned_beside_value(inf, func, param):
        return Reason(MEDIUM, (f"`{name}`: the cotangent `{fname}` receives (returned beside the primal as `return y, {fname}`)",))
    if func in inf.rule_functions:
        return Reason(MEDIUM, (f"`{name}`: a parameter of the rule `{rule or fname}` (AD convention: rule inputs are arrays)",))
    via = f", reached from the rule `{rule}`" if rule else ""
    return Reason(MEDIUM, (f"`{name}`: a parameter of the helper `{fname}`{via} (its callers or AD conventions pass arrays)",))


def _role_of(param: cst.Param, params: cst.CSTNode | None, param_roles: tuple[str, ...]) -> str | None:
    """The array role a framework gives this parameter (``parameters._framework_role``'s
    reading): a ``*args`` under ``*arrays``, a positional one by its position past ``self`` and
    ``ctx``; torch's ``backward(ctx, *grad_outputs)`` written ``backward(ctx, grad_output)``
    passes one cotangent per position."""
    if not isinstance(params, cst.Parameters) or not param_roles:
        return None
    if params.star_arg is param:
        return roles.STAR_ARRAYS if roles.STAR_ARRAYS in param_roles else None
    positional_params = [p for p in params.params if p.name.value not in OBJECT_PARAMS]
    if param not in positional_params:
        return None
    position = positional_params.index(param)
    if position >= len(param_roles):
        return roles.STAR_ARRAYS if param_roles[-1] == roles.STAR_ARRAYS else None
    role = param_roles[position]
    return role if role in ARRAY_ROLES else None


def _returned_beside_value(inf: "Inference", func: cst.FunctionDef, param: cst.Param) -> bool:
    """``return y, pullback``: the pullback's first parameter is the cotangent of ``y``."""
    params = func.params.params
    if not params or params[0] is not param:
        return False
    outer = inf.enclosing_function(func)
    for ret in inf.returns(outer) if outer is not None else []:
        value = ret.value
        if isinstance(value, cst.Tuple) and len(value.elements) == 2:
            last = value.elements[1].value
            if isinstance(last, cst.Name) and last.value == func.name.value:
                return True
    return False


# -- host ints --------------------------------------------------------------------------------
def index_origin(inf: "Inference", expr: cst.BaseExpression, hops: int = 2) -> Reason:
    """Why ``expr`` (an index) is a host int, in one line: literals, loop variables and sizes
    are ``high``; an int parameter is ``medium`` (its annotation, default or name says so)."""
    if isinstance(expr, cst.Integer) or (isinstance(expr, cst.UnaryOperation) and isinstance(expr.expression, cst.Integer)):
        return Reason(HIGH, (f"index `{code(expr)}` is a literal",))
    level = _host_int_level(inf, expr, hops)
    if isinstance(expr, cst.Name):
        node = inf.definition_of(expr)
        if isinstance(node, cst.Param):
            return Reason(MEDIUM, (f"index `{expr.value}`: an int parameter (by its annotation, default or name)",))
        loop = _loop_of(inf, node) if node is not None else None
        if loop is not None:
            return Reason(HIGH, (f"index `{expr.value}` is a host int from `{code(loop.iter)}`",))
        value = (assigned_value(node, inf.parents) or _unpacked_from(inf, node)) if node is not None else None
        if value is not None:
            return Reason(level, (f"index `{expr.value}` is a host int from `{code(value)}`",))
        if node is None and level is HIGH:
            return Reason(HIGH, (f"index `{expr.value}` is a host int on every path (sizes, literals, `int()`)",))
    if level is HIGH:
        return Reason(HIGH, (f"index `{code(expr)}` is a host int by construction",))
    return Reason(MEDIUM, (f"index `{code(expr)}`: a host int by the inference (origin not traced here)",))


def _host_int_level(inf: "Inference", expr: cst.BaseExpression, hops: int) -> Confidence:
    """``high`` when every name in ``expr`` traces back (``hops`` definitions) to a literal, a
    loop over ``range``, a size (``len``, ``.shape``) or an ``int()``; ``medium`` otherwise."""
    if isinstance(expr, (cst.Integer, cst.Float)):
        return HIGH
    if isinstance(expr, cst.Call):
        parts = call_name(expr.func)
        if parts in (["len"], ["int"], ["round"]) or (isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "size"):
            return HIGH
    if isinstance(expr, (cst.Subscript, cst.Attribute)):
        base = expr.value
        return HIGH if inf.kind(base).tag is Tag.SHAPE or (isinstance(expr, cst.Attribute) and expr.attr.value in ("size", "ndim")) else MEDIUM
    if isinstance(expr, (cst.BinaryOperation, cst.UnaryOperation)):
        operands = [expr.left, expr.right] if isinstance(expr, cst.BinaryOperation) else [expr.expression]
        return weakest(_host_int_level(inf, o, hops) for o in operands)
    if isinstance(expr, cst.Name) and hops > 0:
        node = inf.definition_of(expr)
        if node is None:  # y_low = int(y); if y_low >= h - 1: y_low = h - 1
            targets = reaching_targets(inf, expr)
            return weakest(_target_level(inf, t, hops) for t in targets[:4]) if 0 < len(targets) <= 4 else MEDIUM
        return _target_level(inf, node, hops)
    return MEDIUM


def _target_level(inf: "Inference", node: cst.CSTNode, hops: int) -> Confidence:
    if isinstance(node, cst.Param):
        return MEDIUM
    if isinstance(inf.parents.get(node), cst.AugAssign):
        augment = inf.parents.get(node)
        return _host_int_level(inf, augment.value, hops - 1)  # type: ignore[union-attr]
    if _loop_of(inf, node) is not None:
        return HIGH
    value = assigned_value(node, inf.parents)
    if value is not None:
        return _host_int_level(inf, value, hops - 1)
    unpacked = _unpacked_from(inf, node)
    return HIGH if unpacked is not None and inf.kind(unpacked).tag is Tag.SHAPE else MEDIUM


def _unpacked_from(inf: "Inference", target: cst.CSTNode | None) -> cst.BaseExpression | None:
    """``value`` of ``a, b = value`` for one of its names."""
    holder = inf.parents.get(target) if target is not None else None
    if not isinstance(holder, cst.Element):
        return None
    while isinstance(holder, (cst.Element, cst.Tuple, cst.List)):
        holder = inf.parents.get(holder)
    assign = inf.parents.get(holder) if isinstance(holder, cst.AssignTarget) else None
    return assign.value if isinstance(assign, cst.Assign) else None


def _loop_of(inf: "Inference", target: cst.CSTNode) -> cst.For | cst.CompFor | None:
    """The loop whose target binds ``target`` (``for i in ...``, ``for i, v in enumerate(...)``)."""
    holder = inf.parents.get(target)
    while isinstance(holder, (cst.Element, cst.Tuple, cst.List)):
        holder = inf.parents.get(holder)
    return holder if isinstance(holder, (cst.For, cst.CompFor)) else None


def range_walks(loop_iter: cst.BaseExpression, value: cst.BaseExpression) -> bool:
    """``range(len(v))``, ``range(v.shape[0])``, ``range(v.size(0))`` (reversed too) over the
    value ``v`` that is indexed: the loop walks ``v`` by its own length."""
    if isinstance(loop_iter, cst.Call) and call_name(loop_iter.func) == ["reversed"] and positional(loop_iter):
        loop_iter = positional(loop_iter)[0]
    if not (isinstance(loop_iter, cst.Call) and is_range_name(call_name(loop_iter.func))):
        return False
    wanted = code(value, 200)
    for bound in positional(loop_iter):
        if isinstance(bound, cst.Call) and call_name(bound.func) == ["len"] and positional(bound):
            if code(positional(bound)[0], 200) == wanted:
                return True
        if isinstance(bound, cst.Subscript) and isinstance(bound.value, cst.Attribute) and bound.value.attr.value == "shape":
            if code(bound.value.value, 200) == wanted:
                return True
        if isinstance(bound, cst.Call) and isinstance(bound.func, cst.Attribute) and bound.func.attr.value == "size":
            if code(bound.func.value, 200) == wanted:
                return True
    return False
