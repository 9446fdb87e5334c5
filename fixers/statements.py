"""Statement edits for the fixers: replace whole statements, at their indentation, keeping
their comments.

libcst prints the indentation of a nested block only as part of its parent, so statements
are rendered through a throw-away block of the right indentation. A replacement spans from
the first statement's first character to the end of the last one's line; comments above the
first stay in place, and comments inside the replaced statements move above the new ones
unless the new statements carry them already (a wrapped original statement). A statement that
only has names renamed is edited in its own text instead (``renamed_statement``): every other
character stays as written, and nothing is rendered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.positions import row_starts
from scalarlint.analysis.tree import walk_all
from scalarlint.diagnostics import Edit, Location

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile


def block_siblings(analyzer: AnalyzedFile, stmt: cst.CSTNode) -> Sequence[cst.CSTNode] | None:
    """The statements of the block ``stmt`` is in (a function body, the module)."""
    parent = analyzer.parents.get(stmt)
    if isinstance(parent, (cst.IndentedBlock, cst.Module)):
        return parent.body
    return None


def line_text(analyzer: AnalyzedFile, row: int) -> str:
    lines = analyzer.source.text.splitlines(keepends=True)
    return lines[row - 1] if 0 < row <= len(lines) else ""


def indentation(analyzer: AnalyzedFile, stmt: cst.CSTNode) -> str | None:
    """The whitespace before ``stmt`` on its first line, or None if code precedes it."""
    rng = analyzer.positions[stmt]
    prefix = line_text(analyzer, rng.start.line)[: rng.start.column]
    return prefix if prefix.strip() == "" else None


def newline(analyzer: AnalyzedFile) -> str:
    return analyzer.source.newline


def render_statements(analyzer: AnalyzedFile, statements: Sequence[cst.BaseStatement], indent: str) -> str:
    """Text of ``statements`` as they would appear in a block indented by ``indent``.

    The first statement's indentation is left out (the edit starts after it); the text ends
    with the last statement's newline. Rendering happens inside a throw-away ``if`` whose
    block has exactly ``indent``, so nested blocks, comments and multi-line strings come out
    as libcst prints them in place.
    """
    holder = cst.Module(
        body=[cst.If(test=cst.Name("_"), body=cst.IndentedBlock(body=list(statements), indent=indent or None))],
        default_indent=analyzer.module.default_indent,
        default_newline=newline(analyzer),
    )
    code = holder.code
    head = "if _:" + newline(analyzer)
    assert code.startswith(head + indent)
    return code[len(head) + len(indent) :]


def replace_statements(
    analyzer: AnalyzedFile,
    first: cst.BaseStatement,
    last: cst.BaseStatement,
    new: Sequence[cst.BaseStatement],
    inner_comments: bool = True,
) -> Edit | None:
    """Replace the statements from ``first`` to ``last`` (siblings in one block, ``last``
    ending on its own line) with ``new``. Comments above ``first`` stay where they are; the
    comments inside the replaced statements are kept as lines above the new ones, unless
    ``inner_comments`` is false (they described code that is gone: a vectorized loop's
    ``# one sync per element`` would be a false statement above its replacement)."""
    indent = indentation(analyzer, first)
    if indent is None or indentation(analyzer, last) is None:
        return None
    carried = Counter(n.value for statement in new for n in walk_all(statement) if isinstance(n, cst.Comment))
    kept = []
    for comment in replaced_comments(analyzer, first, last) if inner_comments else ():
        if carried[comment]:  # the new statements already carry it (a wrapped original statement)
            carried[comment] -= 1
            continue
        kept.append(cst.EmptyLine(indent=True, comment=cst.Comment(comment)))
    if kept and new:
        new = [new[0].with_changes(leading_lines=[*kept, *new[0].leading_lines]), *new[1:]]
    text = render_statements(analyzer, new, indent)
    if kept:  # the first line is the edit's start, after the indentation: keep that order
        text = text.lstrip(" \t")
    start = Location(analyzer.positions[first].start.line, analyzer.positions[first].start.column + 1)
    end_row = analyzer.positions[last].end.line + closing_rows(last)
    end = Location(end_row + 1, 1)
    source = analyzer.source.text
    if end_row >= len(source.splitlines()) and not source.endswith(("\n", "\r")):
        text = text.rstrip("\r\n")  # the file had no final newline: do not add one
    return Edit(text, start, end)


def closing_rows(stmt: cst.CSTNode) -> int:
    """The rows after a statement's position that are still its own: the blank and comment
    lines indented under its last block (``# }}`` closing a loop), and under the blocks nested
    at that block's end. libcst's position of a compound statement ends with its last
    statement's code, so an edit up to that row alone would leave these lines behind, below
    a replacement that carries them too."""
    rows = 0
    block = _last_block(stmt)
    while block is not None:
        rows += len(block.footer)
        block = _last_block(block.body[-1]) if block.body else None
    return rows


def _last_block(stmt: cst.CSTNode) -> cst.IndentedBlock | None:
    """The indented block a compound statement's code ends with (its ``else``, last handler or
    ``finally`` where it has one); None for a simple statement or a one-line body."""
    if isinstance(stmt, cst.If) and stmt.orelse is not None:
        return _last_block(stmt.orelse)
    if isinstance(stmt, (cst.For, cst.While)) and stmt.orelse is not None:
        body = stmt.orelse.body
    elif isinstance(stmt, (cst.Try, cst.TryStar)):
        last = stmt.finalbody or stmt.orelse or (stmt.handlers[-1] if stmt.handlers else None)
        body = last.body if last is not None else stmt.body
    elif isinstance(stmt, cst.Match):
        body = stmt.cases[-1].body
    else:
        body = getattr(stmt, "body", None)
    return body if isinstance(body, cst.IndentedBlock) else None


def renamed_statement(analyzer: AnalyzedFile, stmt: cst.BaseStatement, renames: Sequence[tuple[cst.Name, str]], before: Sequence[str]) -> Edit | None:
    """``stmt`` with each of ``renames``' names spelled as given, after the statements
    ``before`` (their code, one line each), at the statement's indentation: an edit of the
    source text itself, so the statement keeps its every character (comments, the comment
    lines that close its blocks, line breaks) but the renamed names. It replaces the rows
    from the statement's first character to the end of its last row, as
    ``replace_statements`` does; no libcst transform and rendering of the statement (a long
    loop cost milliseconds each way)."""
    indent = indentation(analyzer, stmt)
    if indent is None:
        return None
    span = analyzer.positions[stmt]
    text = analyzer.source.text
    starts = _row_starts(analyzer)
    start = starts[span.start.line - 1] + span.start.column
    end = starts[span.end.line] if span.end.line < len(starts) else len(text)
    pieces: list[str] = []
    done = start
    for name, spelled in sorted(renames, key=lambda pair: _offset(analyzer, pair[0])):
        at = _offset(analyzer, name)
        pieces += [text[done:at], spelled]
        done = at + len(name.value)
    pieces.append(text[done:end])
    lead = "".join(f"{line}{newline(analyzer)}{indent}" for line in before)
    return Edit(lead + "".join(pieces), Location(span.start.line, span.start.column + 1), Location(span.end.line + 1, 1))


def _offset(analyzer: AnalyzedFile, node: cst.CSTNode) -> int:
    start = analyzer.positions[node].start
    return _row_starts(analyzer)[start.line - 1] + start.column


def _row_starts(analyzer: AnalyzedFile) -> list[int]:
    """``positions.row_starts`` of the source, worked out once per file."""
    cache = analyzer.context.inference.cache
    found = cache.get("row-starts")
    if found is None:
        found = cache["row-starts"] = row_starts(analyzer.source.text)
    return found  # type: ignore[no-any-return]


def replaced_comments(analyzer: AnalyzedFile, first: cst.BaseStatement, last: cst.BaseStatement) -> list[str]:
    """The comments inside the statements from ``first`` to ``last``, in source order (the
    ones above ``first`` are outside the replaced text)."""
    siblings = block_siblings(analyzer, first) or [first]
    start = next((i for i, s in enumerate(siblings) if s is first), 0)
    stop = next((i for i, s in enumerate(siblings) if s is last), start)
    above = {id(line.comment) for line in getattr(first, "leading_lines", ()) if line.comment is not None}
    comments = [
        node
        for statement in siblings[start : stop + 1]
        for node in walk_all(statement)
        if isinstance(node, cst.Comment) and id(node) not in above
    ]
    comments.sort(key=lambda c: (analyzer.positions[c].start.line, analyzer.positions[c].start.column))
    return [c.value for c in comments]


def attached_comment_rows(statement: cst.BaseStatement) -> int:
    """How many comment lines sit directly above ``statement`` (no blank line between)."""
    rows = 0
    for line in reversed(getattr(statement, "leading_lines", ())):
        if line.comment is None:
            break
        rows += 1
    return rows
