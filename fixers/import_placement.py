"""Where an added ``from M import name`` goes: where isort and ruff's ``I`` rules would put it.

A fix that adds an import must not leave work for the project's import sorter. With ruff's
and isort's defaults, the module's leading import block is split into sections (``__future__``,
standard library, third party, first party, relative), one blank line between sections; in a
section, ``import x`` lines come before ``from x import y`` lines, each sorted by module name
without regard to case. So:

* an existing top-level ``from M import a, b`` on one line gets the name merged in (names in
  ruff's order: constants, classes, then the rest);
* otherwise the new line goes into its section at its sorted place, or starts the section at
  its place between the others (with the blank lines that separate sections);
* a module without imports gets it after the docstring and ``__future__`` imports, followed by
  the blank lines ruff wants before the code (two before a ``def`` or ``class``, else one);
* a relative module (``.._allow_scalar``, spelled with its leading dots) goes into the last
  section, where ruff's default ``relative-imports-order`` puts parents first
  (``from .. import`` before ``from . import``).

Only the leading block of top-level imports is considered: never ``if TYPE_CHECKING:`` bodies,
``try`` blocks or imports after code. First party means a package or module of that name in the
configured root (or its ``src`` folder), as ruff's default ``src = ["."]`` decides.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.diagnostics import Edit, Location

from . import statements
from .cst_helpers import dotted

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile

FUTURE, STDLIB, THIRD_PARTY, FIRST_PARTY, LOCAL = range(5)
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | {"__future__"}


@dataclass(frozen=True)
class ImportLine:
    statement: cst.SimpleStatementLine
    section: int
    key: tuple[int, int, str]  # (0 for ``import x``, 1 for ``from x import``; -dots; module, lower case)
    first_row: int
    last_row: int


def section_of(module: str, relative: bool, root: Path) -> int:
    top = module.split(".")[0]
    if relative:
        return LOCAL
    if top == "__future__":
        return FUTURE
    if top in _STDLIB:
        return STDLIB
    for base in (root, root / "src"):
        if (base / top).is_dir() or (base / f"{top}.py").is_file():
            return FIRST_PARTY
    return THIRD_PARTY


def name_order(name: str) -> tuple[int, str]:
    """ruff's ``order-by-type``: CONSTANTS, then Classes, then everything else."""
    bare = name.split(" as ")[0]
    if bare.isupper() and len(bare) > 1:
        group = 0
    elif bare[:1].isupper():
        group = 1
    else:
        group = 2
    return group, bare.lower()


def _leading_imports(analyzer: AnalyzedFile) -> tuple[list[ImportLine], int]:
    """The leading top-level import lines (after the docstring), and the index of the first
    statement after them."""
    root = Path(analyzer.config.root)
    lines: list[ImportLine] = []
    body = analyzer.module.body
    index = 0
    if body and _is_docstring(body[0]):
        index = 1
    while index < len(body):
        stmt = body[index]
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
            break
        small = stmt.body[0]
        if isinstance(small, cst.Import):
            module = dotted(small.names[0].name)
            key, relative = (0, 0, module.lower()), False
        elif isinstance(small, cst.ImportFrom):
            module = spelling(small)
            key, relative = sort_key(module), bool(small.relative)
        else:
            break
        span = analyzer.positions[stmt]
        lines.append(ImportLine(stmt, section_of(module, relative, root), key, span.start.line, span.end.line))
        index += 1
    return lines, index


def spelling(node: cst.ImportFrom) -> str:
    """The module of ``from M import ...`` as written: ``pkg.mod``, ``.mod``, ``..``."""
    return "." * len(node.relative) + dotted(node.module)


def sort_key(module: str) -> tuple[int, int, str]:
    """Where ``from module import ...`` sorts in its section: relative modules by distance,
    furthest first, then by name without regard to case."""
    name = module.lstrip(".")
    return 1, -(len(module) - len(name)), name.lower()


def _is_docstring(stmt: cst.BaseStatement) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def merge_edit(analyzer: AnalyzedFile, module_path: str, name: str) -> Edit | None:
    """Add ``name`` to an existing one-line ``from module_path import ...``, if there is one
    (``module_path`` may be relative: ``._allow_scalar``)."""
    lines, _ = _leading_imports(analyzer)
    for line in lines:
        small = line.statement.body[0]
        if not (isinstance(small, cst.ImportFrom) and spelling(small) == module_path):
            continue
        if isinstance(small.names, cst.ImportStar) or small.lpar is not None or line.first_row != line.last_row:
            continue
        names = [analyzer.module.code_for_node(alias.with_changes(comma=cst.MaybeSentinel.DEFAULT)).strip() for alias in small.names]
        names = sorted({*names, name}, key=name_order)
        start = analyzer.positions[small]
        return Edit(
            f"from {module_path} import {', '.join(names)}",
            Location(start.start.line, start.start.column + 1),
            Location(start.end.line, start.end.column + 1),
        )
    return None


def insert_edit(analyzer: AnalyzedFile, module_path: str, name: str) -> Edit:
    """A new ``from module_path import name`` line where the import sorter would put it
    (``module_path`` may be relative: ``._allow_scalar``)."""
    newline = statements.newline(analyzer)
    text = f"from {module_path} import {name}"
    lines, after = _leading_imports(analyzer)
    section = section_of(module_path, module_path.startswith("."), Path(analyzer.config.root))
    key = sort_key(module_path)
    here = [line for line in lines if line.section == section]
    if here:
        later = [line for line in here if line.key > key]
        if later:
            return _line_at(later[0].first_row, text + newline)
        return _line_at(here[-1].last_row + 1, text + newline)
    next_sections = [line for line in lines if line.section > section]
    if next_sections:  # a new section before the next one: a blank line after it
        return _line_at(next_sections[0].first_row, text + newline + newline)
    if lines:  # a new last section: a blank line before it
        return _line_at(lines[-1].last_row + 1, newline + text + newline)
    return _first_import(analyzer, text, after)


def _first_import(analyzer: AnalyzedFile, text: str, after: int) -> Edit:
    """The module's first import: after the docstring, with the blank lines ruff wants."""
    newline = statements.newline(analyzer)
    body = analyzer.module.body
    following = body[after] if after < len(body) else None
    wanted = 2 if isinstance(following, (cst.FunctionDef, cst.ClassDef)) else 1
    if after > 0:  # below the docstring: the following statement's blank lines come after us
        row = analyzer.positions[body[after - 1]].end.line + 1
        existing = _blank_lines_before(following) if following is not None else wanted
        return _line_at(row, text + newline + newline * max(0, wanted - existing))
    if following is None:
        return _line_at(1, text + newline)
    row = analyzer.positions[following].start.line
    return _line_at(row, text + newline + newline * wanted)


def _blank_lines_before(stmt: cst.BaseStatement) -> int:
    count = 0
    for line in getattr(stmt, "leading_lines", ()):
        count = 0 if line.comment is not None else count + 1
    return count


def _line_at(row: int, content: str) -> Edit:
    return Edit(content, Location(row, 1), Location(row, 1))
