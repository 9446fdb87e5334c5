"""A name a fix needs from a module the project may not import yet (``scalarlint.runtime``).

Shared by the fixers that call into scalarlint's runtime (``allow_scalar``, ``index_add``): reuse
a top-level ``from module import name`` that is already there; otherwise add one where the
import sorter would put it (``import_placement``), and say when adding it would give the project
a dependency it does not declare (``runtime_dependency``): the fix is then display-only.

A module of the fixed file's own top-level package (the helper ``scalarlint vendor`` wrote,
``pkg._allow_scalar``) is imported relatively, ``from .._allow_scalar import allow_scalar``: the
import then holds wherever the package is installed or however it is renamed, and adds no
dependency at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from pathlib import Path

from scalarlint.analysis.project import module_name_for
from scalarlint.diagnostics import Edit

from .cst_helpers import dotted
from .import_placement import insert_edit, merge_edit, spelling
from .runtime_dependency import why_not

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile


def imported_name(
    analyzer: AnalyzedFile, stmt: cst.CSTNode, module_path: str, name: str, configured: bool = False
) -> tuple[str | None, Edit | None, str | None]:
    """(local name, import edit or ``None`` when the module has it, why the import may not be
    added or ``None``); the local name is ``None`` when ``name`` means something else at
    ``stmt``. ``configured``: the user named the source, so adding it is wanted."""
    module_path = import_spelling(analyzer.source.path, module_path)
    imports_scalarlint = False
    for top in analyzer.module.body:
        if isinstance(top, cst.SimpleStatementLine):
            for small in top.body:
                imports_scalarlint |= _imports_scalarlint(small)
                local = _imported_as(small, module_path, name) if isinstance(small, cst.ImportFrom) else None
                if local is not None and _binding_is_import(analyzer, stmt, local):
                    return local, None, None
    scope = analyzer.scopes.get(stmt)
    if scope is not None and name in scope:
        return None, None, None  # the name means something else here
    blocked = why_not(analyzer.source.path, imports_scalarlint, configured)
    edit = merge_edit(analyzer, module_path, name) or insert_edit(analyzer, module_path, name)
    return name, edit, blocked


def import_spelling(file_path: str, module_path: str) -> str:
    """``module_path`` as the file at ``file_path`` should import it: relative (``._helper``,
    ``.._helper``, ``..``) when both are in the same top-level package, else unchanged. The
    file's package comes from the ``__init__.py`` files above it; an in-memory source, a
    script outside any package and a notebook (which has no package to be relative to) keep
    the absolute import."""
    if not file_path.endswith(".py") or module_path.startswith("."):
        return module_path
    _, dotted_package = module_name_for(Path(file_path))
    package = dotted_package.split(".") if dotted_package else []
    target = module_path.split(".")
    if not package or target[0] != package[0]:
        return module_path
    shared = 0
    while shared < min(len(package), len(target)) and package[shared] == target[shared]:
        shared += 1
    return "." * (len(package) - shared + 1) + ".".join(target[shared:])


def _imports_scalarlint(small: cst.BaseSmallStatement) -> bool:
    if isinstance(small, cst.Import):
        return any(dotted(alias.name).split(".")[0] == "scalarlint" for alias in small.names)
    if isinstance(small, cst.ImportFrom) and not small.relative:
        return dotted(small.module).split(".")[0] == "scalarlint"
    return False


def _imported_as(node: cst.ImportFrom, module_path: str, name: str) -> str | None:
    if isinstance(node.names, cst.ImportStar) or spelling(node) != module_path:
        return None
    for alias in node.names:
        if isinstance(alias.name, cst.Name) and alias.name.value == name:
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                return alias.asname.name.value
            return name
    return None


def _binding_is_import(analyzer: AnalyzedFile, stmt: cst.CSTNode, local: str) -> bool:
    scope = analyzer.scopes.get(stmt)
    if scope is None:
        return False
    found = list(scope[local]) if local in scope else []
    return bool(found) and all(isinstance(a, Assignment) and isinstance(a.node, cst.ImportFrom) for a in found)
