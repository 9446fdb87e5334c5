"""``scalarlint check --add-noqa``: start a code base from zero by marking every finding where
it stands, as ruff's ``--add-noqa`` does, so that CI can fail on new findings from day one.

Each finding gets ``# noqa: SLxxx`` on a row that ``suppression.is_suppressed`` reads (the first
or the last row of the finding's node), so the next run no longer reports it: the first row (the
JSON report's ``noqa_row``), else the last one when the first cannot end with a comment. A row can
when its line ends outside any string and without a backslash continuation: a comment there
would become part of a multi-line string or break the statement. A finding with neither row is
left alone and named on stderr, for a person to mark by hand.

An existing ``# noqa: ...`` on the row is extended (its codes sorted, none twice); any other
comment is kept and followed by the directive. Nothing else changes, byte for byte: line endings,
the encoding (cookie or BOM), trailing blanks on other lines; the edited line loses only its own
trailing blanks before the two spaces that precede a new comment. In a notebook the directive
goes into the cell's source line (``notebooks.Notebook.render`` rewrites only the changed cells).
Files are written like ``--fix`` writes them (``fixers.write_back.write_atomic``).
"""

from __future__ import annotations

import io
import tokenize
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click

from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, FileError
from scalarlint.error_codes import ERROR_CODES
from scalarlint.fix_counts import plural
from scalarlint.suppression import NOQA, noqa_codes

if TYPE_CHECKING:
    from scalarlint.analysis.sources import SourceFile
    from scalarlint.cache import Cache

_LAYOUT = (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER, tokenize.COMMENT)
# Python 3.12 splits an f-string into pieces; its replacement fields may span rows inside the string
_FSTRING_START, _FSTRING_END = getattr(tokenize, "FSTRING_START", -1), getattr(tokenize, "FSTRING_END", -1)


class CommentRows:
    """Which rows of a text can end with a comment, and the comment each already has.

    Rows are counted as ``suppression.suppressions`` counts them (``\\n`` ends a line), so a
    directive written on row ``r`` is the one read back for row ``r``."""

    def __init__(self, text: str) -> None:
        """Raises ``tokenize.TokenError`` (or ``SyntaxError``) for a text Python cannot tokenize."""
        self.lines = io.StringIO(text).readlines()
        self.comments: dict[int, tokenize.TokenInfo] = {}
        self.in_string: set[int] = set()
        opened: list[int] = []
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                self.comments[tok.start[0]] = tok
            elif tok.type == _FSTRING_START:
                opened.append(tok.start[0])
            elif tok.type == _FSTRING_END and opened:
                self.in_string.update(range(opened.pop(), tok.end[0]))
            elif tok.type not in _LAYOUT:
                self.in_string.update(range(tok.start[0], tok.end[0]))

    @classmethod
    def of(cls, text: str) -> CommentRows | None:
        """The rows of ``text``, or ``None`` when it cannot be tokenized."""
        try:
            return cls(text)
        except (tokenize.TokenError, SyntaxError):
            return None

    def why_not(self, row: int) -> str | None:
        """Why a comment cannot end row ``row`` (1-based), or ``None`` when it can."""
        if not 1 <= row <= len(self.lines):
            return "the row is not in the file"
        if row in self.in_string:
            return "its line ends inside a multi-line string"
        if self.lines[row - 1].rstrip("\r\n").endswith("\\"):
            return "its line continues with a backslash"
        return None

    def target(self, first: int, last: int) -> int | None:
        """The row to carry a directive for a finding spanning rows ``first`` to ``last`` (the
        two the suppression reads), or ``None`` when neither can take a comment."""
        return next((row for row in dict.fromkeys((first, last)) if self.why_not(row) is None), None)


def with_directive(line: str, comment: tokenize.TokenInfo | None, codes: set[str]) -> str | None:
    """``line`` (without its line ending) with ``codes`` added to its noqa directive, or
    ``None`` when it already suppresses them all (its codes, or a bare ``# noqa``)."""
    match = NOQA.search(comment.string) if comment is not None else None
    if comment is not None and match is not None:
        if match.group("codes") is None:
            return None
        present = noqa_codes(match.group("codes"))
        if codes <= set(present):
            return None
        start, end = (comment.start[1] + i for i in match.span("codes"))
        return line[:start] + ", ".join(sorted(set(present) | codes)) + line[end:]
    return line.rstrip(" \t") + "  # noqa: " + ", ".join(sorted(codes))


@dataclass(frozen=True)
class Skipped:
    """A finding no directive was written for, and why."""

    diagnostic: Diagnostic
    reason: str

    def describe(self) -> str:
        d = self.diagnostic
        return f"{d.filename}:{d.where}: {d.code} not marked: {self.reason}; add the directive by hand"


@dataclass
class Marked:
    """The text with its directives, how many rows got one, and the findings left alone."""

    text: str
    added: int = 0
    skipped: list[Skipped] = field(default_factory=list)


def mark_text(text: str, spans: list[tuple[Diagnostic, int, int]]) -> Marked:
    """``text`` with a directive for each finding, given with the rows of ``text`` it spans
    (for a notebook, the rows of its joined cells)."""
    if "\r" in text.replace("\r\n", ""):
        # a lone CR ends a line for Python but not for the suppression's reading of comments
        return Marked(text, skipped=[Skipped(d, "the file ends lines with a lone CR") for d, _, _ in spans])
    rows = CommentRows.of(text)
    if rows is None:
        return Marked(text, skipped=[Skipped(d, "the file cannot be tokenized") for d, _, _ in spans])
    wanted: dict[int, set[str]] = defaultdict(set)
    marked = Marked(text)
    for d, first, last in spans:
        row = rows.target(first, last)
        if row is None:
            marked.skipped.append(Skipped(d, rows.why_not(first) or "no row of it can take a comment"))
        else:
            wanted[row].add(d.code)
    lines = list(rows.lines)
    for row, codes in wanted.items():
        line = lines[row - 1]
        body = line.rstrip("\r\n")
        new = with_directive(body, rows.comments.get(row), codes)
        if new is not None:
            lines[row - 1] = new + line[len(body) :]
            marked.added += 1
    marked.text = "".join(lines)
    return marked


def _spans(diagnostics: list[Diagnostic], source: SourceFile) -> list[tuple[Diagnostic, int, int]]:
    """Each finding with its first and last row in ``source.text`` (a notebook's joined cells:
    its rows are given within their cell)."""
    if source.notebook is None:
        return [(d, d.location.row, d.end_location.row) for d in diagnostics]
    joined = {at: k + 1 for k, at in enumerate(source.notebook.rows) if at is not None}
    return [
        (d, joined.get((d.cell, d.location.row), 0), joined.get((d.cell, d.end_location.row), 0))
        for d in diagnostics
    ]


@dataclass
class NoqaRun:
    """What ``--add-noqa`` did over a run's findings."""

    added: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)


def add_noqa(diagnostics: list[Diagnostic], root: Path) -> NoqaRun:
    """Write a directive for every finding into its file (files under ``root`` only, when
    reached through a symbolic link, as ``--fix``)."""
    from scalarlint.fixers.outcomes import FileFix, FixOutcome
    from scalarlint.fixers.write_back import read_for_fix, write_atomic

    by_file: dict[str, list[Diagnostic]] = defaultdict(list)
    for d in diagnostics:
        if d.code not in ERROR_CODES:
            by_file[d.filename].append(d)
    run = NoqaRun()
    for filename, found in sorted(by_file.items()):
        read = read_for_fix(filename)
        if isinstance(read, FileError):
            run.errors.append(read)
            continue
        source, mtime = read
        marked = mark_text(source.text, _spans(found, source))
        run.skipped.extend(marked.skipped)
        if marked.text == source.text:
            continue
        error = write_atomic(FileFix(source, FixOutcome(marked.text), mtime), root=root)
        if error is not None:
            run.errors.append(error)
        else:
            run.added += marked.added
    return run


def add_noqa_command(targets: list[Path], config: Config, jobs: int | None, cache: Cache | None) -> int:
    """``check --add-noqa``: check ``targets``, mark every finding, say how many directives were
    added (stdout, ruff's words) and what could not be marked or checked (stderr). The exit
    code is 0, or 2 when a file could not be checked or written (code nobody checked is never
    passed as done)."""
    from scalarlint.engine import check_paths
    from scalarlint.run_report import EXIT_CLEAN, EXIT_ERROR, warn_if_nothing_found

    result = check_paths(targets, config, jobs, cache)
    warn_if_nothing_found(result.files_checked, result.errors)
    run = add_noqa(result.diagnostics, Path(config.root))
    for skipped in run.skipped:
        click.echo(skipped.describe(), err=True)
    errors = sorted(result.errors + run.errors, key=lambda e: e.filename)
    for error in errors:
        click.echo(error.describe(), err=True)
    click.echo(f"Added {plural(run.added, 'noqa directive')}.")
    return EXIT_ERROR if errors else EXIT_CLEAN
