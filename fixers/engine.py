"""Apply fixes: check, pick non-overlapping fixes, apply, verify, re-check, until nothing changes.

``fix_source`` is the one entry point that front ends share: the CLI (``--fix``, ``--diff``)
and the LSP server ("fix all") call it with a ``SourceFile`` and get a ``FixOutcome`` back.
``fix_paths`` runs it over files with the cross-module reach of a normal run (the outcomes
are in ``outcomes``); ``write_back.write_atomic`` / ``diffs.unified_diff`` turn an outcome into
a file on disk or a patch.

Conflicts are settled deterministically: each diagnostic contributes its preferred applicable
fix (the first safe one; with ``unsafe`` the first one of any kind); safe fixes are taken
before unsafe ones, each group in order of the diagnostics' positions (earlier first), and a
fix that overlaps one already taken waits for the next round, where it is recomputed on the
new text (so a safe size-1 view wins over an ``allow_scalar`` block on the same statement).
A fallback fix (``Fix.fallback``: one host copy before a loop) comes after the others of its
kind, so a vectorizing rewrite of the same loop wins.
Identical edits are shared (two fixes that add the same import add it once). Every round's
result must parse (libcst and Python's own parser) or the offending fixes are dropped; at
most ``MAX_ROUNDS`` rounds run, so a fixer that keeps rewriting its own output cannot loop.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from scalarlint.analysis.index import ModuleIndex
from scalarlint.analysis.project import Project
from scalarlint.analysis.syntax_versions import ast_parse, parse_module
from scalarlint.analysis.sources import SourceFile
from scalarlint.checks import BY_CODE
from scalarlint.config import Config
from scalarlint.engine import check_source, index_source
from scalarlint.diagnostics import visible_fixes  # noqa: F401  (re-exported: the fix loop's callers use it)
from scalarlint.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    FileError,
    Fix,
    apply_edits,
    offset_of,
)
from scalarlint.files import discover

from .outcomes import FileFix, FixOutcome, FixRun
from .write_back import read_for_fix

MAX_ROUNDS = 10


def applicable_fix(diagnostic: Diagnostic, unsafe: bool) -> Fix | None:
    """The fix a run applies for ``diagnostic``: its first safe one, else (with ``unsafe``)
    its first one."""
    for fix in diagnostic.fixes:
        if fix.applicability is Applicability.SAFE:
            return fix
    if unsafe:
        return next((fix for fix in diagnostic.fixes if fix.applicability is Applicability.UNSAFE), None)
    return None


# -- one file ----------------------------------------------------------------------------------
def check_text(source: SourceFile, config: Config, others: Sequence[ModuleIndex] = ()) -> list[Diagnostic] | FileError:
    """Diagnostics (with fixes) of one source, with rules of ``others`` reaching its helpers."""
    return check_source(source, config, others)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    (s1, e1), (s2, e2) = a, b
    if s1 == e1 and s2 == e2:
        return s1 == s2
    if s1 == e1:
        return s2 < s1 < e2
    if s2 == e2:
        return s1 < s2 < e1
    return s1 < e2 and s2 < e1


def _supersedes(code: str) -> bool:
    """Whether ``code``'s check declares that its fixes supersede other fixes in their rule
    (read from the check, so that the engine names no code)."""
    check = BY_CODE.get(code)
    return check is not None and check.INFO.fixes_supersede


def select_fixes(text: str, diagnostics: Sequence[Diagnostic], unsafe: bool) -> list[tuple[Diagnostic, Fix]]:
    """Non-overlapping fixes, safe before unsafe, earlier diagnostics first; a fix whose edits
    were all taken already (shared by several diagnostics) counts for each of them."""
    candidates: list[tuple[bool, tuple[str, int, int, str], Diagnostic, Fix]] = []
    for diagnostic in diagnostics:
        fix = applicable_fix(diagnostic, unsafe)
        if fix is not None and fix.edits:
            candidates.append((fix.applicability is not Applicability.SAFE, diagnostic.sort_key(), diagnostic, fix))
    candidates.sort(key=lambda c: (c[0], c[3].fallback, c[1]))
    # A check whose fixes supersede others (CheckInfo.fixes_supersede: a vectorized search makes
    # its index a device index, which changes the right fix for every use of it): fixes of other
    # checks in the same rule wait for the next round.
    superseded = {d.rule or "" for _, _, d, _ in candidates if _supersedes(d.code)}
    taken: dict[Edit, tuple[int, int]] = {}
    chosen: list[tuple[Diagnostic, Fix]] = []
    for _, _, diagnostic, fix in candidates:
        rule = diagnostic.rule or ""
        if not _supersedes(diagnostic.code) and any(rule == r or rule.startswith(r + ".") for r in superseded):
            continue
        spans = [(e, (offset_of(text, e.location), offset_of(text, e.end_location))) for e in fix.edits]
        fresh = [(e, s) for e, s in spans if e not in taken]
        if any(_overlaps(s, other) for _, s in fresh for other in taken.values()):
            continue
        if any(_overlaps(a, b) for i, (_, a) in enumerate(fresh) for _, b in fresh[i + 1 :]):
            continue
        for e, s in fresh:
            taken[e] = s
        chosen.append((diagnostic, fix))
    return chosen


def parses(text: str) -> bool:
    """Whether ``text`` is valid Python for both libcst and CPython's parser."""
    try:
        parse_module(text)
        ast_parse(text)
    except Exception:
        return False
    return True


def _apply(text: str, fixes: Sequence[Fix]) -> str:
    edits = list(dict.fromkeys(e for fix in fixes for e in fix.edits))
    return apply_edits(text, edits)


def _apply_verified(text: str, chosen: list[tuple[Diagnostic, Fix]]) -> tuple[str, list[tuple[Diagnostic, Fix]]]:
    """Apply the chosen fixes; if the result does not parse, keep only fixes that parse on
    their own (and together)."""
    new = _apply(text, [f for _, f in chosen])
    if parses(new):
        return new, chosen
    good = [(d, f) for d, f in chosen if parses(_apply(text, [f]))]
    while good:
        new = _apply(text, [f for _, f in good])
        if parses(new):
            return new, good
        good = good[:-1]
    return text, []


def fix_source(source: SourceFile, config: Config, unsafe: bool, others: Sequence[ModuleIndex] = ()) -> FixOutcome:
    """Fix one source until no applicable fix is left (at most ``MAX_ROUNDS`` rounds).

    ``unsafe`` also applies unsafe fixes. ``others``: indexes of the other modules of the
    project, so that helpers reached from rules elsewhere are checked as in a normal run.
    The source is never written; ``FixOutcome.text`` is the result, and it parses.
    """
    text = source.text
    applied: list[Diagnostic] = []
    original: list[Diagnostic] = []
    current = source
    for round_number in range(1, MAX_ROUNDS + 1):
        found = check_text(current, config, others)
        if isinstance(found, FileError):  # only possible for the text as given: rounds verify
            return FixOutcome(source.text, [], [], error=found, rounds=round_number)
        if round_number == 1:
            original = found
        chosen = select_fixes(text, found, unsafe)
        new_text, used = _apply_verified(text, chosen) if chosen else (text, [])
        if not used or new_text == text:
            return FixOutcome(text, applied, found, rounds=round_number, original=original)
        applied.extend(d for d, _ in used)
        text = new_text
        current = _with_text(source, text)
    final = check_text(current, config, others)
    remaining = final if isinstance(final, list) else []
    return FixOutcome(text, applied, remaining, rounds=MAX_ROUNDS, original=original)


def _with_text(source: SourceFile, text: str) -> SourceFile:
    try:
        raw = text.encode(source.encoding)
    except (UnicodeEncodeError, LookupError):
        raw = source.raw
    return dataclasses.replace(source, text=text, raw=raw)


# -- many files ----------------------------------------------------------------------------------
def fix_paths(paths: list[Path], config: Config, unsafe: bool) -> FixRun:
    """Fix every Python file under ``paths`` in memory (nothing is written here)."""
    run = FixRun()
    files, problems = discover(paths, config)
    run.errors.extend(problems)
    sources: list[tuple[SourceFile, int]] = []
    indexes: list[ModuleIndex] = []
    for path in files:
        read = read_for_fix(str(path))
        if isinstance(read, FileError):
            run.errors.append(read)
            continue
        index = index_source(read[0], config)
        if isinstance(index, FileError):
            run.errors.append(index)
            continue
        sources.append(read)
        if index is not None:
            indexes.append(index)
    run.files_checked = len(sources)
    targets = Project(indexes, config).targets(scope_all=config.scope == "all")
    for source, mtime in sources:
        if not targets.get(source.path):  # no rule reaches this file: nothing to check or fix
            run.files.append(FileFix(source, FixOutcome(source.text, rounds=0), mtime))
            continue
        outcome = fix_source(source, config, unsafe, indexes)
        if outcome.error is not None:
            run.errors.append(outcome.error)
            run.files_checked -= 1
            continue
        run.files.append(FileFix(source, outcome, mtime))
    run.errors.sort(key=lambda e: e.filename)
    return run
