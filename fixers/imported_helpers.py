"""A function another module of the same project defines, read for what it does with a value.

``number_uses`` follows a value into the helpers it is handed to: a function of the same file is
in the fixer's view, but ROI code imports its bound helpers from a sibling module
(``from chainer.functions.pooling.roi_average_align_2d import _get_bounds``). This module finds
that function's source, as Python's import system would below the file's own top-level
package, and offers the function alone, parsed, with parents and scopes but no inference
(``ForeignModule``): what a parameter's uses are is syntax. (Names it takes from its own module
are unknown there, so a helper it calls in turn counts as an unknown function.) A module outside the project (an installed package) is
not read: its helpers count as unknown functions.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import libcst as cst
from libcst.metadata import ImportAssignment

from scalarlint.analysis import kinds as K
from scalarlint.analysis.ast_names import resolve_relative
from scalarlint.analysis.fast_walk import child_nodes, resolve_scopes
from scalarlint.analysis.project import module_name_for
from scalarlint.analysis.syntax import call_name
from scalarlint.vendored.locate import module_file

if TYPE_CHECKING:
    from collections.abc import Mapping

    from libcst.metadata import Scope

    from scalarlint.analysis.kinds import Kind

ARRAY_MODULES = frozenset({"numpy", "np", "math", "cupy", "cp", "xp", "jnp", "torch"})
MAX_FILE_BYTES = 1_000_000


class _SyntaxOnly:
    """The inference's two questions, answered from syntax alone: no value is known, and a call
    of ``numpy.f``/``math.f``/``xp.f`` is an array module's function."""

    def kind(self, node: cst.BaseExpression) -> Kind:
        return K.UNKNOWN

    def module_call(self, call: cst.Call) -> str | None:
        parts = call_name(call.func)
        return ".".join(parts) if parts and len(parts) > 1 and parts[0] in ARRAY_MODULES else None


class _Context:
    def __init__(self) -> None:
        self.inference = _SyntaxOnly()


class ForeignModule:
    """Another module of the project, as much of ``AnalyzedFile`` as ``number_uses`` reads."""

    def __init__(self, module: cst.Module, parents: Mapping[cst.CSTNode, cst.CSTNode], scopes: Mapping[cst.CSTNode, Scope | None]) -> None:
        self.module = module
        self.parents = parents
        self.scopes = scopes
        self.context = _Context()

    def function(self, name: str) -> cst.FunctionDef | None:
        return next((s for s in self.module.body if isinstance(s, cst.FunctionDef) and s.name.value == name), None)


def imported_function(analyzer: Any, name: cst.Name) -> tuple[ForeignModule, cst.FunctionDef] | None:
    """The module and ``def`` that ``name`` (a call's function) was imported from, when it is a
    plain ``from pkg.mod import f`` (or a relative one) of a module file of the same project."""
    scope = analyzer.scopes.get(name)
    if scope is None:
        return None
    bindings = [a for a in scope[name.value]] if name.value in scope else []
    if len(bindings) != 1 or not isinstance(bindings[0], ImportAssignment):
        return None
    statement = bindings[0].node
    if not isinstance(statement, cst.ImportFrom) or statement.module is None and not statement.relative:
        return None
    original = _original_name(statement, name.value)
    path = _module_path(analyzer.source.path, statement)
    if original is None or path is None:
        return None
    foreign = _read(str(path), path.stat().st_mtime_ns, original)
    function = foreign.function(original) if foreign is not None else None
    return (foreign, function) if foreign is not None and function is not None else None


def _original_name(statement: cst.ImportFrom, local: str) -> str | None:
    if isinstance(statement.names, cst.ImportStar):
        return None
    for alias in statement.names:
        bound = alias.asname.name if alias.asname is not None else alias.name
        if isinstance(bound, cst.Name) and bound.value == local and isinstance(alias.name, cst.Name):
            return alias.name.value
    return None


def _module_path(importer: str, statement: cst.ImportFrom) -> Path | None:
    """The file of the module ``statement`` imports from, below the importer's own top-level
    package: ``None`` for any other module."""
    here = Path(importer)
    if not here.is_file():
        return None
    module, package = module_name_for(here)
    if not package:
        return None
    named = ".".join(call_name(statement.module) or []) if statement.module is not None else None
    target = resolve_relative(package, named, len(statement.relative))
    if not target or target.split(".")[0] != package.split(".")[0]:
        return None
    return module_file(target, here.parents[len(module.split(".")) - 1])


@functools.lru_cache(maxsize=64)
def _read(path: str, mtime_ns: int, function: str) -> ForeignModule | None:
    """The top-level ``def function`` of the module at ``path``, alone in a module of its own,
    parsed once per version of the file (``mtime_ns`` is part of the key). Python's own parser
    finds its lines; only those go through libcst, whose parse and scope analysis of a whole
    module would cost more than the rest of the fix."""
    try:
        raw = Path(path).read_bytes()
        if len(raw) > MAX_FILE_BYTES:
            return None
        text = raw.decode("utf-8")
        found = next(
            (n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef) and n.name == function), None
        )
        if found is None or found.end_lineno is None:
            return None
        first = min([found.lineno, *(d.lineno for d in found.decorator_list)])
        lines = text.splitlines(keepends=True)[first - 1 : found.end_lineno]
        module = cst.parse_module("".join(lines))
        scopes = resolve_scopes(module)
    except Exception:  # unreadable, not Python, too new a syntax: the helper stays unknown
        return None
    return ForeignModule(module, _parents(module), scopes)


def _parents(module: cst.Module) -> dict[cst.CSTNode, cst.CSTNode]:
    """Child -> parent over the whole helper, trivia included (``ParentNodeProvider``'s
    answer, read off the fields: no rebuilt nodes; not ``tree.parent_map``, whose memo holds
    the tree being analysed)."""
    parents: dict[cst.CSTNode, cst.CSTNode] = {}
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        for child in child_nodes(node):
            parents[child] = node
            stack.append(child)
    return parents
