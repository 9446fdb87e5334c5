"""Apply fixes: check, pick non-overlapping fixes, apply, verify, re-check, until nothing changes.

``fix_source`` is the one entry point that front ends share: the CLI (``--fix``, ``--diff``)
and the LSP server ("fix all") call it with a ``SourceFile`` and get a ``FixOutcome`` back.
``fix_paths`` runs it over files with the cross-module reach of a normal run, and
``write_atomic`` / ``unified_diff`` turn an outcome into a file on disk or a patch.

Conflicts are settled deterministically: each diagnostic contributes its preferred applicable
fix (the first safe one; with ``unsafe`` the first one of any kind); safe fixes are taken
before unsafe ones, each group in order of the diagnostics' positions (earlier first), and a
fix that overlaps one already taken waits for the next round, where it is recomputed on the
new text (so a safe size-1 view wins over an ``allow_scalar`` block on the same statement).
Identical edits are shared (two fixes that add the same import add it once). Every round's
result must parse (libcst and Python's own parser) or the offending fixes are dropped; at
most ``MAX_ROUNDS`` rounds run, so a fixer that keeps rewriting its own output cannot loop.
"""

from __future__ import annotations

import dataclasses
import difflib
import glob
import os
import stat
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path


from scalarlint.analysis.index import ModuleIndex
from scalarlint.analysis.project import Project
from scalarlint.analysis.syntax_versions import ast_parse, parse_module
from scalarlint.analysis.sources import SourceFile, decode_source, encode_source, read_regular
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
from scalarlint.notebooks import NotebookError

MAX_ROUNDS = 10


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


def select_fixes(text: str, diagnostics: Sequence[Diagnostic], unsafe: bool) -> list[tuple[Diagnostic, Fix]]:
    """Non-overlapping fixes, safe before unsafe, earlier diagnostics first; a fix whose edits
    were all taken already (shared by several diagnostics) counts for each of them."""
    candidates: list[tuple[bool, tuple[str, int, int, str], Diagnostic, Fix]] = []
    for diagnostic in diagnostics:
        fix = applicable_fix(diagnostic, unsafe)
        if fix is not None and fix.edits:
            candidates.append((fix.applicability is not Applicability.SAFE, diagnostic.sort_key(), diagnostic, fix))
    candidates.sort(key=lambda c: (c[0], c[1]))
    # A vectorized search turns its index from a host int into a device index, which changes the
    # right fix for every use of it: fixes elsewhere in the same rule wait for the next round.
    searched = {d.rule or "" for _, _, d, _ in candidates if d.code == "SL103"}
    taken: dict[Edit, tuple[int, int]] = {}
    chosen: list[tuple[Diagnostic, Fix]] = []
    for _, _, diagnostic, fix in candidates:
        rule = diagnostic.rule or ""
        if diagnostic.code != "SL103" and any(rule == r or rule.startswith(r + ".") for r in searched):
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


def read_for_fix(path: str) -> tuple[SourceFile, int] | FileError:
    """Read a file and remember its modification time, to notice a concurrent edit later."""
    read = read_regular(path)
    if isinstance(read, FileError):
        return read
    raw, info = read
    before = info.st_mtime_ns
    source = decode_source(raw, path)
    if isinstance(source, FileError):
        return source
    return source, before


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


# -- writing ---------------------------------------------------------------------------------------
def encoded(text: str, source: SourceFile) -> bytes:
    """``text`` in the file's own encoding (a ``utf-8-sig`` file keeps its BOM); a notebook's
    JSON with the changed cells rewritten."""
    return encode_source(text, source)


TEMP_SUFFIX = ".scalarlint-fix"


def write_atomic(fixed: FileFix, root: Path | None = None, read_only: bool = False) -> FileError | None:
    """Write the fixed text over the file, atomically, unless the file changed since it was read.

    The new bytes go to a temporary file in the same folder (same file system, so
    ``os.replace`` is atomic), with the original's permission bits; just before the replace the
    file on disk is compared with what was read (bytes and modification time). A file edited
    meanwhile is left alone and reported: overwriting it would lose someone's work.

    A symbolic link is written through to its target (the link stays a link), unless the
    target lies outside ``root`` (the checked tree): then nothing is written and the link is
    reported. A file with several hard links is rewritten in place once the complete new text
    is safely on disk in the temporary file, so every name keeps seeing the same file. A
    read-only file is refused unless ``read_only``. Temporary files that a killed run left next
    to the file are removed first. Any write error (a full disk) leaves the original intact.
    """
    link = Path(fixed.path)
    path = link
    if link.is_symlink():
        path = Path(os.path.realpath(link))
        if root is not None and not _is_within(path, root):
            return FileError(fixed.path, f"a symbolic link to {path}, outside the checked tree; not fixed (fix the target itself)")
    try:
        data = encoded(fixed.outcome.text, fixed.source)
    except UnicodeEncodeError as exc:
        return FileError(fixed.path, f"cannot encode the fixed text as {fixed.source.encoding}: {exc.reason}")
    except NotebookError as exc:
        return FileError(fixed.path, str(exc))
    try:
        info = os.stat(path)
    except OSError as exc:
        return FileError(fixed.path, f"cannot write: {exc.strerror or exc}")
    mode = stat.S_IMODE(info.st_mode)
    if not mode & stat.S_IWUSR and not read_only:
        return FileError(fixed.path, "read-only file; not fixed (make it writable, or pass --fix-read-only)")
    _remove_leftovers(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        changed = _changed_on_disk(fixed)
        if changed is not None:
            os.unlink(tmp)
            return FileError(fixed.path, changed)
        if info.st_nlink > 1:  # keep the hard links: same inode, new content
            with open(path, "r+b") as original:
                original.write(data)
                original.truncate()
                original.flush()
                os.fsync(original.fileno())
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except OSError as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        return FileError(fixed.path, f"cannot write: {exc.strerror or exc}")
    return None


def _is_within(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def _remove_leftovers(path: Path) -> None:
    """Temporary files of a run killed between writing and replacing (never the file itself)."""
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*{TEMP_SUFFIX}"):
        try:
            leftover.unlink()
        except OSError:
            pass


def _changed_on_disk(fixed: FileFix) -> str | None:
    try:
        now = os.stat(fixed.path).st_mtime_ns
        raw = Path(fixed.path).read_bytes()
    except OSError as exc:
        return f"cannot re-read before writing: {exc.strerror or exc}"
    if raw != fixed.source.raw or (fixed.mtime_ns is not None and now != fixed.mtime_ns):
        return "changed on disk since it was read; not overwritten (run the fix again)"
    return None


# -- diffs ---------------------------------------------------------------------------------------
NO_NEWLINE = "\\ No newline at end of file"


def diff_path(path: str) -> str:
    """The path a diff names: relative to the current folder when inside it, with a ``./``
    prefix so that ``patch -p0`` and ``git apply`` (which strips one leading component) both
    find the file."""
    p = Path(path)
    try:
        rel = p.resolve().relative_to(Path.cwd().resolve()) if p.is_absolute() else p
    except ValueError:
        return p.as_posix()
    text = rel.as_posix()
    return text if text.startswith("./") else f"./{text}"


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] = lines[-1] + "\n" + NO_NEWLINE + "\n"
    return lines


def unified_diff(fixed: FileFix) -> str:
    """A unified diff from the file as read to the fixed text (empty when unchanged).

    Lines keep their own endings (a CRLF file gives CRLF lines), a missing final newline is
    marked as ``diff`` does, and a BOM is shown on line 1 so the context matches the bytes.
    """
    bom = "\ufeff" if fixed.source.encoding == "utf-8-sig" else ""
    if fixed.outcome.text == fixed.source.text:
        return ""
    notebook = fixed.source.notebook
    if notebook is not None:  # the diff of the JSON file, so that patch applies it
        old, new = bom + notebook.json_text, bom + notebook.render(fixed.outcome.text)
    else:
        old, new = bom + fixed.source.text, bom + fixed.outcome.text
    name = diff_path(fixed.path)
    out = []
    for line in difflib.unified_diff(_lines(old), _lines(new), fromfile=name, tofile=name):
        out.append(line if line.endswith(("\n", "\r")) else line + "\n")
    return "".join(out)


def diff_bytes(fixed: FileFix) -> bytes:
    """``unified_diff`` in the file's encoding, so the patch matches the file byte for byte."""
    encoding = "utf-8" if fixed.source.encoding in ("utf-8-sig", "utf-8") else fixed.source.encoding
    return unified_diff(fixed).encode(encoding, errors="surrogateescape")
