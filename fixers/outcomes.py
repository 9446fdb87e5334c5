"""What fixing produces: one source's ``FixOutcome``, one file's ``FileFix`` (the outcome with
what writing it back needs) and a whole run's ``FixRun``; and what one fixer answers when it
makes no fix but knows why, ``Declined``.

The fix loop (``engine``) makes them; writing back (``write_back``), diffs (``diffs``) and the
front ends read them, so they live apart from all of those.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from scalarlint.analysis.sources import SourceFile
from scalarlint.diagnostics import Diagnostic, FileError


@dataclass(frozen=True)
class Declined:
    """A fixer's answer for a finding it matched but will not rewrite: ``reason`` says why, in
    terms a rule author can act on. The fixer that stopped knows why; the report shows it when
    no other fixer made a fix (``scalarlint.fixers.fixes_and_reason``)."""

    reason: str


@dataclass
class FixOutcome:
    """The fixed text, the diagnostics whose fixes went in (over all rounds), and the
    diagnostics of the final text. ``error`` is set when the source could not be checked."""

    text: str
    applied: list[Diagnostic] = field(default_factory=list)
    remaining: list[Diagnostic] = field(default_factory=list)
    error: FileError | None = None
    rounds: int = 0
    original: list[Diagnostic] = field(default_factory=list)  # of the text as given

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def resolved(outcome: FixOutcome) -> list[Diagnostic]:
    """Findings of the original text that are gone from the fixed one (matched by code and
    rule, since positions move): those fixed directly and those that went away with them."""
    left = Counter((d.code, d.rule) for d in outcome.remaining)
    out: list[Diagnostic] = []
    for d in outcome.original:
        key = (d.code, d.rule)
        if left[key]:
            left[key] -= 1
        else:
            out.append(d)
    return out


@dataclass
class FileFix:
    """One file's outcome, with what is needed to write it back safely."""

    source: SourceFile
    outcome: FixOutcome
    mtime_ns: int | None  # when it was read; None for stdin

    @property
    def path(self) -> str:
        return self.source.path


@dataclass
class FixRun:
    files: list[FileFix] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    files_checked: int = 0

    @property
    def remaining(self) -> list[Diagnostic]:
        return sorted((d for f in self.files for d in f.outcome.remaining), key=Diagnostic.sort_key)

    @property
    def applied(self) -> list[Diagnostic]:
        return sorted((d for f in self.files for d in f.outcome.applied), key=Diagnostic.sort_key)

    @property
    def changed(self) -> list[FileFix]:
        return [f for f in self.files if f.outcome.text != f.source.text]
