"""Facts about one module that the inference reads across functions: who calls a function of
the module and with what, what its functions return, and what a class stores on ``self``.

Collected once per module by a plain walk of the tree the second pass already has (no extra
metadata provider), then answered on demand through the inference, so a helper's parameters take
the kinds of its callers' arguments, ``y, lo, hi = _bounds(p)`` takes the kinds of ``_bounds``'s
returns, and ``self.argmax`` set in ``forward`` is an array in ``backward``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Iterable

import libcst as cst

from scalarlint.analysis import kinds as K
from scalarlint.analysis.kinds import Doubt, Kind, Origin, Tag
from scalarlint.analysis.array_api import NAMESPACE_FACTORIES
from scalarlint.analysis.array_returns import LITERAL_CONVERTERS
from scalarlint.analysis.syntax import call_name, is_none, is_self_attribute
from scalarlint.analysis.node_types import kinds
from scalarlint.analysis.tree import preorder, walk

_FUNCTIONS, _CLASSES = kinds(cst.FunctionDef, cst.Lambda), kinds(cst.ClassDef)  # ``isinstance`` stand-ins
_CALLS, _ARGUMENT_READERS = kinds(cst.Call), kinds(cst.Param, cst.Attribute)

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView

# a host number the forward saved in a 0-d tensor: one element when the backward reads it
SAVED_NUMBER = Kind(Tag.DEVICE_SCALAR, origin=Origin.DATA)
MAX_CALL_SITES = 32  # beyond this many callers, joining their arguments costs more than it tells


def _unwrapped_variable(value: cst.BaseExpression) -> cst.BaseExpression:
    """``torch.autograd.Variable(t, requires_grad=False)`` is ``t`` itself (a Variable has been
    a Tensor since torch 0.4): what an older forward saves through it is what it wraps."""
    while isinstance(value, cst.Call):
        name = call_name(value.func)
        plain = [a for a in value.args if a.keyword is None]
        if not name or name[-1] != "Variable" or len(plain) != 1 or plain[0].star:
            break
        value = plain[0].value
    return value


class ModuleFacts:
    def __init__(self, module: cst.Module, parents: dict[cst.CSTNode, cst.CSTNode]) -> None:
        self.parents = parents
        self.calls_by_name: dict[str, list[cst.Call]] = defaultdict(list)  # f(...) and self.f(...)
        self.returns_of: dict[cst.CSTNode, list[cst.Return]] = defaultdict(list)
        self.self_assignments: dict[tuple[cst.ClassDef, str], list[cst.BaseExpression]] = defaultdict(list)
        self._namespace_users: dict[cst.CSTNode, bool] = {}
        self.forward_of: dict[str, str] = {}  # bwd name -> fwd name, from ``f.defvjp(fwd, bwd)``
        self.saved: dict[cst.ClassDef, list[cst.Call]] = defaultdict(list)  # ctx.save_for_backward(...) per class
        for node in preorder(module):
            kind = type(node)  # exact types: isinstance against libcst's abstract classes is slow
            if kind is cst.Call:
                func = node.func
                if isinstance(func, cst.Attribute) and func.attr.value == "defvjp" and len(node.args) == 2:
                    fwd, bwd = (a.value for a in node.args)
                    if isinstance(bwd, cst.Call) and (call_name(bwd.func) or [""])[-1] == "partial" and bwd.args:
                        bwd = bwd.args[0].value  # partial(bwd, solver): leading arguments bound, res and g last
                    if isinstance(fwd, cst.Name) and isinstance(bwd, cst.Name):
                        self.forward_of[bwd.value] = fwd.value
                if isinstance(func, cst.Attribute) and func.attr.value == "save_for_backward":
                    owner = self.enclosing_class(node)
                    if owner is not None:
                        self.saved[owner].append(node)
                if isinstance(func, cst.Name):
                    self.calls_by_name[func.value].append(node)
                elif is_self_attribute(func):
                    self.calls_by_name["self." + func.attr.value].append(node)  # type: ignore[union-attr]
            elif kind is cst.Return:
                owner = self.enclosing_function(node)
                if owner is not None:
                    self.returns_of[owner].append(node)
            elif kind is cst.Assign or kind is cst.AnnAssign or kind is cst.AugAssign:
                self._note_self_assignment(node)

    def enclosing_function(self, node: cst.CSTNode) -> cst.FunctionDef | cst.Lambda | None:
        parent = self.parents.get(node)
        while parent is not None and type(parent) not in _FUNCTIONS:
            parent = self.parents.get(parent)
        return parent  # type: ignore[return-value]

    def uses_namespace(self, function: cst.CSTNode) -> bool:
        """Whether ``function`` (or one around it) gets an array namespace: ``xp = get_array_module(x)``,
        ``array_namespace(x)``, an ``xp`` parameter, ``self.xp``."""
        cached = self._namespace_users.get(function)
        if cached is None:
            cached = any(
                (type(n) in _CALLS and (call_name(n.func) or [""])[-1] in NAMESPACE_FACTORIES)  # type: ignore[attr-defined]
                or (type(n) in _ARGUMENT_READERS and _names_xp(n))  # type: ignore[arg-type]
                for n in walk(function)
            )
            outer = self.enclosing_function(function)
            if not cached and outer is not None:
                cached = self.uses_namespace(outer)
            self._namespace_users[function] = cached
        return cached

    def enclosing_class(self, node: cst.CSTNode) -> cst.ClassDef | None:
        parent = self.parents.get(node)
        while parent is not None and type(parent) not in _CLASSES:
            parent = self.parents.get(parent)
        return parent

    def _note_self_assignment(self, node: cst.Assign | cst.AnnAssign | cst.AugAssign) -> None:
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
            value = node.value
        else:
            targets = [node.target]
            value = node.value
        if value is None:
            return
        for target in targets:
            attr = is_self_attribute(target)
            if attr is None:  # ctx.n = x.shape[0] in a Function's forward, read in its backward
                ctx_attr = is_self_attribute(target, "ctx")
                attr = f"ctx.{ctx_attr}" if ctx_attr is not None else None
            if attr is None:
                continue
            owner = self.enclosing_class(node)
            if owner is not None:
                self.self_assignments[(owner, attr)].append(value)


def _names_xp(node: cst.Param | cst.Attribute) -> bool:
    if isinstance(node, cst.Param):
        return node.name.value == "xp"
    return node.attr.value == "xp"


class CallFacts:
    """The questions the inference asks of ``ModuleFacts``, answered with kinds."""

    def __init__(self, inf: "InferenceView", facts: ModuleFacts) -> None:
        self.inf = inf
        self.facts = facts
        self._returning: set[tuple[object, ...]] = set()  # return and attribute kinds being computed

    def argument_kind(self, func: cst.FunctionDef, params: cst.Parameters, param: cst.Param) -> Kind | None:
        """The join of the arguments every same-module caller passes for ``param``."""
        owner = self.facts.enclosing_class(func)
        method = owner is not None and self.facts.parents.get(self.facts.parents.get(func)) is owner  # type: ignore[arg-type]
        name = ("self." if method else "") + func.name.value
        if method and func.name.value == "__init__":  # Grad(self.argmax_data, ...) builds the object
            name = owner.name.value  # type: ignore[union-attr]
        sites = self.facts.calls_by_name.get(name, [])
        if not sites or len(sites) > MAX_CALL_SITES:
            return None
        ordered = list(params.params)
        if method and ordered and ordered[0].name.value in ("self", "cls"):
            ordered = ordered[1:]
        if param not in ordered:
            return None
        position = ordered.index(param)
        kinds: list[Kind] = []
        for call in sites:
            if any(a.star for a in call.args):
                return None
            arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param.name.value), None)
            if arg is None:
                plain = [a.value for a in call.args if a.keyword is None]
                if position >= len(plain):
                    if param.default is None:
                        return None
                    continue  # the default applies
                arg = plain[position]
            kinds.append(self.inf.kind(arg))
        # a caller whose argument is unknown tells nothing: the callers that do tell decide
        # (``solve(A, b)`` from a rule with arrays and from a bwd with unpacked residuals)
        known = [k for k in kinds if k.tag is not Tag.UNKNOWN]
        sequences = {k.tag for k in known}
        if Tag.ARRAY_SEQ in sequences and sequences <= {Tag.ARRAY_SEQ, Tag.CONTAINER}:
            return K.ARRAY_SEQ  # the rule's tensors from one caller, a list from another: a list of tensors
        if sequences == {Tag.MODULE}:
            return K.MODULE  # _make_mask(numpy) and _make_mask(load_backend("torch")): a namespace parameter
        if not known or not all(k.is_device or k.tag is Tag.ARRAY_SEQ for k in known):
            known = kinds
        joined = K.combine(known) if known else K.UNKNOWN
        return joined if joined.tag is not Tag.UNKNOWN else None

    def saved_kind(self, access: cst.BaseExpression, position: int) -> Kind | None:
        """What the forward saved at ``position`` of ``ctx.saved_tensors`` (torch, OneFlow,
        Paddle's ``saved_tensor()``, tinygrad): the kind of the argument of every
        ``save_for_backward(...)`` of the class, joined; None when no call tells (starred
        arguments, no call). A forward that saves ``x.shape`` or a padding tuple hands the
        backward host data, not an array."""
        owner = self.facts.enclosing_class(access)
        calls = self.facts.saved.get(owner, []) if owner is not None else []
        kinds: list[Kind] = []
        for call in calls:
            if any(a.star or a.keyword is not None for a in call.args) or position >= len(call.args):
                return None
            saved = call.args[position].value
            if self._is_setting(saved):
                return K.UNKNOWN  # save_for_backward(padding) of ``forward(ctx, x, padding=None)``
            kinds.append(SAVED_NUMBER if self._saves_a_number(saved) else self.inf.kind(saved))
        joined = K.combine(kinds) if kinds else K.UNKNOWN
        if joined == SAVED_NUMBER:
            return joined
        # an ARRAY_SEQ here is a parameter named like a list (``ys``, ``ts``): what
        # save_for_backward takes is one tensor per argument, so the element stays an array
        return joined if joined.tag not in (Tag.UNKNOWN, Tag.ARRAY, Tag.DEVICE_SCALAR, Tag.ARRAY_SEQ) else None

    def _saves_a_number(self, saved: cst.BaseExpression) -> bool:
        """``save_for_backward(x, torch.tensor(dim))``, or ``save_for_backward(w, dim)`` with a
        parameter ``dim`` the inference takes for a host int: ``save_for_backward`` keeps tensors
        only, so what the forward saves there is a number in a 0-d tensor (wrapped by the forward
        or by its caller), and the backward that tests or converts it reads that one element
        back (not a reduction's result)."""
        if isinstance(saved, cst.Name) and self.inf.parameter_of(saved) is not None:
            return self.inf.kind(saved).tag in (Tag.HOST_INT, Tag.HOST_SCALAR)
        saved = _unwrapped_variable(saved)
        if not isinstance(saved, cst.Call):
            return False
        name = call_name(saved.func)
        args = [a for a in saved.args if a.keyword is None]
        if not name or len(name) < 2 or name[-1] not in LITERAL_CONVERTERS or len(args) != 1 or args[0].star:
            return False
        wrapped = args[0].value
        kind = self.inf.kind(wrapped)
        if kind.tag in (Tag.HOST_INT, Tag.HOST_SCALAR):
            return not is_none(wrapped)
        return kind.is_array and kind.doubt == Doubt.PARAMETER and isinstance(wrapped, cst.Name)

    def forward_returns(self, bwd: cst.FunctionDef) -> list[tuple[cst.FunctionDef, cst.Return]]:
        """Every ``return`` of the jax ``fwd`` registered beside ``bwd`` (``f.defvjp(fwd, bwd)``),
        with that fwd: what the bwd's residuals and cotangent are made from."""
        forward = self.facts.forward_of.get(bwd.name.value)
        scope = self.inf.scopes.get(bwd)
        if forward is None or scope is None or forward not in scope:
            return []
        fwds = [a.node for a in scope[forward] if isinstance(getattr(a, "node", None), cst.FunctionDef)]
        return [(fwd, ret) for fwd in fwds for ret in self.facts.returns_of.get(fwd, [])]

    def residual_kind(self, residuals: cst.Name, position: int) -> Kind | None:
        """What a jax ``fwd`` put at ``position`` of its residuals, for ``a, b = res`` in the
        ``bwd`` registered beside it (``f.defvjp(fwd, bwd)``; ``res`` is the parameter before the
        cotangent, after any ``nondiff_argnums``): ``return y, (args, x)`` with ``args`` the fwd's
        ``*args`` hands the bwd a tuple there, not an array. None when a fwd does not say (its
        residuals are not a tuple written out) or says an array, the default already."""
        param = self.inf.parameter_of(residuals)
        bwd = self.facts.parents.get(self.facts.parents.get(param)) if param is not None else None
        if not isinstance(bwd, cst.FunctionDef) or len(bwd.params.params) < 2 or bwd.params.params[-2] is not param:
            return None
        kinds: list[Kind] = []
        for fwd, ret in self.forward_returns(bwd):
            value = ret.value
            if not (isinstance(value, cst.Tuple) and len(value.elements) == 2):
                return None
            parts = self._written_out(value.elements[1].value)
            if not isinstance(parts, cst.Tuple) or position >= len(parts.elements) or isinstance(parts.elements[position], cst.StarredElement):
                return None
            kinds.append(self._residual_part(fwd, parts.elements[position].value))
        joined = K.combine(kinds) if kinds else K.UNKNOWN
        return joined if joined.tag in (Tag.ARRAY_SEQ, Tag.CONTAINER, Tag.SHAPE, Tag.HOST_INT, Tag.HOST_SCALAR, Tag.FUNCTION) else None

    def _written_out(self, parts: cst.BaseExpression) -> cst.BaseExpression:
        """``res`` of ``res = (x, L, sampling); return y, res``: the tuple every binding reaching
        the name writes out (the one display), else ``parts`` itself."""
        if not isinstance(parts, cst.Name):
            return parts
        values = self.inf.reaching_values(parts)
        return values[0] if len(values) == 1 and isinstance(values[0], cst.Tuple) else parts

    def _residual_part(self, fwd: cst.FunctionDef, part: cst.BaseExpression) -> Kind:
        """The fwd's ``*args`` is a tuple for certain; a sequence guessed from a plural name
        (``dms``) is not proof enough to stop treating the part as an array."""
        if isinstance(part, cst.Name) and self.inf.parameter_of(part) is fwd.params.star_arg is not None:
            return K.ARRAY_SEQ
        kind = self.inf.kind(part)
        return K.UNKNOWN if kind.tag is Tag.ARRAY_SEQ else kind

    def _is_setting(self, value: cst.BaseExpression) -> bool:
        """A parameter with a default: a setting of the forward, not one of its arrays."""
        param = self.inf.parameter_of(value) if isinstance(value, cst.Name) else None
        return param is not None and param.default is not None

    def return_kind(self, func: cst.FunctionDef, path: list[int], arity: int) -> Kind:
        """Kind of what ``func`` returns (the element at ``path`` of a returned tuple). A function
        that returns a call to itself (``return f(n - 1)``) tells nothing more about it: unknown."""
        asked = (func, tuple(path), arity)
        if asked in self._returning:
            return K.UNKNOWN
        self._returning.add(asked)
        try:
            kinds = []
            for ret in self.facts.returns_of.get(func, []):
                if ret.value is None:
                    kinds.append(K.NONE)
                    continue
                kinds.append(self.inf.unpack(ret.value, path, arity))
        finally:
            self._returning.discard(asked)
        return K.combine(kinds) if kinds else K.UNKNOWN

    def unpack_attribute(self, node: cst.Attribute, path: list[int], arity: int) -> Kind | None:
        """``c, a, bsol, _ = self.tableau``: that part of what the class's methods assign to the
        attribute (``self.tableau = construct_rk4(dtype)`` in ``__init__``); None when unknown."""
        owner, attr, values = self._assigned_to(node)
        asked = (owner, attr, tuple(path), arity)
        if not values or asked in self._returning:
            return None
        self._returning.add(asked)
        try:
            return _joined_known(self.inf.unpack(v, path, arity) for v in values)
        finally:
            self._returning.discard(asked)

    def attribute_kind(self, node: cst.Attribute) -> Kind | None:
        """``self.argmax`` anywhere in a class: the join of what its methods assign to it."""
        _, _, values = self._assigned_to(node)
        # ``self.begins = visitor.visit_array(self.begins)`` tells nothing new: join what is known.
        return _joined_known(self.inf.kind(v) for v in values) if values else None

    def _assigned_to(self, node: cst.Attribute) -> tuple[cst.ClassDef | None, str, list[cst.BaseExpression]]:
        """The class around ``self.x`` (or ``ctx.x``), the attribute's key, and every value its
        methods assign to it."""
        attr = node.attr.value if is_self_attribute(node) else f"ctx.{node.attr.value}"
        owner = self.facts.enclosing_class(node)
        return owner, attr, (self.facts.self_assignments.get((owner, attr)) or []) if owner is not None else []


def _joined_known(kinds: Iterable[Kind]) -> Kind | None:
    """The join of the kinds that say something; None when none does or they disagree."""
    known = [k for k in kinds if k.tag is not Tag.UNKNOWN]
    joined = K.combine(known) if known else K.UNKNOWN
    return joined if joined.tag is not Tag.UNKNOWN else None
