"""Which expressions are device arrays, and which indices are host integers.

Demand-driven and built on libcst's scope metadata: the kind of a name is the combination of
the kinds of every assignment that can reach it (``combine``), found through the scope's
accesses and referents, so closures see the arrays of the rule that encloses them. Results
are memoised per node and cycles resolve to ``UNKNOWN``. Anything that cannot be decided stays
unknown and is not reported: precision first.

This module is the dispatch and the Python-level transfer rules (names, unpacking, loops,
subscripts, operators). What array-module calls return lives in ``array_api``; what parameters
hold in ``parameters`` (with the frameworks' conventions in ``frameworks``); facts across the
functions of a module in ``module_facts``; rank evidence in ``evidence``.
"""

from __future__ import annotations

import re

from typing import Mapping, Sequence

import libcst as cst
from libcst.metadata import Assignment, BaseAssignment, Scope

from scalarlint.analysis import kinds as K
from scalarlint.analysis.bindings import binding_kind, unpack
from scalarlint.analysis.operators import binary_kind, comparison_kind, sequence_kind, unary_kind
from scalarlint.analysis import element_access
from scalarlint.analysis.evidence import RankEvidence
from scalarlint.analysis.expression_kinds import attribute_kind, call_kind, subscript_kind
from scalarlint.analysis.module_namespaces import ModuleNamespaces
from scalarlint.analysis.flow import Reaching
from scalarlint.analysis.kinds import ELEMENT, Kind, Origin, Tag
from scalarlint.analysis.local_calls import assigned_value, local_function
from scalarlint.analysis.module_facts import CallFacts, ModuleFacts
from scalarlint.analysis.node_types import kinds
from scalarlint.analysis.parameters import param_kind
from scalarlint.analysis.scalar_use import ScalarUses
from scalarlint.analysis.syntax import call_name, is_range_name, keyword, positional
from scalarlint.config import Config

__all__ = ["Inference", "call_name", "is_range_name", "keyword", "positional"]

# ML code's name for a vector of per-sequence lengths (``ilens``, ``input_lengths``, ``seq_lens``)
LENGTHS_NAME = re.compile(r"(^|_|[a-z])(lens|lengths)$")
# ODE and quadrature code's name for a grid of time points (``t_span``, ``t_eval``, ``ts``): one
# axis whatever the state's rank, as in SciPy's ``solve_ivp`` and the torch and JAX solvers
TIME_GRID_NAME = re.compile(r"^(t_span|tspan|t_eval|teval|t_sol|t_grid|tgrid|ts|times|t_save|save_at|time_points)$")
# ``from .backend import xp``: a project's own namespace object (a proxy that picks NumPy or
# CuPy at run time) imported under the name the array API's convention gives a namespace
NAMESPACE_ALIASES = frozenset({"xp", "np", "jnp", "cp", "anp", "onp", "tnp"})


class Inference:
    """Answers ``kind(expr)`` for expressions of one module."""

    def __init__(
        self,
        config: Config,
        scopes: Mapping[cst.CSTNode, Scope | None],
        parents: Mapping[cst.CSTNode, cst.CSTNode],
        checked_functions: set[cst.CSTNode],
        rule_functions: set[cst.CSTNode] | None = None,
        targets: Mapping[cst.CSTNode, object] | None = None,
        module: cst.Module | None = None,
    ) -> None:
        self.config = config
        self.scopes = scopes
        self.parents = parents
        self.checked_functions = checked_functions
        self.rule_functions = rule_functions or set()
        self.targets: Mapping[cst.CSTNode, object] = targets or {}
        self.array_module_names = frozenset(config.array_modules)
        self._module = module
        self.namespaces = ModuleNamespaces(module, scopes)  # what the module's imports decide
        self._array_call_names: frozenset[str] | None = None  # every Target.array_calls of the file
        self._part_calls: dict[str, tuple[str, ...]] | None = None  # every Target.part_calls of the file
        self._facts: ModuleFacts | None = None
        self._calls: CallFacts | None = None
        self.evidence = RankEvidence(parents)  # type: ignore[arg-type]
        self.flow = Reaching(parents)  # type: ignore[arg-type]
        self.scalar_uses = ScalarUses(parents, scopes)  # type: ignore[arg-type]
        self._memo: dict[int, Kind] = {}
        self._in_progress: set[int] = set()
        self.cache: dict[tuple[str, cst.CSTNode], object] = {}  # per-node facts the helper modules keep

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

    @property
    def facts(self) -> ModuleFacts:
        """Built on first use: one walk of the module, paid only by files that need it."""
        if self._facts is None:
            root = self._module
            if root is None:  # tests build an Inference without the module: find the root
                node = next(iter(self.parents), None)
                while node is not None and node in self.parents:
                    node = self.parents[node]
                root = node if isinstance(node, cst.Module) else cst.Module(body=[])
            self._facts = ModuleFacts(root, self.parents)  # type: ignore[arg-type]
        return self._facts

    @property
    def calls(self) -> CallFacts:
        if self._calls is None:
            self._calls = CallFacts(self, self.facts)
        return self._calls

    def close(self) -> None:
        """Drop the call facts, which point back at this inference: the analysis is then freed
        by reference counting alone."""
        self._calls = None

    def enclosing_function(self, node: cst.CSTNode) -> cst.FunctionDef | cst.Lambda | None:
        return self.facts.enclosing_function(node)

    def returns(self, function: cst.CSTNode) -> list[cst.Return]:
        return self.facts.returns_of.get(function, [])

    def is_builtin(self, node: cst.BaseExpression) -> bool:
        """``sum`` is Python's, not a function of the module or an import of the same name."""
        if not isinstance(node, cst.Name):
            return False
        referents = self._referents(node, self.scopes.get(node))
        return not referents or not any(isinstance(r, Assignment) for r in referents)

    def is_array_module(self, node: cst.BaseExpression) -> bool:
        return self.kind(node).tag is Tag.MODULE

    def runs_an_array_helper(self, call: cst.Call, dotted: str) -> bool:
        """The project index found that this call runs a function of another module whose every
        ``return`` is an array package's result (``Target.array_calls`` of the function around)."""
        if self._array_call_names is None:
            self._array_call_names = frozenset(c for t in self.targets.values() for c in getattr(t, "array_calls", ()))
        if dotted not in self._array_call_names:
            return False  # the common case, answered without walking up
        function: cst.CSTNode | None = self.enclosing_function(call)
        while function is not None and function not in self.targets:
            function = self.enclosing_function(function)
        target = self.targets.get(function) if function is not None else None
        return dotted in getattr(target, "array_calls", ())

    def returned_parts(self, call: cst.Call) -> tuple[str, ...]:
        """What each part of the tuple this call returns holds, where it runs another module's
        function that the project index read (``Target.part_calls``, joined over the file: the
        call may sit in a method nobody checks, such as the ``__init__`` that sets an attribute)."""
        if self._part_calls is None:
            joined: dict[str, tuple[str, ...] | None] = {}
            for target in self.targets.values():
                for dotted, parts in getattr(target, "part_calls", ()):
                    joined[dotted] = parts if joined.get(dotted, parts) == parts else None
            self._part_calls = {d: p for d, p in joined.items() if p is not None}
        if not self._part_calls:
            return ()
        return self._part_calls.get(".".join(call_name(call.func) or ()), ())

    def module_call(self, call: cst.Call) -> str | None:
        """For ``xp.linalg.norm(...)``: "linalg.norm"; None unless the head is an array module."""
        parts = call_name(call.func)
        if not parts or len(parts) < 2:
            return None
        prefixes: list[cst.BaseExpression] = []
        head = call.func
        while type(head) in _ATTRIBUTES:
            head = head.value  # type: ignore[attr-defined]
            prefixes.append(head)
        for depth, prefix in enumerate(reversed(prefixes), start=1):  # np.linalg.norm, cuda.cupy.empty
            if self.is_array_module(prefix):
                return ".".join(parts[depth:])
        return None

    def index_kinds(self, node: cst.Subscript) -> list[Kind] | None:
        """Kinds of the index elements; None when any element is a slice, ``...`` or ``None``."""
        return element_access.index_kinds(self, node)

    def selects_element(self, node: cst.Subscript, converted: bool = False) -> bool:
        """``node`` reads or writes exactly one element of a device array with host ints
        (``element_access.selects_element``)."""
        return element_access.selects_element(self, node, converted)

    def used_as_scalar(self, node: cst.BaseExpression) -> bool:
        return self.scalar_uses.used_as_scalar(node)

    def is_mask_index(self, node: cst.Subscript) -> bool:
        """``x[mask]`` with a boolean device array (``element_access.is_mask_index``)."""
        return element_access.is_mask_index(self, node)

    def is_element_value(self, node: cst.BaseExpression) -> bool:
        """A 0-d device value that is one element of an array (not a reduction result)."""
        return element_access.is_element_value(self, node)

    def range_over_data(self, call: cst.Call, least: Origin = Origin.PARAM) -> bool:
        """``range(len(x))``, ``range(x.shape[0])``, ``range(n)`` with an int parameter ``n``."""
        return element_access.range_over_data(self, call, least)

    def may_count_data(self, bound: cst.BaseExpression, least: Origin) -> bool:
        """Some assignment reaching ``bound`` makes it a data size (``element_access.may_count_data``)."""
        return element_access.may_count_data(self, bound, least)

    def may_be_element(self, value: cst.BaseExpression) -> bool:
        """On some path the name holds one element of a device array (``element_access.may_be_element``)."""
        return element_access.may_be_element(self, value)

    def reaching_assignments(self, name: cst.Name) -> Sequence[BaseAssignment]:
        """The bindings of ``name`` that can reach this use, in source order (``flow``: an
        unconditional rebinding before it hides the earlier ones); empty when unknown."""
        referents = self._referents(name, self.scopes.get(name))
        return self.flow.reaching(name, referents) if referents else ()

    def reaching_values(self, name: cst.Name) -> list[cst.BaseExpression | None]:
        """What each binding reaching ``name`` assigns (``v`` of ``name = v``; None for a binding
        that is no plain assignment: a parameter, a loop target, an unpacking)."""
        return [assigned_value(getattr(ref, "node", None), self.parents) for ref in self.reaching_assignments(name)]

    def reaching_kinds(self, name: cst.BaseExpression) -> list[Kind]:
        """The kind of every assignment reaching ``name`` (both branches of a conditional
        expression apart); empty for anything but a name with assignments."""
        if not isinstance(name, cst.Name):
            return []
        scope = self.scopes.get(name)
        kinds: list[Kind] = []
        for ref in self.reaching_assignments(name):
            value = assigned_value(getattr(ref, "node", None), self.parents)
            if isinstance(value, cst.IfExp):  # one assignment, two branches
                kinds += [self.kind(value.body), self.kind(value.orelse)]
            else:
                kinds.append(self._assignment_kind(ref, name, scope))
        return kinds

    # -- dispatch ------------------------------------------------------------------------
    def _infer(self, node: cst.BaseExpression) -> Kind:
        kind = type(node)  # exact types (``node_types``): this runs on every expression asked about
        if kind in _INTEGERS:
            return K.host_int(Origin.LITERAL)
        if kind in _HOST_LITERALS:
            return K.HOST_SCALAR
        handler = _HANDLERS.get(kind)
        if handler is not None:
            return handler(self, node)
        if kind in _BOOLEAN_OPERATIONS:
            return K.combine([self.kind(node.left), self.kind(node.right)])  # type: ignore[attr-defined]
        if kind in _IF_EXPRESSIONS:
            return K.combine([self.kind(node.body), self.kind(node.orelse)])  # type: ignore[attr-defined]
        if kind in _COMPREHENSIONS:
            return _comprehension_kind(self.kind(node.elt))  # type: ignore[attr-defined]
        if kind in _CONTAINERS:
            return K.CONTAINER
        if kind in _LAMBDAS:
            return K.FUNCTION
        if kind in _NAMED_EXPRESSIONS:
            return self.kind(node.value)  # type: ignore[attr-defined]
        return K.UNKNOWN

    # -- names ---------------------------------------------------------------------------
    def _name(self, node: cst.Name) -> Kind:
        if node.value == "None":
            return K.NONE
        if node.value in ("True", "False"):
            return K.HOST_SCALAR
        scope = self.scopes.get(node)
        referents = self._referents(node, scope)
        if not referents:
            return K.MODULE if node.value in self.array_module_names else K.UNKNOWN
        referents = self.flow.reaching(node, referents)
        kinds = [self._assignment_kind(r, node, scope) for r in referents]
        if len(kinds) > 1 and any(k.tag is Tag.UNKNOWN for k in kinds):
            # ``R = update(R, ...)`` at the end of a loop body, a call the inference cannot
            # type: the first pass still sees what came before the loop, so an untyped value
            # carried around the loop does not erase it
            known = [k for k, r in zip(kinds, referents) if k.tag is not Tag.UNKNOWN or not self.flow.carried(r, node, scope)]
            kinds = known or kinds
        kind = K.combine(kinds)
        if kind.tag is Tag.UNKNOWN and self.enclosing_function(node) in self.checked_functions:
            rank = self.evidence.rank_of(node.value, node)
            if rank is not None and rank >= 2:  # n, l, c = dy.shape: only an array has that
                return K.array(rank, key=node.value)
        if kind.tag is Tag.ARRAY:
            kind = K.with_key(kind, kind.key or node.value)  # an array is its own shape family
            if kind.rank is None:
                rank = self.evidence.rank_of(node.value, node)
                if rank is None and (LENGTHS_NAME.search(node.value) or TIME_GRID_NAME.match(node.value)):
                    rank = 1  # ilens, input_lengths, seq_lens: one length per batch entry; t_span: time points
                if rank is not None:
                    return K.array(rank, kind.boolean, kind.doubt, kind.key)
        return kind

    def _referents(self, node: cst.Name, scope: Scope | None) -> Sequence[BaseAssignment] | None:
        if scope is None:
            return None
        for access in scope.accesses[node.value]:
            if access.node is node:
                return self.flow.with_carried(node, list(access.referents), scope)
        # Not an access recorded by the scope (e.g. a synthesised node): look the name up.
        if node.value in scope:
            return list(scope[node.value])
        return None

    def _names_array_module(self, node: cst.Name, scope: Scope) -> bool:
        try:
            names = scope.get_qualified_names_for(node)
        except Exception:  # libcst can fail on exotic nodes; unknown is fine
            return False
        return any(qn.name in self.array_module_names or qn.name.rsplit(".", 1)[-1] in NAMESPACE_ALIASES for qn in names)

    def _assignment_kind(self, ref: BaseAssignment, use: cst.Name, scope: Scope | None) -> Kind:
        if type(ref) not in _ASSIGNMENTS:
            return K.UNKNOWN  # builtins
        target = ref.node  # type: ignore[attr-defined]
        kind = type(target)
        if kind in _PARAMS:
            return param_kind(self, target)
        if kind in _IMPORTS:
            if scope is not None and self._names_array_module(use, scope):
                return K.MODULE
            return K.OBJECT
        if kind in _DEFINITIONS:
            return K.FUNCTION
        if kind in _NAMES:
            return self._binding(target)
        return K.UNKNOWN

    def _binding(self, name: cst.Name) -> Kind:
        return binding_kind(self, name)

    def unpack(self, value: cst.BaseExpression, path: list[int], arity: int = 1) -> Kind:
        """Kind of the part of ``value`` at ``path`` (``a, (b, c) = value``)."""
        return unpack(self, value, path, arity)

    # -- calls -------------------------------------------------------------------------------
    def local_function(self, call: cst.Call) -> cst.FunctionDef | None:
        """The function of this module a call runs (``local_calls``)."""
        return local_function(self, call)

    def definition_of(self, name: cst.Name) -> cst.CSTNode | None:
        """The one node ``name`` is bound to here (a def, a class, a parameter, an assignment
        target); None for builtins, imports of several places, or several assignments."""
        referents = self._referents(name, self.scopes.get(name))
        if referents and len(referents) == 1 and isinstance(referents[0], Assignment):
            return referents[0].node
        return None

    def parameter_of(self, name: cst.Name) -> cst.Param | None:
        """The parameter ``name`` refers to, when it is never rebound in its function."""
        scope = self.scopes.get(name)
        if scope is None or name.value not in scope:
            return None
        targets = [getattr(a, "node", None) for a in scope[name.value]]
        return targets[0] if len(targets) == 1 and isinstance(targets[0], cst.Param) else None

# ``isinstance`` stand-ins (``node_types``)
_INTEGERS, _LAMBDAS, _NAMES, _PARAMS, _ATTRIBUTES = (kinds(c) for c in (cst.Integer, cst.Lambda, cst.Name, cst.Param, cst.Attribute))
_HOST_LITERALS = kinds(cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
_BOOLEAN_OPERATIONS, _IF_EXPRESSIONS, _NAMED_EXPRESSIONS = kinds(cst.BooleanOperation), kinds(cst.IfExp), kinds(cst.NamedExpr)
_CONTAINERS = kinds(cst.Dict, cst.Set, cst.DictComp)
_COMPREHENSIONS = kinds(cst.SetComp, cst.ListComp, cst.GeneratorExp)


def _comprehension_kind(item: Kind) -> Kind:
    """``{c for c in target_path}``: a Python container of what its items are; one element of a
    device array each (a sequence of 0-d device values, iterated or indexed into elements, as a
    list ``all_gather`` fills), or else a container the inference does not look into."""
    return Kind(Tag.ARRAY_SEQ, rank=0, origin=ELEMENT) if item.is_element else K.CONTAINER


_ASSIGNMENTS, _IMPORTS = kinds(Assignment), kinds(cst.Import, cst.ImportFrom)
_DEFINITIONS = kinds(cst.FunctionDef, cst.ClassDef, cst.Lambda)

_HANDLERS = {
    cst.Name: Inference._name,
    cst.Attribute: attribute_kind,
    cst.Subscript: subscript_kind,
    cst.Call: call_kind,
    cst.BinaryOperation: binary_kind,
    cst.UnaryOperation: unary_kind,
    cst.Comparison: comparison_kind,
    cst.Tuple: sequence_kind,
    cst.List: sequence_kind,
}
