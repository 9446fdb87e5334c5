"""Re-check a document after an edit by analysing only what the edit can change.

The editor checks the same file again after every pause in typing. A whole-file analysis of a
2,000-line rule module costs seconds (libcst's parse and scope analysis grow with the file);
an edit usually touches one function. So the file is cut into its top-level definitions
(*chunks*: a ``def`` or ``class`` with its decorators), and after an edit:

* if the text outside the chunks (imports, module constants, comments) changed, or chunks
  were added, removed or renamed, or the settings changed, the whole file is analysed again;
* otherwise the changed chunks, every chunk whose targets changed (a rule now reaching a
  helper), and every chunk linked to those (``analysis.chunks``: by a name one defines and
  the other uses, to a fixed point; the module-level code counts as one more chunk) are
  analysed again, in a copy of the file where the other bodies are cut
  (``analysis.pruning``: every line stays where it was);
* the findings of the other chunks are reused, moved by as many lines as their chunk moved
  (their fixes' edits too).

The first check of a document that exists on disk goes through the on-disk cache
(``scalarlint.cache``): opening a file that ``scalarlint check`` or an earlier session analysed
with the same text and settings costs its first pass only.

``tests/checker/test_incremental.py`` compares the result with a whole-file check after
random edits, and every corpus file's groups analysed alone with the whole file.
"""

from __future__ import annotations

import bisect
import dataclasses
import os
import re
from dataclasses import dataclass

from scalarlint.analysis.chunks import (
    Chunk,
    chunk_at,
    chunks_of,
    linked_closure,
    outside_text,
)
from scalarlint.analysis.index import ModuleIndex
from scalarlint.analysis.project import Project, Target
from scalarlint.analysis.pruning import pruned, split_lines
from scalarlint.analysis.sources import SourceFile
from scalarlint.analysis.syntax_versions import ast_parse
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, Edit, FileError, Location
from scalarlint.engine import (
    _analyze_source,
    check_source,
    findings_key,
    index_source,
    load_findings,
    store_findings,
)

WHOLE_FILE_SHARE = 0.5  # when more than this share of the chunks must be redone, do the file


@dataclass
class Analysis:
    """What the last check of a document saw and found."""

    config: Config
    chunks: list[Chunk]
    outside: str  # the text outside every chunk
    targets: dict[str, Target]
    chunk_of_target: dict[str, int | None]
    diagnostics: list[Diagnostic]


@dataclass
class Outcome:
    diagnostics: list[Diagnostic] | FileError
    redone: int | None = None  # chunks analysed again; None: the whole file


class IncrementalChecker:
    """Keeps the last analysis of each document (by path) and re-checks edits incrementally."""

    def __init__(self, use_disk_cache: bool = True) -> None:
        self._last: dict[str, Analysis] = {}
        self.use_disk_cache = use_disk_cache

    def _whole(self, source: SourceFile, targets: dict[str, Target], config: Config, first: bool) -> list[Diagnostic] | FileError:
        """The whole file's analysis; on opening a file that exists, through the on-disk cache
        (``scalarlint check`` or an earlier session may have analysed the same text)."""
        if not (first and self.use_disk_cache and os.path.isfile(source.path)):
            return _analyze_source(source, targets, config)
        from scalarlint.cache import Cache, content_digest

        cache = Cache.for_config(config)
        key = findings_key(cache, source.path, content_digest(source.raw), targets)
        found = load_findings(cache, key, source.path)
        if found is None:
            found = _analyze_source(source, targets, config)
            store_findings(cache, key, found)
        return found

    def forget(self, path: str) -> None:
        self._last.pop(path, None)

    def check(self, source: SourceFile, config: Config) -> list[Diagnostic] | FileError:
        return self.check_outcome(source, config).diagnostics

    def check_outcome(self, source: SourceFile, config: Config) -> Outcome:
        if source.notebook is not None or config.scope == "all":
            self.forget(source.path)
            return Outcome(check_source(source, config))
        try:
            tree = ast_parse(source.text, filename=source.path)
        except (SyntaxError, ValueError, RecursionError):
            self.forget(source.path)
            return Outcome(check_source(source, config))  # reports the error as a whole check does
        index = index_source(source, config, tree=tree)
        if not isinstance(index, ModuleIndex):
            self.forget(source.path)
            return Outcome(check_source(source, config))
        targets = Project([index], config).targets().get(source.path, {})
        lines = split_lines(source.text)
        chunks = chunks_of(tree, lines)
        outside = outside_text(lines, chunks)
        chunk_of_target = {key: chunk_at(chunks, index.functions[key].line) for key in targets}
        previous = self._last.get(source.path)
        redo = _to_redo(previous, config, chunks, outside, targets, chunk_of_target)
        if redo is None or len(redo) > WHOLE_FILE_SHARE * max(len(chunks), 1):
            found = self._whole(source, targets, config, first=previous is None)
            if isinstance(found, FileError):
                self.forget(source.path)
                return Outcome(found)
            self._last[source.path] = Analysis(config, chunks, outside, targets, chunk_of_target, found)
            return Outcome(found)
        assert previous is not None
        chosen = {k: t for k, t in targets.items() if chunk_of_target[k] in redo}
        fresh: list[Diagnostic] = []
        if chosen:
            text, keyed = pruned(source.text, tree, chosen, module_code=None in redo)
            result = _analyze_source(dataclasses.replace(source, text=text), keyed, config)
            if isinstance(result, FileError):
                self.forget(source.path)
                return Outcome(result)
            fresh = result
        shift = Shift(previous.chunks, chunks)
        kept = [
            moved
            for d in previous.diagnostics
            if (moved := _moved(d, previous.chunks, shift, redo)) is not None
        ]
        found = sorted(kept + fresh, key=Diagnostic.sort_key)
        self._last[source.path] = Analysis(config, chunks, outside, targets, chunk_of_target, found)
        return Outcome(found, redone=len(redo))


def _to_redo(
    previous: Analysis | None,
    config: Config,
    chunks: list[Chunk],
    outside: str,
    targets: dict[str, Target],
    chunk_of_target: dict[str, int | None],
) -> set[int | None] | None:
    """The chunks to analyse again (``None`` in it: the targets outside every chunk), or
    ``None`` for the whole file."""
    if previous is None or previous.config != config or previous.outside != outside:
        return None
    if [c.name for c in chunks] != [c.name for c in previous.chunks]:
        return None
    if any("global" in c.words or "nonlocal" in c.words for c in chunks):
        return None  # a function assigning the module's names: its kinds reach every chunk
    shift = Shift(previous.chunks, chunks)
    redo: set[int | None] = {n for n, (new, old) in enumerate(zip(chunks, previous.chunks)) if new.text != old.text}
    for n in [*range(len(chunks)), None]:
        now = {k: t for k, t in targets.items() if chunk_of_target[k] == n}
        before = {
            k: dataclasses.replace(t, rule=_relabel(t.rule, shift))
            for k, t in previous.targets.items()
            if previous.chunk_of_target[k] == n
        }
        if now != before:
            redo.add(n)
    return linked_closure(chunks, outside, redo)


def _moved(diagnostic: Diagnostic, before: list[Chunk], shift: Shift, redo: set[int | None]) -> Diagnostic | None:
    """A finding of a chunk (or of the module-level code) that was not analysed again, moved
    with it, fixes included; ``None`` for a finding of one that was."""
    if chunk_at(before, diagnostic.location.row) in redo:
        return None
    if shift.none:
        return diagnostic

    def move(location: Location) -> Location:
        return Location(location.row + shift(location.row), location.column)

    return dataclasses.replace(
        diagnostic,
        rule=_relabel(diagnostic.rule, shift) if diagnostic.rule else diagnostic.rule,
        location=move(diagnostic.location),
        end_location=move(diagnostic.end_location),
        fixes=tuple(
            dataclasses.replace(fix, edits=tuple(Edit(e.content, move(e.location), move(e.end_location)) for e in fix.edits))
            for fix in diagnostic.fixes
        ),
    )


_LAMBDA_LABEL = re.compile(r"<lambda at line (\d+)>")


def _relabel(label: str, shift: Shift) -> str:
    """A rule's display name with its lambdas' line numbers moved (``<lambda at line N>``)."""
    if shift.none or "<lambda" not in label:
        return label
    return _LAMBDA_LABEL.sub(lambda m: f"<lambda at line {int(m.group(1)) + shift(int(m.group(1)))}>", label)


class Shift:
    """How far an old row moved: the growth of every chunk that ends above it (the text
    outside the chunks did not change)."""

    def __init__(self, before: list[Chunk], after: list[Chunk]) -> None:
        self.ends = [c.end for c in before]
        self.growth = [0]
        for old, new in zip(before, after):
            self.growth.append(self.growth[-1] + (new.end - new.start) - (old.end - old.start))
        self.none = not any(self.growth)

    def __call__(self, row: int) -> int:
        return self.growth[bisect.bisect_left(self.ends, row)]


__all__ = ["IncrementalChecker", "Outcome"]


