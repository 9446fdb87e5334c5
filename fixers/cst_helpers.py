"""Small questions about a libcst tree that every fixer asks: the nodes around a node, the
names in it, the value of an integer literal, the dotted name of an attribute chain, and the
assignments (libcst scope metadata) that a name can read.

They answer from the analyzer's metadata (parents, scopes) and never build or edit code; the
fixers' edits live in ``edits``, the array-namespace lookup in ``namespaces`` and the facts
about indexes in ``index_facts``, all of which ask these.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import (
    Assignment,
    BuiltinAssignment,
    ClassScope,
    GlobalScope,
    Scope,
)

from scalarlint.analysis.syntax import call_name
from scalarlint.analysis.tree import walk

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile


# -- tree navigation -----------------------------------------------------------------------
def ancestors(analyzer: AnalyzedFile, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    parent = analyzer.parents.get(node)
    while parent is not None:
        yield parent
        parent = analyzer.parents.get(parent)


def enclosing_function(analyzer: AnalyzedFile, node: cst.CSTNode) -> cst.FunctionDef | cst.Lambda | None:
    """The innermost function or lambda around ``node``."""
    return next((a for a in ancestors(analyzer, node) if isinstance(a, (cst.FunctionDef, cst.Lambda))), None)


def within(analyzer: AnalyzedFile, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    """``node`` is ``outer`` or lies inside it."""
    return node is outer or any(parent is outer for parent in ancestors(analyzer, node))


def enclosing_statement(analyzer: AnalyzedFile, node: cst.CSTNode) -> cst.BaseStatement | None:
    for parent in ancestors(analyzer, node):
        if isinstance(parent, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            return parent  # type: ignore[return-value]
    return None


def names_in(node: cst.CSTNode) -> set[str]:
    return {n.value for n in walk(node) if isinstance(n, cst.Name)}


def contains(node: cst.CSTNode, types: tuple[type, ...]) -> bool:
    return any(isinstance(n, types) for n in walk(node))


# -- literals and dotted names ---------------------------------------------------------------
# (``integer_value``, the value of an integer literal, is the analysis's own: ``syntax``)
def dotted(node: cst.BaseExpression | None) -> str:
    """``a.b.c`` for a name or attribute chain, ``""`` for anything else."""
    parts = call_name(node) if node is not None else None
    return ".".join(parts) if parts else ""


# -- scopes and bindings ----------------------------------------------------------------------
def scope_chain(analyzer: AnalyzedFile, node: cst.CSTNode) -> Iterator[Scope]:
    scope = analyzer.scopes.get(node)
    while scope is not None:
        if not isinstance(scope, ClassScope):
            yield scope
        if isinstance(scope, GlobalScope):
            return
        scope = scope.parent


def assignments_of(analyzer: AnalyzedFile, name: cst.Name) -> list[Assignment] | None:
    """The assignments that can reach a use of ``name``; None when something is not plain
    (builtins, imports seen through ``*``)."""
    scope = analyzer.scopes.get(name)
    if scope is None:
        return None
    refs: list = []
    for access in scope.accesses[name.value]:
        if access.node is name:
            refs = list(access.referents)
            break
    else:
        if name.value in scope:
            refs = list(scope[name.value])
    if not refs or not all(isinstance(r, Assignment) for r in refs):
        return None
    return refs  # type: ignore[return-value]


def binding_value(analyzer: AnalyzedFile, target: cst.CSTNode) -> cst.BaseExpression | None:
    """For the ``Name`` of ``name = value``: ``value``; None for any other binding."""
    parent = analyzer.parents.get(target)
    if isinstance(parent, cst.AssignTarget):
        assign = analyzer.parents.get(parent)
        if isinstance(assign, cst.Assign) and len(assign.targets) == 1:
            return assign.value
    if isinstance(parent, cst.AnnAssign) and parent.value is not None and parent.target is target:
        return parent.value
    return None


def is_builtin_at(analyzer: AnalyzedFile, node: cst.CSTNode, name: str) -> bool:
    """Whether ``name`` at ``node`` means Python's builtin (nothing in the file rebinds it)."""
    scope = analyzer.scopes.get(node)
    return scope is not None and name in scope and all(isinstance(a, BuiltinAssignment) for a in scope[name])
