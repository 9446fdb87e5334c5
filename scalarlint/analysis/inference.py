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
from dataclasses import replace

from typing import Mapping, Sequence

import libcst as cst
from libcst.metadata import Assignment, BaseAssignment, Scope

from scalarlint.analysis import kinds as K
from scalarlint.analysis.array_api import HOST_RESULT, JAX_UPDATES, MASK_CASTS, NAMESPACE_FACTORIES, NEW_METHODS, array_function, array_method, shape_rank
from scalarlint.analysis.bindings import ELEMENT, binding_kind, is_saved_access, unpack
from scalarlint.analysis.operators import binary_kind, comparison_kind, sequence_kind, unary_kind
from scalarlint.analysis.python_builtins import builtin_kind
from scalarlint.analysis.evidence import RankEvidence
from scalarlint.analysis.masks import compared_to_mask, mask_name
from scalarlint.analysis.module_namespaces import ModuleNamespaces
from scalarlint.analysis.flow import Reaching
from scalarlint.analysis.frameworks import CONSTRUCTORS, RECEIVERS, SAVED_METHODS
from scalarlint.analysis.kinds import Doubt, Kind, Origin, Tag
from scalarlint.analysis.index_helpers import IndexHelper, index_helper, offset_kind
from scalarlint.analysis.local_calls import assigned_value, local_function
from scalarlint.analysis.module_facts import CallFacts, ModuleFacts
from scalarlint.analysis.parameters import param_kind
from scalarlint.analysis.scalar_use import ScalarUses, arithmetic_top
from scalarlint.analysis.syntax import call_name, is_none, is_range_name, jax_at_base, keyword, positional
from scalarlint.config import Config

__all__ = ["Inference", "call_name", "is_range_name", "keyword", "positional"]

ARRAY_ATTRS = frozenset({"T", "mT", "H", "real", "imag", "data", "grad", "array"})
HOST_INT_ATTRS = frozenset({"ndim", "size", "itemsize", "nbytes"})
# Methods only device arrays have (MXNet/MindSpore ``asnumpy``/``asscalar``, torch/TF/Paddle
# ``numpy``): whatever the receiver's origin, it was a device array and the result is host data.
# what one reads off an array of rank >= 1 and never off one element
ARRAY_ONLY_USES = frozenset({"shape", "ndim", "T", "mT", "reshape", "transpose", "ravel", "flatten", "view",
                             "get_shape", "permute", "unsqueeze", "squeeze"})
# ML code's name for a vector of per-sequence lengths (``ilens``, ``input_lengths``, ``seq_lens``)
LENGTHS_NAME = re.compile(r"(^|_|[a-z])(lens|lengths)$")
# ODE and quadrature code's name for a grid of time points (``t_span``, ``t_eval``, ``ts``): one
# axis whatever the state's rank, as in SciPy's ``solve_ivp`` and the torch and JAX solvers
TIME_GRID_NAME = re.compile(r"^(t_span|tspan|t_eval|teval|t_sol|t_grid|tgrid|ts|times|t_save|save_at|time_points)$")
DEVICE_ONLY_METHODS = frozenset({"asnumpy", "asscalar", "numpy"})
# ``from .backend import xp``: a project's own namespace object (a proxy that picks NumPy or
# CuPy at run time) imported under the name the array API's convention gives a namespace
NAMESPACE_ALIASES = frozenset({"xp", "np", "jnp", "cp", "anp", "onp", "tnp"})
HOST_COPY_FUNCTIONS = frozenset({"asnumpy", "to_numpy", "to_np"})  # named for what they return: a NumPy copy
SEQ_METHODS = frozenset({"get_retained_inputs", "get_retained_outputs", "saved_tensors", "saved_variables"}) | SAVED_METHODS


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

    def _runs_an_array_helper(self, call: cst.Call, dotted: str) -> bool:
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
        while isinstance(head, cst.Attribute):
            head = head.value
            prefixes.append(head)
        for depth, prefix in enumerate(reversed(prefixes), start=1):  # np.linalg.norm, cuda.cupy.empty
            if self.is_array_module(prefix):
                return ".".join(parts[depth:])
        return None

    def index_kinds(self, node: cst.Subscript) -> list[Kind] | None:
        """Kinds of the index elements; None when any element is a slice, ``...`` or ``None``."""
        out: list[Kind] = []
        for element in node.slice:
            inner = element.slice
            if not isinstance(inner, cst.Index) or inner.star is not None:
                return None
            value = inner.value
            if isinstance(value, (cst.Ellipsis, cst.Tuple)) or is_none(value):
                return None
            out.append(self.kind(value))
        return out

    def selects_element(self, node: cst.Subscript, converted: bool = False) -> bool:
        """True when ``node`` reads or writes exactly one element of a device array with host ints.

        With the rank unknown an int on the leading axis may pick a row or a slab; see
        ``_is_element`` for when it is taken as an element, plus two kinds of use: ``converted``
        (``float(x[0])`` only works on one element) and the scalar uses ``scalar_use`` finds.
        """
        if self._used_as_an_array(node):
            return False  # x[i].shape, x[i].reshape(...): a row or a slab, not one element
        base = self.kind(node.value)
        if base.tag is Tag.UNKNOWN and self._indexed_like_an_array(node) and not self._indexed_deeper(node):
            return True
        if base.tag is not Tag.ARRAY or base.doubt >= Doubt.PYTHON_DATA:
            return False  # host bookkeeping (offset tables built with NumPy) is no device data
        indices = self.index_kinds(node)
        if not indices or not all(k.is_host_int or self._read_back_index(k) for k in indices):
            return False
        if base.rank is None and (self._indexed_deeper(node) or self._indexed_once_named(node)):
            return False  # output[0, i] beside output[0, i, :50], c = cls[i] then c[1:]: rows
        if self._is_element(base, indices) or converted:
            return True
        if base.rank is not None or base.doubt > Doubt.PARAMETER:
            return False
        if base.doubt == Doubt.PARAMETER:  # a helper's parameter: only numeric arithmetic vouches
            return self.scalar_uses.numeric_use_as_scalar(node)
        return self.used_as_scalar(node) or self._stored_into_element(node)

    def _stored_into_element(self, node: cst.Subscript) -> bool:
        """``b[0] = (y[1] - y[0]) / h[0]``: what is stored into one element of an array (alone
        or through arithmetic) is one element itself, whatever the rank of ``h``."""
        top = arithmetic_top(node, self.parents)
        statement = self.parents.get(top)
        if isinstance(statement, cst.Assign) and statement.value is top and len(statement.targets) == 1:
            target = statement.targets[0].target
        elif isinstance(statement, cst.AugAssign) and statement.value is top:
            target = statement.target
        else:
            return False
        return isinstance(target, cst.Subscript) and self.selects_element(target)

    def _indexed_deeper(self, node: cst.Subscript) -> bool:
        """``output[0, i]`` beside ``output[0, i, :50]``: the name has more axes than this
        access indexes, so it picks a row (``RankEvidence.least_rank``)."""
        return isinstance(node.value, cst.Name) and self.evidence.least_rank(node.value.value, node) > len(node.slice)

    def _indexed_once_named(self, node: cst.Subscript) -> bool:
        """``c = cls[i]`` and then ``c[0]`` or ``c[1:]``: what the name holds has axes of its own,
        so the read picked a row. Only a name bound once in its scope counts."""
        statement = self.parents.get(node)
        if not isinstance(statement, cst.Assign) or statement.value is not node or len(statement.targets) != 1:
            return False
        target = statement.targets[0].target
        scope = self.scopes.get(target) if isinstance(target, cst.Name) else None
        if scope is None or not isinstance(target, cst.Name):
            return False
        bindings = [a for a in scope[target.value] if isinstance(a, Assignment)]
        if len(bindings) != 1:
            return False
        return any(isinstance(self.parents.get(use.node), cst.Subscript) and self.parents[use.node].value is use.node
                   for use in bindings[0].references)

    def _read_back_index(self, index: Kind) -> bool:
        """An element of a device array used as an index where the framework reads it back to
        a host int (torch): the access then picks one element like a host int does."""
        return _is_element_kind(index) and self.namespaces.index_reads_host()

    def _used_as_an_array(self, node: cst.Subscript) -> bool:
        parent = self.parents.get(node)
        return isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in ARRAY_ONLY_USES

    def _indexed_like_an_array(self, node: cst.Subscript) -> bool:
        """``state.errors[idx - 1, -1]`` of a value the inference cannot follow: an index of two
        or more host ints is a NumPy-style element access (lists and tuples reject it, and the
        rules of a checked function hold arrays unless proven otherwise), when one index walks
        the data (a row index of two small counts picks a slab). Pandas' ``.iloc``,
        ``.loc``, ``.at`` and ``.iat`` are not arrays."""
        if len(node.slice) < 2 or self.enclosing_function(node) not in self.checked_functions:
            return False
        value = node.value
        if isinstance(value, cst.Attribute) and value.attr.value in ("iloc", "loc", "at", "iat", "shape", "strides"):
            return False
        if isinstance(value, cst.Name) and value.value in ("self", "cls", "ctx"):
            return False
        indices = self.index_kinds(node)
        if not indices:
            return False
        walks = Origin.STRUCTURAL if len(indices) >= 3 else Origin.DATA  # dZ[m, i, j, c] in a loop nest over a shape
        return all(k.is_host_int for k in indices) and any(k.origin >= walks for k in indices)

    def _is_element(self, base: Kind, indices: list[Kind]) -> bool:
        """Rank known: every axis indexed. Unknown: two or more ints, an int parameter
        (``getindex(x, i: int)``), or an index bounded by the array's own length
        (``for i in range(len(x)): x[i]``, ``dx = zeros_like(x); dx[i]``); an index bounded by
        another array's size may pick a row (``for b in range(B.shape[0]): A[b]``)."""
        if base.rank is not None:
            return len(indices) >= base.rank
        if len(indices) >= 2:
            return True
        index = indices[0]
        if index.origin == Origin.PARAM:
            return True
        return index.origin >= Origin.DATA and index.key is not None and index.key == base.key

    def used_as_scalar(self, node: cst.BaseExpression) -> bool:
        return self.scalar_uses.used_as_scalar(node)

    def is_mask_index(self, node: cst.Subscript) -> bool:
        """``x[mask]`` with a boolean device array; ``x`` need not be known: only an array
        takes an array of booleans as its index (inside a checked function)."""
        base = self.kind(node.value)
        if base.tag is not Tag.ARRAY and not (base.tag is Tag.UNKNOWN and self.enclosing_function(node) in self.checked_functions):
            return False
        indices = self.index_kinds(node)
        masks = [k for k in indices or [] if k.tag is Tag.ARRAY and k.boolean]
        if masks:
            return base.tag is Tag.ARRAY or any(not k.doubt for k in masks)
        if mask_name(node) is not None and indices is not None and len(indices) == 1 and indices[0].tag in (Tag.ARRAY, Tag.UNKNOWN):
            return True
        return compared_to_mask(node, base)

    def is_element_value(self, node: cst.BaseExpression) -> bool:
        """A 0-d device value that is one element of an array (not a reduction result)."""
        kind = self.kind(node)
        return kind.tag is Tag.DEVICE_SCALAR and kind.origin >= ELEMENT and not kind.doubt

    def range_over_data(self, call: cst.Call, least: Origin = Origin.PARAM) -> bool:
        """``range(len(x))``, ``range(x.shape[0])``, ``range(n)`` with an int parameter ``n``
        (``least=Origin.SIZE``: also ``range(H)`` with ``B, C, H, W = x.shape``)."""
        return any(_counts_data(self.kind(a), least) for a in positional(call))

    def may_count_data(self, bound: cst.BaseExpression, least: Origin) -> bool:
        """Some assignment reaching ``bound`` makes it a data size (or an element of the data),
        and none says otherwise (``grid = int(ceil(h / n)) if ratio is None else self.ratio[0]``):
        the other branches are only unknown. Used to call a loop an element loop, never to call
        an index one."""
        kinds = self._reaching_kinds(bound)
        data = [k for k in kinds if (k.is_host_int and k.origin >= least) or _is_element_kind(k)]
        return bool(data) and all(k.tag in (Tag.HOST_INT, Tag.UNKNOWN) or _is_element_kind(k) for k in kinds)

    def may_be_element(self, value: cst.BaseExpression) -> bool:
        """``grid = self.ratio`` on one branch and ``numpy.ceil(height / n)`` on the other: on
        some path the name holds one element of a device array (elsewhere a setting or unknown),
        so testing it waits for the device on that path."""
        if self.is_element_value(value):
            return True
        if not isinstance(value, cst.Name) or self.kind(value).tag is not Tag.UNKNOWN:
            return False
        kinds = self._reaching_kinds(value)
        return any(_is_element_kind(k) for k in kinds) and all(k.tag in (Tag.UNKNOWN, Tag.HOST_INT) or _is_element_kind(k) for k in kinds)

    def _reaching_kinds(self, name: cst.BaseExpression) -> list[Kind]:
        """The kind of every assignment reaching ``name`` (both branches of a conditional
        expression apart); empty for anything but a name with assignments."""
        if not isinstance(name, cst.Name):
            return []
        scope = self.scopes.get(name)
        referents = self._referents(name, scope)
        kinds: list[Kind] = []
        for ref in self.flow.reaching(name, referents) if referents else ():
            value = assigned_value(getattr(ref, "node", None), self.parents)
            if isinstance(value, cst.IfExp):  # one assignment, two branches
                kinds += [self.kind(value.body), self.kind(value.orelse)]
            else:
                kinds.append(self._assignment_kind(ref, name, scope))
        return kinds

    # -- dispatch ------------------------------------------------------------------------
    def _infer(self, node: cst.BaseExpression) -> Kind:
        if isinstance(node, cst.Integer):
            return K.host_int(Origin.LITERAL)
        if isinstance(node, (cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return K.HOST_SCALAR
        handler = _HANDLERS.get(type(node))
        if handler is not None:
            return handler(self, node)
        if isinstance(node, cst.BooleanOperation):
            return K.combine([self.kind(node.left), self.kind(node.right)])
        if isinstance(node, cst.IfExp):
            return K.combine([self.kind(node.body), self.kind(node.orelse)])
        if isinstance(node, (cst.Dict, cst.Set, cst.DictComp, cst.SetComp, cst.ListComp, cst.GeneratorExp)):
            return K.CONTAINER
        if isinstance(node, cst.Lambda):
            return K.FUNCTION
        if isinstance(node, cst.NamedExpr):
            return self.kind(node.value)
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
        kind = K.combine([self._assignment_kind(r, node, scope) for r in referents])
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
        return any(qn.name in self.array_module_names or qn.name.rsplit(".", 1)[-1] in NAMESPACE_ALIASES for qn in names)

    def _assignment_kind(self, ref: BaseAssignment, use: cst.Name, scope: Scope | None) -> Kind:
        if not isinstance(ref, Assignment):
            return K.UNKNOWN  # builtins
        target = ref.node
        if isinstance(target, cst.Param):
            return param_kind(self, target)
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
        return binding_kind(self, name)

    def unpack(self, value: cst.BaseExpression, path: list[int], arity: int = 1) -> Kind:
        """Kind of the part of ``value`` at ``path`` (``a, (b, c) = value``)."""
        return unpack(self, value, path, arity)

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
        if base.tag is Tag.OBJECT and isinstance(node.value, cst.Name) and node.value.value in ("self", "ctx"):
            return self.calls.attribute_kind(node) or K.UNKNOWN
        if attr == "shape" and base.tag is Tag.UNKNOWN:
            return K.Kind(Tag.SHAPE, origin=Origin.DATA)  # self.inputs[0].shape: a shape, whatever holds it
        if attr == "data" and base.tag is Tag.UNKNOWN and isinstance(node.value, cst.Subscript):
            return K.array(doubt=Doubt.PARAMETER)  # self.variables[i].data: a Variable's or Tensor's array
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

    def _subscript(self, node: cst.Subscript) -> Kind:
        base = self.kind(node.value)
        if base.tag is Tag.SHAPE:
            indices = self.index_kinds(node)
            if indices is None:
                return K.SHAPE
            leading = len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) and _is_zero(node.slice[0].slice.value)
            return K.host_int(base.origin if base.origin else Origin.STRUCTURAL, base.key if leading else None)
        if base.tag is Tag.ARRAY_SEQ:
            if is_saved_access(node.value) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
                index = node.slice[0].slice.value
                saved = self.calls.saved_kind(node.value, int(index.value)) if isinstance(index, cst.Integer) else None
                if saved is not None:
                    return saved
            indices = self.index_kinds(node)
            return K.array(base.rank, doubt=base.doubt, key=base.key) if indices else base
        if base.tag is not Tag.ARRAY:
            return K.UNKNOWN
        indices = self.index_kinds(node)
        if indices is None:  # slices, ellipsis, newaxis: a view
            ints = sum(
                1
                for e in node.slice
                if isinstance(e.slice, cst.Index) and self.kind(e.slice.value).tag in (Tag.HOST_INT, Tag.DEVICE_SCALAR)
            )
            newaxes = sum(1 for e in node.slice if isinstance(e.slice, cst.Index) and is_none(e.slice.value))
            has_ellipsis = any(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Ellipsis) for e in node.slice)
            rank = None if base.rank is None or has_ellipsis else base.rank - ints + newaxes
            return K.array(rank, base.boolean, base.doubt)
        # rows and elements of host data (a copy made with .asnumpy(), a table built from Python
        # lists) picked by host ints stay host data; a parameter's doubt is not passed on (its
        # elements are data), nor is a table's when a device value picks the entry
        host = base.doubt if base.doubt >= Doubt.PYTHON_DATA and all(k.is_host_int for k in indices) else Doubt.NONE
        if any(k.tag is Tag.ARRAY for k in indices):
            if any(k.boolean for k in indices):
                return K.array(1, base.boolean, host)
            if len(indices) == 1 and base.rank == 1:  # x[idx]: a gather shaped like idx
                return K.array(indices[0].rank, base.boolean, base.doubt)
            return K.array(None, base.boolean, host)
        if all(k.tag in (Tag.HOST_INT, Tag.DEVICE_SCALAR) for k in indices):
            if base.rank is not None and len(indices) < base.rank:
                return K.array(base.rank - len(indices), base.boolean, host)
            if base.rank is None and not self._is_element(base, indices) and not any(k.tag is Tag.DEVICE_SCALAR for k in indices):
                if not (base.doubt == Doubt.NONE and all(k.is_host_int for k in indices) and self.used_as_scalar(node)):
                    return K.array(None, base.boolean, base.doubt)
            # An element keeps its array's key: a value of an index array (argsort, nonzero) indexes it.
            return K.Kind(Tag.DEVICE_SCALAR, boolean=base.boolean, origin=ELEMENT, key=base.key, doubt=host)
        return K.UNKNOWN

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

    def _offset_helper_kind(self, func: cst.FunctionDef, call: cst.Call, args: list[cst.BaseExpression]) -> Kind | None:
        """``idx(t, u)`` of an index helper (``index_helpers``): what its arguments are."""
        key = ("index-helper", func)
        if key not in self.cache:  # asked at every call of the helper: read its returns once
            self.cache[key] = index_helper(func, self.facts.returns_of.get(func, []))
        helper: IndexHelper | None = self.cache[key]  # type: ignore[assignment]
        if helper is None or len(args) > helper.arity or any(a.keyword is not None or a.star for a in call.args):
            return None
        return offset_kind([self.kind(a) for a in args], helper.flat)

    def parameter_of(self, name: cst.Name) -> cst.Param | None:
        """The parameter ``name`` refers to, when it is never rebound in its function."""
        scope = self.scopes.get(name)
        if scope is None or name.value not in scope:
            return None
        targets = [getattr(a, "node", None) for a in scope[name.value]]
        return targets[0] if len(targets) == 1 and isinstance(targets[0], cst.Param) else None

    def _call(self, node: cst.Call) -> Kind:
        parts = call_name(node.func)
        args = positional(node)
        if parts and len(parts) == 1:
            builtin = builtin_kind(self, parts[0], node, args)
            if builtin is not None:
                return builtin
        if parts and parts[-1] in NAMESPACE_FACTORIES:
            return K.MODULE
        module_func = self.module_call(node)
        if module_func is not None:
            made = array_function(self, module_func, node, args)
            if made.is_device and self.namespaces.host_numpy_call(node):  # np.zeros(n) in a torch module
                return replace(made, doubt=max(made.doubt, Doubt.HOST_COPY))
            if made.tag is Tag.HOST_SCALAR and module_func.rsplit(".", 1)[-1] not in HOST_RESULT and self.namespaces.device_namespace_call(node):
                return K.Kind(Tag.DEVICE_SCALAR)  # torch.sigmoid(threshold): a tensor whatever the annotation says
            return made
        if isinstance(node.func, cst.Attribute):
            attr = node.func.attr.value
            if attr in SEQ_METHODS:
                return K.ARRAY_SEQ
            updated = jax_at_base(node.func.value) if isinstance(node.func.value, cst.Subscript) else None
            if attr in JAX_UPDATES and updated is not None:
                return self.kind(updated)  # x.at[i].set(v): a new x
            receiver = self.kind(node.func.value)
            if attr in NEW_METHODS and receiver.tag in (Tag.UNKNOWN, Tag.ARRAY):
                # x.new_zeros(1), grid.new_full((n, m), -1): torch's constructors on an array's device
                return K.array(shape_rank(self, args[0]) if args and attr != "new_tensor" else None)
            if receiver.is_device:
                return array_method(self, attr, receiver, node, args)
            if receiver.tag is Tag.UNKNOWN and not args and attr in DEVICE_ONLY_METHODS:
                return K.HOST_SCALAR if attr == "asscalar" else K.array(doubt=Doubt.HOST_COPY)
            if receiver.tag is Tag.UNKNOWN and not args and attr in MASK_CASTS:
                return K.array(None, True)  # util.bdiag(I).bool(): only tensors have these casts
        if parts and parts[-1] in HOST_COPY_FUNCTIONS and len(args) == 1 and self.module_call(node) is None:
            return K.array(doubt=Doubt.HOST_COPY)  # self.asnumpy(C), utils.to_numpy(x): a host copy, whoever defines it
        local = self.local_function(node)
        if local is not None:
            offset = self._offset_helper_kind(local, node, args)
            return offset if offset is not None else self.calls.return_kind(local, [], 1)
        if parts and self._runs_an_array_helper(node, ".".join(parts)):
            return K.array()  # reindex.flm_2d_to_1d_fast(flm, L): another module's helper returns one
        if isinstance(node.func, cst.Attribute) and parts and len(parts) >= 3 and parts[-1] in CONSTRUCTORS and parts[-2] in RECEIVERS:
            rank = CONSTRUCTORS[parts[-1]]  # model.ops.alloc2f(n, m): a framework's array constructor
            return K.array(rank if rank is not None else (len(args) if parts[-1].startswith("alloc") and len(args) > 1 else None))
        return K.UNKNOWN


def _is_element_kind(kind: Kind) -> bool:
    """One element of a device array (not a reduction result, not a mask value)."""
    return kind.tag is Tag.DEVICE_SCALAR and kind.origin >= ELEMENT and not kind.doubt and not kind.boolean


def _counts_data(bound: Kind, least: Origin) -> bool:
    """A range bound that counts data: a data-derived host int, or a length read from the
    device (``range(T)`` with ``T = input_lengths[mb]``)."""
    if bound.tag is Tag.DEVICE_SCALAR:
        return not bound.doubt
    return bound.is_host_int and bound.origin >= least


def _is_zero(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Integer) and node.value == "0"


_HANDLERS = {
    cst.Name: Inference._name,
    cst.Attribute: Inference._attribute,
    cst.Subscript: Inference._subscript,
    cst.Call: Inference._call,
    cst.BinaryOperation: binary_kind,
    cst.UnaryOperation: unary_kind,
    cst.Comparison: comparison_kind,
    cst.Tuple: sequence_kind,
    cst.List: sequence_kind,
}
