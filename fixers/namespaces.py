"""Which array module (or array namespace) the code at a node already uses, and under what name.

A fixer writes ``xp.sum(...)`` only with an ``xp`` that the code around it has bound to an
array namespace, so the fixed code runs on the same library as the arrays it touches; when no
such name is in scope the fixers offer nothing rather than guess.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment, Scope

from scalarlint.analysis.array_api import NAMESPACE_FACTORIES
from scalarlint.analysis.frameworks import NUMPY_LIKE_IMPORTS
from scalarlint.analysis.syntax import call_name

from .cst_helpers import binding_value, dotted, scope_chain

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile

# Array modules imported under these dotted names count as an array namespace (the frameworks'
# NumPy-like imports: one list, kept in ``scalarlint.analysis.frameworks``).
MODULE_IMPORTS = frozenset(NUMPY_LIKE_IMPORTS)


def _imports_array_module(node: cst.CSTNode, bound: str) -> bool:
    if isinstance(node, cst.Import):
        for alias in node.names:
            name = dotted(alias.name)
            local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name.split(".")[0]
            if local == bound and (name in MODULE_IMPORTS if alias.asname else name in MODULE_IMPORTS and "." not in name):
                return True
    if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar) and node.module is not None:
        base = dotted(node.module)
        for alias in node.names:
            name = dotted(alias.name)
            local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name
            if local == bound and f"{base}.{name}" in MODULE_IMPORTS:
                return True
    return False


def _is_namespace_binding(analyzer: AnalyzedFile, assignment: Assignment) -> tuple[bool, int]:
    """(binds an array namespace, preference: 0 = ``array_namespace(...)``, 1 = module import)."""
    node = assignment.node
    if isinstance(node, (cst.Import, cst.ImportFrom)):
        return _imports_array_module(node, assignment.name), 1
    if isinstance(node, cst.Name):
        value = binding_value(analyzer, node)
        if isinstance(value, cst.Call):
            parts = call_name(value.func)
            if parts and parts[-1] in NAMESPACE_FACTORIES:
                return True, 0
    return False, 9


def array_namespace_alias(analyzer: AnalyzedFile, node: cst.CSTNode) -> str | None:
    """The name of the array module (or namespace) the code at ``node`` already uses.

    Looked up through the scopes around ``node``: a name bound by ``xp = array_namespace(...)``
    (any ``NAMESPACE_FACTORIES`` call) wins over an imported module (``import numpy as np``);
    inner scopes win over outer ones. The name must mean that and only that at ``node``
    (every assignment of it is such a binding), and a local binding must come before ``node``
    so the fixed code never reads it unbound. None when there is no such name: the fixers then
    offer nothing, rather than guess which library the arrays belong to.
    """
    here = analyzer.positions[node].start.line if node in analyzer.positions else 0
    best: tuple[int, int, str] | None = None
    for depth, scope in enumerate(scope_chain(analyzer, node)):
        for assignment, preference in _namespace_bindings(analyzer, scope):
            name = assignment.name
            if not _only_namespace(analyzer, node, name):
                continue
            if depth == 0 and assignment.node in analyzer.positions and analyzer.positions[assignment.node].start.line >= here:
                continue
            rank = (preference, depth, name)
            if best is None or rank < best:
                best = rank
    return best[2] if best else None


def _namespace_bindings(analyzer: AnalyzedFile, scope: Scope) -> list[tuple[Assignment, int]]:
    """The scope's assignments that bind an array namespace, with their preference (worked out
    once per scope: every finding of a file asks)."""
    cache = analyzer.context.inference.cache
    key = ("namespace-bindings", scope)
    found = cache.get(key)  # type: ignore[call-overload]
    if found is None:
        found = []
        for assignment in scope.assignments:
            if isinstance(assignment, Assignment):
                ok, preference = _is_namespace_binding(analyzer, assignment)
                if ok:
                    found.append((assignment, preference))
        cache[key] = found  # type: ignore[index]
    return found  # type: ignore[no-any-return]


def _only_namespace(analyzer: AnalyzedFile, node: cst.CSTNode, name: str) -> bool:
    scope = analyzer.scopes.get(node)
    if scope is None or name not in scope:
        return False
    found = list(scope[name])
    return bool(found) and all(isinstance(a, Assignment) and _is_namespace_binding(analyzer, a)[0] for a in found)
