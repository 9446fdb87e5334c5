"""Between scalarlint's positions and the Language Server Protocol's.

scalarlint counts 1-based rows and 1-based columns in code points; LSP counts 0-based lines
and 0-based characters in the code units of the encoding negotiated at ``initialize``
(UTF-16 unless the client offers another). Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` in both:
that is why this module splits lines itself instead of using ``str.splitlines`` (which also
breaks at form feeds and Unicode separators, and would shift every row after one).
"""

from __future__ import annotations

import re
from typing import Any

from lsprotocol import types

from scalarlint.diagnostics import Diagnostic, Edit, Location, Severity
from scalarlint.error_codes import ERROR_CODES

SOURCE = "scalarlint"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _units_utf16(text: str) -> int:
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _units_utf8(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


class LineIndex:
    """A text's lines and line starts, for converting positions both ways in one encoding."""

    def __init__(self, text: str, encoding: str | None = "utf-16") -> None:
        self.text = text
        self.lines: list[str] = []
        self.starts: list[int] = []
        cursor = 0
        for match in _LINE_BREAK.finditer(text):
            self.starts.append(cursor)
            self.lines.append(text[cursor : match.start()])
            cursor = match.end()
        self.starts.append(cursor)
        self.lines.append(text[cursor:])
        enc = str(encoding or "utf-16").lower()
        self._units = len if enc == "utf-32" else _units_utf8 if enc == "utf-8" else _units_utf16

    # -- scalarlint -> LSP ----------------------------------------------------------------
    def position(self, location: Location) -> types.Position:
        line = location.row - 1
        if line >= len(self.lines):
            return types.Position(line=len(self.lines) - 1, character=self._units(self.lines[-1]))
        text = self.lines[max(line, 0)]
        return types.Position(line=max(line, 0), character=self._units(text[: max(location.column - 1, 0)]))

    def range(self, start: Location, end: Location) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    # -- LSP -> scalarlint ----------------------------------------------------------------
    def location(self, position: types.Position) -> Location:
        if position.line >= len(self.lines):
            return Location(len(self.lines), len(self.lines[-1]) + 1)
        text = self.lines[position.line]
        units = 0
        for index, ch in enumerate(text):
            if units >= position.character:
                return Location(position.line + 1, index + 1)
            units += self._units(ch)
        return Location(position.line + 1, len(text) + 1)

    # -- offsets ---------------------------------------------------------------------------
    def location_at(self, offset: int) -> Location:
        """The 1-based location of a character offset into the text."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        column = min(offset - self.starts[lo], len(self.lines[lo])) + 1
        return Location(lo + 1, column)


def severity(value: Severity) -> types.DiagnosticSeverity:
    return types.DiagnosticSeverity.Error if value is Severity.ERROR else types.DiagnosticSeverity.Warning


def message(d: Diagnostic) -> str:
    """The check's name first (editors show the code apart), then the finding, its rule and,
    when no fix is offered, why; a file that could not be checked (SL001-SL003): the problem."""
    if d.code in ERROR_CODES:  # "syntax error: ..." says what it is already
        return d.message
    text = f"{d.name}: {d.message}" + (f" [rule: {d.rule}]" if d.rule else "")
    return text + (f"\nNo fix: {d.no_fix_reason}" if d.no_fix_reason else "")


def to_lsp_diagnostic(d: Diagnostic, index: LineIndex) -> types.Diagnostic:
    data: dict[str, Any] = {"name": d.name, "rule": d.rule, "fixes": [f.message for f in d.fixes], "no_fix_reason": d.no_fix_reason}
    return types.Diagnostic(
        range=index.range(d.location, d.end_location),
        message=message(d),
        severity=severity(d.severity),
        code=d.code,
        code_description=types.CodeDescription(href=d.url),
        source=SOURCE,
        data=data,
    )


def to_text_edit(edit: Edit, index: LineIndex) -> types.TextEdit:
    return types.TextEdit(range=index.range(edit.location, edit.end_location), new_text=edit.content)


def minimal_edit(old: str, new: str) -> Edit | None:
    """One edit turning ``old`` into ``new``, trimmed to the part that differs.

    A whole-document replacement would move the user's cursor and fold state; trimming the
    common prefix and suffix keeps the edit where the fixes were. The bounds never split a
    ``\\r\\n`` pair, which has no LSP position in between.
    """
    if old == new:
        return None
    limit = min(len(old), len(new))
    start = 0
    while start < limit and old[start] == new[start]:
        start += 1
    if start and old[start - 1] == "\r":
        start -= 1
    tail = 0
    while tail < limit - start and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    end_old = len(old) - tail
    if tail and end_old > 0 and old[end_old] == "\n" and old[end_old - 1] == "\r":
        end_old += 1
        tail -= 1
    index = LineIndex(old)
    return Edit(new[start : len(new) - tail], index.location_at(start), index.location_at(end_old))
