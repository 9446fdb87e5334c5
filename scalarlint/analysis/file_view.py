"""What a fixer may read of an analysed file: one narrow, public view.

The fixers sit above the analysis and see a file only through ``AnalyzedFile``: the source and
its settings, the libcst module with its metadata (parents, scopes, positions), and a few
questions the checks already answered (which loops run over data, what kind a value is). The
analysis's ``FileAnalyzer`` is one such file, but a fixer never names it, so the analysis can
change how it works out these answers without touching a fixer. ``tests/fixers`` checks that
every fixer keeps to this view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

import libcst as cst

if TYPE_CHECKING:
    from libcst.metadata import BaseAssignment, CodeRange, Scope

    from scalarlint.analysis.kinds import Kind, Origin
    from scalarlint.analysis.sources import SourceFile
    from scalarlint.config import Config


class ValueKinds(Protocol):
    """What the inference says about values: their kind, whether a subscript picks one
    element or is a mask, what a call is, which bindings of a name reach a use and whether a
    range runs over data; ``cache`` keeps a
    fixer's per-node answers for the file's lifetime (keys start with the fixer's own tag)."""

    cache: dict[tuple[str, cst.CSTNode], object]

    def kind(self, node: cst.BaseExpression) -> Kind: ...

    def selects_element(self, node: cst.Subscript, converted: bool = False) -> bool: ...

    def is_mask_index(self, node: cst.Subscript) -> bool: ...

    def module_call(self, call: cst.Call) -> str | None: ...

    def reaching_assignments(self, name: cst.Name) -> Sequence[BaseAssignment]: ...

    def range_over_data(self, call: cst.Call, least: Origin = ...) -> bool: ...


class LoopFacts(Protocol):
    """What the checks worked out about loops and writes: the loops around a node (innermost
    first), which of them run over data, and whether a subscript is written."""

    inference: ValueKinds

    def enclosing_loops(self, node: cst.CSTNode) -> list[cst.CSTNode]: ...

    def is_data_loop(self, loop: cst.CSTNode) -> bool: ...

    def in_data_loop(self, node: cst.CSTNode) -> bool: ...

    def is_store_target(self, node: cst.Subscript) -> bool: ...


class AnalyzedFile(Protocol):
    """One analysed file as the fixers see it."""

    source: SourceFile
    config: Config
    module: cst.Module
    parents: Mapping[cst.CSTNode, cst.CSTNode]
    scopes: Mapping[cst.CSTNode, Scope]

    @property
    def positions(self) -> Mapping[cst.CSTNode, CodeRange]: ...

    @property
    def context(self) -> LoopFacts: ...

