"""Cut what an analysis of some targets cannot need from a file, keeping every line in place.

The editor re-analyses only the functions an edit can change (``scalarlint.incremental``).
libcst's parse and scope analysis cost in proportion to the text they get, so those functions
are analysed in a copy of the file where everything they cannot depend on is replaced by blank
lines (a run of them is one string literal; a method gets such a string for a body): every
kept line keeps its row and column, so findings,
fixes and suppressions come out at the same places as in the whole file.

What one function's findings can depend on outside it is what ``module_facts`` reads (the
arguments its callers pass, what the functions it calls return, what its class stores on
``self``), the module-level names it reads (and what those are bound to), and registrations
(``defvjp(fwd, bwd)``). So, starting from the top-level definitions that hold a target, a
top-level unit is kept when

* it is a definition that kept code names (called, passed, subclassed, registered), or one
  that names a kept definition (a caller gives a helper's parameters their kinds);
* it is a module-level statement that binds a name kept code reads, or names a kept
  definition (a call at module level is a call site too); imports and compound statements
  (``if``/``try`` blocks of definitions) are always kept, and so are the docstring, the
  leading imports and the first statement after them (a fix that adds an import places it by
  exactly these); with ``module_code`` every module-level statement is;

to a fixed point. In a kept class without targets a method keeps only its ``def`` line unless
it calls a method of the module on ``self`` (``module_facts`` counts ``self.f(...)`` sites
for every method ``f``). A definition with ``global`` or ``nonlocal`` is always kept (its
assignments reach the module's names). Lambdas are keyed by their order in the file: the
targets come back renamed to the copy's numbering.

``tests/checker/test_incremental.py`` checks that the targets' findings do not change.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TypeVar

from scalarlint.analysis.chunks import DEFINED, WORD, first_row
from scalarlint.analysis.module_index import lambda_key, lambda_ordinals

LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_ALWAYS = (ast.Import, ast.ImportFrom, ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)
T = TypeVar("T")


def split_lines(text: str) -> list[str]:
    """Lines with their endings, split where Python's parser splits them (not on form feeds)."""
    lines = [m.group(0) for m in LINES.finditer(text)]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def pruned(text: str, tree: ast.Module, targets: Mapping[str, T], module_code: bool = True) -> tuple[str, dict[str, T]]:
    """``text`` (whose ``ast`` tree is ``tree``) with what ``targets`` cannot depend on cut (see
    above), and ``targets`` keyed as the cut text numbers its lambdas."""
    return Pruner(text, tree)(targets, module_code)


class Pruner:
    """One file, cut for one set of targets after another (its units are read once)."""

    def __init__(self, text: str, tree: ast.Module) -> None:
        self.text = text
        self.tree = tree
        self.lines = split_lines(text)
        self.units = [_Unit(node, self.lines) for node in tree.body]
        self.any_scope_words = any(u.scope_words for u in self.units)
        self.header = _header_length(tree.body)
        self._lambdas: list[tuple[int, int]] | None = None

    @property
    def lambdas(self) -> list[tuple[int, int]]:
        if self._lambdas is None:
            self._lambdas = sorted((n.lineno, n.col_offset) for n in ast.walk(self.tree) if isinstance(n, ast.Lambda))
        return self._lambdas

    def __call__(self, targets: Mapping[str, T], module_code: bool = True) -> tuple[str, dict[str, T]]:
        units = self.units
        lambdas = self.lambdas if any(key.startswith("<lambda>#") for key in targets) else []
        lambda_rows = {row for ordinal, (row, _) in enumerate(lambdas) if lambda_key(ordinal) in targets}
        holding = [u.holds_target(targets, lambda_rows) for u in units]
        kept = [
            h or number < self.header or isinstance(u.node, _ALWAYS) or (module_code and not u.is_definition)
            for number, (u, h) in enumerate(zip(units, holding))
        ]
        if self.any_scope_words:
            kept = [True] * len(units)
        changed = True
        while changed:
            changed = False
            read: set[str] = set()
            defined: set[str] = set()
            for unit, keep in zip(units, kept):
                if keep:
                    read |= unit.words.keys()
                    defined |= unit.defines
            for number, unit in enumerate(units):
                if not kept[number] and (unit.binds & read or unit.words.keys() & defined):
                    kept[number] = changed = True
        methods = {name for unit, keep in zip(units, kept) if keep for name in unit.methods}
        cuts: list[tuple[int, int, str | None]] = []  # rows, and the indentation of a method's filler (None: whole)
        for unit, keep, holds in zip(units, kept, holding):
            if not keep:
                cuts.append((unit.first, unit.last, None))
            elif isinstance(unit.node, ast.ClassDef) and not holds:
                cuts.extend(_method_bodies(unit.node, self.lines, methods))
        if not cuts:
            return self.text, dict(targets)
        lines = list(self.lines)
        blank: set[int] = set()
        for start, end, indent in _merged(cuts, units, lines):
            for row in range(start, end + 1):
                lines[row - 1] = _filler(row, start, end, indent) + _ending(lines[row - 1])
                blank.add(row)
        return "".join(lines), _renumbered(lambdas, targets, blank)


def _header_length(body: list[ast.stmt]) -> int:
    """How many leading units stay whatever the targets: the docstring, the imports after it
    and the first statement after those (where a fix adds an import, and how many blank lines
    it adds, depends on exactly these)."""
    count = 1 if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str) else 0
    while count < len(body) and isinstance(body[count], (ast.Import, ast.ImportFrom)):
        count += 1
    return count + 1


def _merged(cuts: list[tuple[int, int, str | None]], units: list["_Unit"], lines: list[str]) -> list[tuple[int, int, str | None]]:
    """Whole-unit cuts joined with the blank lines between them (outside every unit, so never
    inside a string or brackets) into as few runs as possible: one filler string each."""
    inside = set()
    for unit in units:
        inside.update(range(unit.first, unit.last + 1))
    whole = {row for start, end, indent in cuts if indent is None for row in range(start, end + 1)}
    runs: list[tuple[int, int, str | None]] = [c for c in cuts if c[2] is not None]
    row = 1
    while row <= len(lines):
        if row not in whole:
            row += 1
            continue
        start = row
        while start > 1 and start - 1 not in inside and not lines[start - 2].strip():
            start -= 1
        end = row
        while end + 1 <= len(lines) and (end + 1 in whole or (end + 1 not in inside and not lines[end].strip())):
            end += 1
        runs.append((start, end, None))
        row = end + 1
    return runs


def _filler(row: int, start: int, end: int, indent: str | None) -> str:
    """What a cut row holds. A cut of several rows becomes one string literal spanning them
    (``\"\"\"`` on its first and last rows): blank lines are cheap for ``ast`` but cost libcst
    a whitespace node each in every metadata pass. A one-row cut is empty (or ``pass``)."""
    if start == end:
        return "" if indent is None else indent + "pass"
    if row == start:
        return (indent or "") + '"""'
    return '"""' if row == end else ""


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


class _Unit:
    """One top-level statement: its rows, the words in it, what it defines and binds."""

    def __init__(self, node: ast.stmt, lines: list[str]) -> None:
        self.node = node
        self.first = first_row(node)
        self.last = node.end_lineno or node.lineno
        self.words = Counter(WORD.findall("".join(lines[self.first - 1 : self.last])))
        self.scope_words = bool(self.words["global"] or self.words["nonlocal"])
        self.is_definition = isinstance(node, _DEFINITIONS)
        self.defines = {node.name} if self.is_definition else set()  # type: ignore[attr-defined]
        self.binds = self.defines | {
            n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))
        } if not self.is_definition else self.defines
        # every ``def`` name in it (a superset of its methods, read off the text: no walk)
        self.methods = set(DEFINED.findall("".join(lines[self.first - 1 : self.last]))) if isinstance(node, ast.ClassDef) else set()
        self.keys = set(_keys(node))

    def holds_target(self, targets: Mapping[str, object], lambda_rows: set[int]) -> bool:
        """A target is defined in it: one of its functions, a function nested in one, or a
        lambda starting on one of its rows."""
        return (
            any(key in targets or any(t.startswith(key + ".") for t in targets) for key in self.keys)
            or any(self.first <= row <= self.last for row in lambda_rows)
        )


def _keys(node: ast.stmt, prefix: tuple[str, ...] = ()) -> Iterable[str]:
    """The first pass's keys of the functions in a top-level definition."""
    if isinstance(node, _FUNCTIONS):
        yield ".".join((*prefix, node.name))
    elif isinstance(node, ast.ClassDef):
        for child in node.body:
            yield from _keys(child, (*prefix, node.name))


def _method_bodies(node: ast.ClassDef, lines: list[str], methods: set[str]) -> Iterable[tuple[int, int, str | None]]:
    """In a kept class without targets: each method's body, unless it calls a kept method on
    ``self`` (a call site ``module_facts`` counts) or its body shares its ``def`` line."""
    for child in node.body:
        if isinstance(child, ast.ClassDef):
            yield from _method_bodies(child, lines, methods)
        if not isinstance(child, _FUNCTIONS):
            continue
        if any(_self_call(sub, methods) for sub in ast.walk(child)):
            continue
        start = first_row(child.body[0])  # a decorated nested definition starts at its decorator
        head = _code_before(lines[start - 1], child.body[0], start)
        if not head.strip():
            yield start, child.end_lineno or start, head


def _code_before(line: str, statement: ast.stmt, row: int) -> str:
    """What ``line`` (row ``row``, where ``statement`` starts) holds before the statement: its
    indentation when the statement starts the line, else the code it shares the line with. A
    decorator starts the line it is on, so on a decorator's row that is the line's whitespace."""
    if row != statement.lineno:
        return line[: len(line) - len(line.lstrip(" \t"))]
    return line.encode("utf-8")[: statement.col_offset].decode("utf-8", "replace")


def _self_call(node: ast.AST, methods: set[str]) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in ("self", "cls")
        and node.func.attr in methods
    )


def _renumbered(lambdas: list[tuple[int, int]], targets: Mapping[str, T], blank: set[int]) -> dict[str, T]:
    """``targets`` with lambda keys (``<lambda>#K``, K in source order) renumbered among the
    lambdas the cut text still has."""
    if not any(key.startswith("<lambda>#") for key in targets):
        return dict(targets)
    before = lambda_ordinals(lambdas)
    after = lambda_ordinals([p for p in lambdas if p[0] not in blank])
    renamed = {lambda_key(before[p]): lambda_key(after[p]) for p in after}
    return {renamed.get(key, key): target for key, target in targets.items() if not key.startswith("<lambda>#") or key in renamed}
