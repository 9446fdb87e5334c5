"""``with allow_scalar():`` around one statement (SL101, SL102, SL105).

What it rewrites
    The smallest simple statement around a single, intended element access is wrapped in the
    runtime's scope, and the import is added once, merged into an existing
    ``from scalarlint.runtime import ...`` or placed where isort and ruff's ``I`` rules would
    put it (``import_placement``). The source is ``allow-scalar-import`` in the configuration:
    a module (default ``scalarlint.runtime``) or the project's own helper
    (``mypkg._compat.allow_scalar``), such as the dependency-free one ``scalarlint vendor``
    writes. A module of the fixed file's own top-level package is imported relatively
    (``from .._allow_scalar import allow_scalar``)::

        y = x[k]                      ->  with allow_scalar():
                                              y = x[k]

    The statement keeps its own text; only its indentation grows. A module that already
    imports ``allow_scalar`` from that path gets no second import.

When it is offered
    For a read, write or conversion that is not inside a loop over data (a scope there would
    bless one sync per element: vectorize instead), sits in a simple statement (a compound
    header such as ``if x[i] > 0:`` would put the whole block under the scope), is not inside
    a lambda or generator expression (they run later, outside the scope), and whose index does
    not come from a search loop (the search fixer handles those). Not when ``allow_scalar``
    already names something else there. (The test of an ``if`` or ``while`` header gets its
    scope from ``allow_scalar_header``, which hoists it into a flag.)

Applicability
    Display-only, and never applied, when the import would add a dependency the project does
    not declare (``runtime_dependency``: no scalarlint in its dependencies, no import of it in
    the module, no ``allow-scalar-import`` setting); the message says how to enable it. With
    a vendored helper configured (``scalarlint vendor --configure``) it applies to any project.
    Otherwise unsafe. On NumPy, CuPy and PyTorch nothing changes: the scope only sets a context variable
    and the access syncs exactly as before. But it is a declaration, not a rewrite: it tells
    strict backends (``StrictArray``, ``disallow_scalar()``) and scalarlint itself that this
    sync is accepted, which changes what they do, and it adds a run-time import of the
    configured module that the project must be able to satisfy. Both deserve a reviewer.

Example
    ``scale = float(x[0])`` becomes ``with allow_scalar():`` / ``scale = float(x[0])``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.tree import walk
from scalarlint.diagnostics import Applicability, Edit, Fix
from scalarlint.vendored.locate import setting_module

from .cst_helpers import ancestors, contains, names_in
from .index_facts import deferred_to_search, index_names
from .runtime_import import imported_name
from .statements import replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

NAME = "allow_scalar"


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    node = finding.node
    if not declarable(analyzer, node):
        return []
    stmt = _statement(analyzer, node)
    if stmt is None or contains(stmt, (cst.Yield, cst.Await)):
        return []
    name, import_edit, blocked = allow_name(analyzer, stmt)
    if name is None:
        return []
    edit = replace_statements(analyzer, stmt, stmt, [scoped(name, stmt.with_changes(leading_lines=()))])
    if edit is None:
        return []
    return declaring_fixes(f"Wrap the statement in `with {name}():` (declares this single access)", edit, import_edit, blocked)


def declarable(analyzer: AnalyzedFile, node: cst.CSTNode, place: cst.CSTNode | None = None) -> bool:
    """Whether an access at ``node`` happens once, so that declaring it blesses one sync: not in
    a loop over data (around ``place``, where that is not ``node`` itself: a ``while`` whose
    own test it is), not indexed by a loop's variable, and not one a search fixer rewrites."""
    if analyzer.context.in_data_loop(place or node) or _indexed_by_a_loop(analyzer, node):
        return False
    return not any(deferred_to_search(analyzer, s) for s in walk(node) if isinstance(s, cst.Subscript))


def scoped(name: str, *statements: cst.BaseStatement) -> cst.With:
    """``with name():`` around ``statements``."""
    return cst.With(items=[cst.WithItem(item=cst.Call(func=cst.Name(name)))], body=cst.IndentedBlock(body=list(statements)))


def declaring_fixes(message: str, edit: Edit, import_edit: Edit | None, blocked: str | None) -> list[Fix]:
    """The fix that adds an ``allow_scalar`` scope: unsafe, or display-only (``blocked`` says
    why) when its import would add an undeclared dependency."""
    edits = (edit,) if import_edit is None else (import_edit, edit)
    if blocked is not None:
        return [Fix(Applicability.DISPLAY_ONLY, f"{message}; {blocked}", edits)]
    return [Fix(Applicability.UNSAFE, message, edits)]


def _indexed_by_a_loop(analyzer: AnalyzedFile, node: cst.CSTNode) -> bool:
    """An access indexed by an enclosing ``for`` loop's variable happens once per trip, whatever
    the loop runs over: declaring it would bless one sync per element."""
    indices = {n.value for s in walk(node) if isinstance(s, cst.Subscript) for n in index_names(s)}
    for loop in analyzer.context.enclosing_loops(node):
        if isinstance(loop, cst.For) and names_in(loop.target) & indices:
            return True
    return False


def _statement(analyzer: AnalyzedFile, node: cst.CSTNode) -> cst.SimpleStatementLine | None:
    for parent in ancestors(analyzer, node):
        if isinstance(parent, (cst.Lambda, cst.GeneratorExp, cst.FunctionDef, cst.ClassDef)):
            return None
        if isinstance(parent, cst.SimpleStatementLine):
            return parent if isinstance(analyzer.parents.get(parent), cst.IndentedBlock) else None
        if isinstance(parent, (cst.BaseCompoundStatement, cst.SimpleStatementSuite)):
            return None
    return None


def import_source(config_value: str) -> tuple[str, str]:
    """(module, name) of ``allow-scalar-import``: a module holding ``allow_scalar``
    (``scalarlint.runtime``) or the dotted path of the project's own helper
    (``mypkg._compat.allow_scalar``)."""
    return setting_module(config_value), NAME


def allow_name(analyzer: AnalyzedFile, stmt: cst.CSTNode) -> tuple[str | None, Edit | None, str | None]:
    """The local name of ``allow_scalar``, the import edit that provides it (if needed), and
    why that import may not be added (``None`` when it may)."""
    module_path, name = import_source(analyzer.config.allow_scalar_import)
    return imported_name(analyzer, stmt, module_path, name, analyzer.config.allow_scalar_import_configured)
