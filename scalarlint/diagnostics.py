"""The data every part of scalarlint exchanges: diagnostics, fixes and text edits.

Kept free of libcst so that output formats, the LSP server and the fixers can share it
without paying for the parser. Positions are 1-based rows and 1-based columns counted in
characters (code points), as in ruff's JSON output, so existing tooling can read ours.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any

from scalarlint.error_codes import ERROR_CODES, UNREADABLE

# A check's page on the documentation site (mkdocs.yml's site_url; docs/gen_pages.py writes
# checks/<code>.md from the check's own documentation). tests/docs/test_docs_site.py builds the
# site and checks that every code's URL names a page of it.
DOCS_URL = "https://scalarlint.github.io/scalarlint/checks/{code}/"


class Severity(str, enum.Enum):
    """Error: per-element work (a loop over data). Warning: one sync at worst."""

    ERROR = "error"
    WARNING = "warning"


class Confidence(str, enum.Enum):
    """How sure the checker is that a finding is real (pylint's idea, made concrete): ``high``
    proven by construction (an array the code builds, a literal or loop index), ``medium`` by a
    framework's convention or rank evidence (a rule's parameter, a saved tensor, a stated
    rank), ``low`` a value the inference cannot follow inside a rule body. ``--confidence``
    reports the findings at or above a level."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"

    @property
    def rank(self) -> int:
        return _CONFIDENCE_RANK[self.value]

    def at_least(self, threshold: "Confidence | str") -> bool:
        return self.rank >= _CONFIDENCE_RANK[Confidence(threshold).value]


_CONFIDENCE_RANK = {"low": 0, "medium": 1, "high": 2}
CONFIDENCE_LEVELS = ("high", "medium", "low")


class Applicability(str, enum.Enum):
    """ruff's notion: a safe fix keeps behaviour on every backend; an unsafe one needs review;
    a display-only one is shown (with why it is not applied) and never applied."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@dataclass(frozen=True, order=True)
class Location:
    row: int
    column: int

    def to_json(self) -> dict[str, int]:
        return {"row": self.row, "column": self.column}


@dataclass(frozen=True)
class Edit:
    """Replace the text between two locations (end exclusive) with ``content``."""

    content: str
    location: Location
    end_location: Location

    def to_json(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "location": self.location.to_json(),
            "end_location": self.end_location.to_json(),
        }


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]
    # A fix that keeps the code's shape where a rewrite may exist (one host copy before a loop
    # that a vectorizing fixer could replace): the fix loop takes it after every other fix of
    # its round, so an overlapping rewrite wins.
    fallback: bool = False

    @property
    def applicable(self) -> bool:
        """Whether ``--fix`` (with ``--unsafe-fixes`` for an unsafe one) may apply it."""
        return self.applicability is not Applicability.DISPLAY_ONLY

    def to_json(self) -> dict[str, Any]:
        return {
            "applicability": self.applicability.value,
            "message": self.message,
            "edits": [edit.to_json() for edit in self.edits],
        }


@dataclass(frozen=True)
class Diagnostic:
    """One finding of one check, ready to report."""

    code: str
    name: str
    message: str
    filename: str
    location: Location
    end_location: Location
    severity: Severity
    rule: str | None = None
    fixes: tuple[Fix, ...] = field(default=(), compare=False)
    cell: int | None = None  # in a notebook: the cell, and ``location`` is within it
    # with no fix at all: why, as the first fixer that declined said it (``fixers.outcomes.Declined``)
    no_fix_reason: str | None = field(default=None, compare=False)
    # why it was reported (``scalarlint.checks.evidence_of``): how sure, and the reasons in words
    confidence: Confidence = field(default=Confidence.HIGH, compare=False)
    evidence: tuple[str, ...] = field(default=(), compare=False)

    @property
    def where(self) -> str:
        """``row:column``, or ``cell N:row:column`` in a notebook (as ruff prints it)."""
        at = f"{self.location.row}:{self.location.column}"
        return at if self.cell is None else f"cell {self.cell}:{at}"

    @property
    def url(self) -> str:
        return DOCS_URL.format(code=self.code.lower())

    @property
    def fixable(self) -> bool:
        """Whether a fix may be applied (a display-only fix does not count)."""
        return any(fix.applicable for fix in self.fixes)

    @property
    def preferred_fix(self) -> Fix | None:
        """The fix a one-shot tool applies: the first safe one, else the first unsafe one."""
        for fix in self.fixes:
            if fix.applicability is Applicability.SAFE:
                return fix
        return self.fixes[0] if self.fixes else None

    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.filename, self.cell or 0, self.location.row, self.location.column, self.code)

    def to_json(self) -> dict[str, Any]:
        """ruff-compatible object plus ``name``, ``severity``, ``rule``, ``confidence`` and
        ``evidence`` (and ``cell`` in a notebook, where the rows count within the cell; a
        notebook fix lists no edits, since they apply to the joined cells, not to the file:
        ``--fix`` applies them)."""
        fix = self.preferred_fix
        return {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "severity": self.severity.value,
            "rule": self.rule,
            "confidence": self.confidence.value,
            "evidence": list(self.evidence),
            "filename": self.filename,
            "location": self.location.to_json(),
            "end_location": self.end_location.to_json(),
            "fix": (fix.to_json() if self.cell is None else {**fix.to_json(), "edits": []}) if fix else None,
            **({"no_fix_reason": self.no_fix_reason} if self.no_fix_reason else {}),
            "url": self.url,
            "noqa_row": self.location.row,
            **({"cell": self.cell} if self.cell is not None else {}),
        }


@dataclass(frozen=True)
class FileError:
    """A path that could not be read, parsed or analysed; reported, and the run goes on (exit 2).

    ``code`` says which (``scalarlint.error_codes``: SL001 does not parse, SL002 cannot be read
    or decoded, SL003 the analysis stopped); ``location`` is where, when the problem has a place
    in the file (in a notebook, within ``cell``). Reports show it as a diagnostic of its code."""

    filename: str
    message: str
    code: str = UNREADABLE
    location: Location | None = None
    cell: int | None = None

    @property
    def where(self) -> str:
        """``row:column`` (1:1 when the problem has no place in the file, as ruff), or
        ``cell N:row:column`` in a notebook."""
        at = self.location or Location(1, 1)
        return f"{at.row}:{at.column}" if self.cell is None else f"cell {self.cell}:{at.row}:{at.column}"

    def to_json(self) -> dict[str, Any]:
        return {"filename": self.filename, "error": self.message}

    def describe(self) -> str:
        """``path:row:col: SL001 message``, the one line naming the file and the problem."""
        return f"{self.filename}:{self.where}: {self.code} {self.message}"

    def as_diagnostic(self) -> Diagnostic:
        """The error as a report shows it: a diagnostic of its code at its location (an empty
        range: the parser names a point, not a span)."""
        info = ERROR_CODES.get(self.code)
        at = self.location or Location(1, 1)
        return Diagnostic(
            code=self.code,
            name=info.name if info else "file-error",
            message=self.message,
            filename=self.filename,
            location=at,
            end_location=at,
            severity=Severity.ERROR,
            cell=self.cell,
        )


def offset_of(text: str, location: Location) -> int:
    """Character offset in ``text`` of a 1-based (row, column) location; lines end in \\n, \\r\\n or \\r."""
    row = 1
    index = 0
    while row < location.row:
        nl = _next_line_start(text, index)
        if nl < 0:
            return len(text)
        index = nl
        row += 1
    return min(index + location.column - 1, len(text))


def _next_line_start(text: str, index: int) -> int:
    for i in range(index, len(text)):
        ch = text[i]
        if ch == "\n":
            return i + 1
        if ch == "\r":
            return i + 2 if text[i + 1 : i + 2] == "\n" else i + 1
    return -1


def apply_edits(text: str, edits: list[Edit] | tuple[Edit, ...]) -> str:
    """Apply non-overlapping edits to ``text``; overlapping ones raise ``ValueError``."""
    spans = sorted(
        ((offset_of(text, e.location), offset_of(text, e.end_location), e.content) for e in edits),
        key=lambda span: (span[0], span[1]),
    )
    out: list[str] = []
    cursor = 0
    for start, end, content in spans:
        if start < cursor:
            raise ValueError("overlapping edits")
        out.append(text[cursor:start])
        out.append(content)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def visible_fixes(diagnostic: Diagnostic, unsafe: bool) -> Diagnostic:
    """``diagnostic`` with only the fixes a run with these settings may apply (what a report
    marks as fixable). Here, not with the fixers, so a report needs no libcst."""
    keep = tuple(f for f in diagnostic.fixes if f.applicability is Applicability.SAFE or (unsafe and f.applicable))
    return diagnostic if keep == diagnostic.fixes else dataclasses.replace(diagnostic, fixes=keep)
