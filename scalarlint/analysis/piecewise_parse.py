"""A large module parsed a few top-level statements at a time, to bound the parser's memory.

libcst's native parser holds about 0.6 MB of working memory per KB of source while it parses
(tokens and its intermediate tree), ten times the tree it returns: numpy's 400 KB
``test_multiarray.py`` took the process up by 250 MB for a 23 MB tree. Two workers each at
such a peak, beside the parent, would pass a run's memory cap, so large files had to wait and
run alone at the end of a run with the other core idle. Parsed in pieces of about
``PIECE_BYTES`` cut between top-level statements, the peak follows the largest piece (+50 MB
for that file) and the parse is no slower.

The pieces make the same tree as one parse (``tests/checker/test_piecewise_parse.py``
compares them with ``deep_equals``). What one parse decides for the whole module is kept:

* a piece is cut only where the lines between two top-level statements are blank or comments
  at column 0: those lines belong to the next statement (its ``leading_lines``), never to the
  footer of the block before it (which takes indented comments);
* every piece after the first is parsed behind a one-line block (``if 1:`` and the module's
  indentation) that is dropped again: its leading lines then stay the statement's instead of
  becoming a module header, and its indentation is measured against the module's own (the
  first indented line of the file, which libcst makes ``default_indent``);
* the header, encoding and newline come from the first piece, the footer and the trailing
  newline from the last.

Anything this cannot vouch for (``\\r`` or form feeds in the text, a piece whose indentation
disagrees, a piece that does not parse) returns None and the caller parses the whole text.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from itertools import accumulate

import libcst as cst

from scalarlint.analysis.chunks import first_row
from scalarlint.analysis.pruning import split_lines

PIECE_BYTES = 24_000  # statements are joined into pieces of about this size
DEFAULT_INDENT = "    "
_COMPOUND = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While,
    ast.With, ast.AsyncWith, ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()),
    *((ast.Match,) if hasattr(ast, "Match") else ()),
)


def parse_in_pieces(
    text: str, tree: ast.Module, parse: Callable[[str], cst.Module], piece_bytes: int = PIECE_BYTES
) -> cst.Module | None:
    """libcst's tree of ``text`` (whose ``ast`` tree is ``tree``) built from pieces, each parsed
    with ``parse``; None when the pieces cannot be trusted to give one parse's tree."""
    if "\r" in text or "\f" in text:
        return None
    lines = split_lines(text)
    pieces = _pieces(lines, tree.body, piece_bytes)
    if len(pieces) < 2:
        return None
    indent = _first_indent(lines, tree.body) or DEFAULT_INDENT
    opener = f"if 1:\n{indent}pass\n"
    try:
        first = parse(pieces[0])
        rest = [parse(opener + piece) for piece in pieces[1:]]
    except cst.ParserSyntaxError:
        return None
    if any(m.default_indent != indent for m in rest) or first.default_indent not in (indent, DEFAULT_INDENT):
        return None
    body = [*first.body]
    for module in rest:
        body.extend(module.body[1:])
    last = rest[-1]
    return first.with_changes(body=body, footer=last.footer, default_indent=indent, has_trailing_newline=last.has_trailing_newline)


def _pieces(lines: list[str], statements: Sequence[ast.stmt], piece_bytes: int) -> list[str]:
    """The text cut, between top-level statements where ``_may_cut``, into pieces of at least
    ``piece_bytes`` (the last may be shorter)."""
    offsets = list(accumulate(map(len, lines), initial=0))
    cuts = [0]
    for before, after in zip(statements, statements[1:]):
        end = before.end_lineno or before.lineno
        if offsets[end] - offsets[cuts[-1]] >= piece_bytes and _may_cut(lines, end, first_row(after)):
            cuts.append(end)
    cuts.append(len(lines))
    return ["".join(lines[a:b]) for a, b in zip(cuts, cuts[1:]) if b > a]


def _may_cut(lines: list[str], end: int, start: int) -> bool:
    """A statement ending on row ``end`` and the next starting on row ``start`` may go to
    different pieces: not on one line (``a = 1; b = 2``), and every line between is empty or a
    comment at column 0 (an indented one belongs to the block before)."""
    if start <= end:
        return False
    return all(line == "\n" or line.startswith("#") for line in lines[end : start - 1])


def _first_indent(lines: list[str], statements: Sequence[ast.stmt]) -> str | None:
    """The whitespace before the file's first indented statement: what libcst's tokenizer
    takes for the module's indentation (its first INDENT). None when nothing is indented."""
    for statement in statements:
        if not isinstance(statement, _COMPOUND):
            continue
        found: tuple[int, str] | None = None
        for node in ast.walk(statement):
            if node is statement or not isinstance(node, ast.stmt):
                continue
            row = first_row(node)  # a decorator line is indented as its definition
            head = lines[row - 1].encode("utf-8")[: node.col_offset].decode("utf-8", "replace")
            if head and not head.strip() and (found is None or row < found[0]):
                found = (row, head)
        if found is not None:
            return found[1]
    return None
