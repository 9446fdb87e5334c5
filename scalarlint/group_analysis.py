"""A large file's second pass one group of linked definitions at a time.

Each group (``analysis.chunks.components``, joined into batches of about ``BATCH_LINES``
lines) is analysed in a pruned copy of the file, so a whole-tree run's memory follows its
largest group instead of its largest file, with the same findings as the whole file.
"""

from __future__ import annotations

import dataclasses

from scalarlint.analysis.chunks import (
    Chunk,
    chunk_at,
    chunks_of,
    components,
    outside_text,
)
from scalarlint.analysis.index import ModuleIndex
from scalarlint.analysis.project import Target
from scalarlint.analysis.pruning import Pruner, split_lines
from scalarlint.analysis.sources import SourceFile
from scalarlint.analysis.syntax_versions import ast_parse
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, FileError
from scalarlint.file_passes import analyze_whole, index_source, is_time_limit


def analyze_in_groups(
    source: SourceFile, targets: dict[str, Target], config: Config, whole_file_fallback: bool = True, batch_lines: int | None = None
) -> list[Diagnostic] | FileError:
    """A large file's second pass one group of linked chunks at a time (``components``), each in
    a pruned copy: the same findings as the whole file (the invariant the incremental re-check
    rests on), with the memory of the largest group instead of the whole file's.

    The file parses (``ast`` accepted it), so a pruned copy that does not is the cutting's
    fault, never the file's: the whole file is analysed instead, and reports what it reports.
    ``whole_file_fallback=False`` returns the copy's error instead (the differential test of
    the cutting, ``tests/checker/test_cutting_keeps_parsing.py``, must see it). ``batch_lines``:
    ``BATCH_LINES`` unless given (1 cuts every group alone)."""
    try:
        tree = ast_parse(source.text, filename=source.path)
    except (SyntaxError, ValueError, RecursionError):
        return analyze_whole(source, targets, config)
    lines = split_lines(source.text)
    chunks = chunks_of(tree, lines)
    groups = components(chunks, outside_text(lines, chunks))
    if len(groups) < 2:
        return analyze_whole(source, targets, config)
    index = index_source(source, config, tree=tree)
    if not isinstance(index, ModuleIndex):
        return analyze_whole(source, targets, config)
    rows = {key: entry.line for key, entry in index.functions.items()}
    prune = Pruner(source.text, tree)
    found: list[Diagnostic] = []
    for group in _batches(groups, chunks, BATCH_LINES if batch_lines is None else batch_lines):
        chosen = {k: t for k, t in targets.items() if k in rows and chunk_at(chunks, rows[k]) in group}
        if not chosen:
            continue
        text, keyed = prune(chosen, module_code=None in group)
        part = analyze_whole(dataclasses.replace(source, text=text), keyed, config)
        if isinstance(part, FileError):
            if whole_file_fallback and not is_time_limit(part):
                return analyze_whole(source, targets, config)
            return part
        found.extend(part)
    return sorted(found, key=Diagnostic.sort_key)


BATCH_LINES = 1500  # groups are analysed together up to this many lines (each copy repeats the imports)


def _batches(groups: list[set[int | None]], chunks: list[Chunk], batch_lines: int) -> list[set[int | None]]:
    """Groups joined, in order, into batches of about ``batch_lines`` lines: a union of groups
    no link crosses is one too, and fewer copies repeat the module's imports fewer times."""
    out: list[set[int | None]] = []
    size = 0
    for group in groups:
        lines = sum(chunks[n].end - chunks[n].start + 1 for n in group if n is not None)
        if out and size + lines <= batch_lines:
            out[-1] |= group
            size += lines
        else:
            out.append(set(group))
            size = lines
    return out
