"""A module's top-level definitions (*chunks*) and the links through which one's analysis can
depend on another's, for analysing a file a part at a time.

What one function's findings can depend on outside it is what ``module_facts`` reads: the
arguments its callers pass (joined over every call site of the *name*, whichever function of
that name it reaches), what the functions it calls return, what its class stores on ``self``,
plus the module-level code. So two chunks are linked when one names the other's top-level
function or class, or calls a name the other defines at any depth; the module-level code
counts as one more chunk (``None``). A group of chunks closed under links can be analysed
alone in a pruned copy of the file (``analysis.pruning``) and finds what the whole file finds
there: the editor re-checks edits that way (``scalarlint.incremental``) and whole-tree runs
analyse large files that way (``scalarlint.group_analysis``).
"""

from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass

WORD = re.compile(r"\w+")
DEFINED = re.compile(r"^[ \t]*(?:async[ \t]+def|def|class)[ \t]+(\w+)", re.MULTILINE)  # names a text defines
_CALL = re.compile(r"(?:(?<![\w.])|\b(?:self|cls)\s*\.\s*)(\w+)\s*\(")


def _facts(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(names defined at any depth, words, names called bare or on ``self``/``cls``)."""
    return frozenset(DEFINED.findall(text)), frozenset(WORD.findall(text)), frozenset(_CALL.findall(text))

@dataclass(frozen=True)
class Chunk:
    start: int  # first row (its first decorator), 1-based
    end: int  # last row
    name: str
    text: str
    defs: frozenset[str]  # every function and class name defined in it, at any depth
    words: frozenset[str]  # every identifier-like word in it
    calls: frozenset[str]  # ``f(...)``, ``self.f(...)``, ``cls.f(...)`` in it: module_facts counts call sites by name


def first_row(statement: ast.stmt) -> int:
    """The row a statement's code starts on: its first decorator's, else its own."""
    decorators = getattr(statement, "decorator_list", None)
    return decorators[0].lineno if decorators else statement.lineno


def chunks_of(tree: ast.Module, lines: list[str]) -> list[Chunk]:
    out = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = first_row(node)
            end = node.end_lineno or node.lineno
            text = "".join(lines[start - 1 : end])
            # supersets, read off the text (a walk of every chunk costs more than the rest)
            defs, words, calls = _facts(text)
            out.append(Chunk(start, end, node.name, text, defs, words, calls))
    return out


def outside_text(lines: list[str], chunks: list[Chunk]) -> str:
    """The text outside every chunk, one marker line standing for each chunk."""
    starts = {c.start: c for c in chunks}
    out: list[str] = []
    row = 1
    while row <= len(lines):
        chunk = starts.get(row)
        if chunk is not None:
            out.append("\0\n")
            row = chunk.end + 1
        else:
            out.append(lines[row - 1])
            row += 1
    return "".join(out)


def chunk_at(chunks: list[Chunk], row: int) -> int | None:
    """The number of the chunk holding ``row`` (chunks are in row order, disjoint)."""
    number = bisect.bisect_right([c.start for c in chunks], row) - 1
    return number if number >= 0 and row <= chunks[number].end else None


def linked_closure(chunks: list[Chunk], outside: str, start: set[int | None]) -> set[int | None]:
    """``start`` and every chunk linked to it, to a fixed point (``None``: the module-level code)."""
    code = Chunk(0, 0, "", outside, *_facts(outside))  # the module-level code, as one more chunk
    redo = set(start)
    frontier = set(redo)
    while frontier:
        linked: set[int | None] = {
            n for n in range(len(chunks)) if n not in redo and any(_linked(chunks[n], chunks[m]) for m in frontier if m is not None)
        }
        if None not in redo and any(_linked(code, chunks[m]) for m in frontier if m is not None):
            linked.add(None)  # module-level code (a registration, a lambda rule, a call) names a redone chunk
        if None in frontier:
            linked |= {n for n in range(len(chunks)) if n not in redo and _linked(code, chunks[n])}
        redo |= linked
        frontier = linked
    return redo


def components(chunks: list[Chunk], outside: str) -> list[set[int | None]]:
    """The file's chunks (and its module-level code, ``None``) in groups no link crosses."""
    out: list[set[int | None]] = []
    seen: set[int | None] = set()
    for start in [*range(len(chunks)), None]:
        if start not in seen:
            group = linked_closure(chunks, outside, {start})
            seen |= group
            out.append(group)
    return out


def _linked(a: Chunk, b: Chunk) -> bool:
    """One chunk names the other's top-level function or class, or calls (bare or on ``self``)
    a name the other defines at any depth: ``module_facts`` joins the arguments of every call
    site of a name, whichever function of that name it reaches."""
    return bool((a.name and a.name in b.words) or (b.name and b.name in a.words) or a.calls & b.defs or b.calls & a.defs)
