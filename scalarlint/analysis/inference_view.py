"""What the inference's rule modules may ask of it: ``InferenceView``.

``Inference.kind`` delegates by node type to small modules (``array_api``, ``bindings``,
``element_access``, ``expression_kinds``, ``local_calls``, ``module_facts``, ``operators``,
``parameters``, ``python_builtins``), and those ask the inference back (the kind of an operand,
the facts of the module). They name it through this protocol rather than through
``scalarlint.analysis.inference``, so that the inference imports them and none of them imports
the inference, not even for its annotations: the modules form no circle. This module imports
none of them either; the facts about calls and the module are described here by what the rule
modules use of them. ``Inference`` satisfies the protocol (a test keeps it so).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

import libcst as cst

if TYPE_CHECKING:
    from libcst.metadata import Scope

    from scalarlint.analysis.evidence import RankEvidence
    from scalarlint.analysis.kinds import Kind, Origin
    from scalarlint.analysis.module_namespaces import ModuleNamespaces
    from scalarlint.analysis.scalar_use import ScalarUses
    from scalarlint.config import Config


class ModuleFactsView(Protocol):
    """What the module's one-walk facts answer (``module_facts.ModuleFacts``)."""

    returns_of: Mapping[cst.CSTNode, list[cst.Return]]
    forward_of: Mapping[str, str]  # bwd name -> fwd name, from ``f.defvjp(fwd, bwd)``

    def uses_namespace(self, function: cst.CSTNode) -> bool: ...

    def enclosing_class(self, node: cst.CSTNode) -> cst.ClassDef | None: ...


class CallFactsView(Protocol):
    """What the facts about calls and saved values answer (``module_facts.CallFacts``)."""

    def argument_kind(self, func: cst.FunctionDef, params: cst.Parameters, param: cst.Param) -> Kind | None: ...

    def saved_kind(self, access: cst.BaseExpression, position: int) -> Kind | None: ...

    def forward_returns(self, bwd: cst.FunctionDef) -> list[tuple[cst.FunctionDef, cst.Return]]: ...

    def residual_kind(self, residuals: cst.Name, position: int) -> Kind | None: ...

    def return_kind(self, func: cst.FunctionDef, path: list[int], arity: int) -> Kind: ...

    def unpack_attribute(self, node: cst.Attribute, path: list[int], arity: int) -> Kind | None: ...

    def attribute_kind(self, node: cst.Attribute) -> Kind | None: ...


class InferenceView(Protocol):
    """The inference as its rule modules see it: the file's settings and metadata, what is
    checked, per-node caches, and the questions they ask back."""

    config: Config
    scopes: Mapping[cst.CSTNode, Scope]
    parents: Mapping[cst.CSTNode, cst.CSTNode]
    checked_functions: set[cst.CSTNode]
    rule_functions: set[cst.CSTNode]
    targets: Mapping[cst.CSTNode, object]
    array_module_names: frozenset[str]
    namespaces: ModuleNamespaces
    evidence: RankEvidence
    scalar_uses: ScalarUses
    cache: dict[tuple[str, cst.CSTNode], object]

    @property
    def facts(self) -> ModuleFactsView: ...

    @property
    def calls(self) -> CallFactsView: ...

    def kind(self, node: cst.BaseExpression) -> Kind: ...

    def enclosing_function(self, node: cst.CSTNode) -> cst.FunctionDef | cst.Lambda | None: ...

    def returns(self, function: cst.CSTNode) -> list[cst.Return]: ...

    def runs_an_array_helper(self, call: cst.Call, dotted: str) -> bool: ...

    def returned_parts(self, call: cst.Call) -> tuple[str, ...]: ...

    def module_call(self, call: cst.Call) -> str | None: ...

    def index_kinds(self, node: cst.Subscript) -> list[Kind] | None: ...

    def used_as_scalar(self, node: cst.BaseExpression) -> bool: ...

    def range_over_data(self, call: cst.Call, least: Origin = ...) -> bool: ...

    def reaching_values(self, name: cst.Name) -> list[cst.BaseExpression | None]: ...

    def reaching_kinds(self, name: cst.BaseExpression) -> list[Kind]: ...

    def unpack(self, value: cst.BaseExpression, path: list[int], arity: int = 1) -> Kind: ...

    def local_function(self, call: cst.Call) -> cst.FunctionDef | None: ...

    def definition_of(self, name: cst.Name) -> cst.CSTNode | None: ...

    def parameter_of(self, name: cst.Name) -> cst.Param | None: ...
