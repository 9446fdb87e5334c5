"""The two passes on one source file, and the garbage they leave: what a worker runs per file.

``index_source`` is the first pass (``ast``: the module's index), ``analyze_whole`` the second
(libcst: the checks, with the fixers' entry point handed to the analyzer). The run
(``scalarlint.engine``) decides which files to analyse and whether a large one goes through
``scalarlint.group_analysis`` first; both call down to this module, which calls neither, so the
imports run one way.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import gc
from pathlib import Path

from scalarlint.analysis.index import ModuleIndex, build_index
from scalarlint.analysis.project import Target, module_name_for
from scalarlint.analysis.sources import SourceFile
from scalarlint.analysis.syntax_versions import ast_parse
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, FileError, Location
from scalarlint.error_codes import NOT_ANALYSED, SYNTAX_ERROR
from scalarlint.suppression import file_is_skipped
from scalarlint.target_version import grammar_error
from scalarlint.time_limit import TimeLimitExceeded, time_limit

_COLLECT = {"after_file": False, "pending_lines": 0}
# analysed lines of cyclic garbage a process may hold before a pass: little, since the scope
# graph's cycles are broken after each file (chainer's tree: 3,317 objects collected in 15
# passes at 3,000 lines, 0.1 s of a --jobs 1 run; 3,046 in 2 passes at this setting, 0.02 s)
COLLECT_EVERY_LINES = 20_000
TRIM_LINES = 1000  # a file this long hands its freed pages back at once (see _collect_garbage_after)


def quiet_gc(collect_after_file: bool = True) -> None:
    """Fewer cyclic-GC passes for a checking process. Parsing and analysis allocate hundreds of
    thousands of short-lived, mostly acyclic objects (freed by reference counting anyway), and
    the default thresholds run a collection every 700 allocations: about half of ``ast.parse``'s
    time on a large file went there. What the imports built is frozen out of every later pass.

    A file's scope analysis is cyclic (scopes and their assignments point at each other and at
    the tree), so with rare passes its garbage would outlive it and a run's memory would grow
    file by file: ``collect_after_file`` collects once every ``COLLECT_EVERY_LINES`` analysed
    lines instead (the editor server collects after publishing)."""
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    _COLLECT["after_file"] = collect_after_file


def collects_after_file() -> bool:
    """Whether ``quiet_gc(collect_after_file=True)`` is in force in this process."""
    return bool(_COLLECT["after_file"])


def _collect_garbage_after(lines: int) -> None:
    """Under ``quiet_gc(collect_after_file=True)``: one cyclic pass per ``COLLECT_EVERY_LINES``
    analysed lines, after dropping the last tree's kept children. The freed pages go back to
    the system after each such pass and after every file of ``TRIM_LINES`` lines or more (a
    worker's size then falls back after a large file, so it can run beside another worker's
    small ones without their peaks adding up). Not after every file: the next file would touch
    the same amount of memory afresh, page by page, and on chainer's tree those page faults
    cost about a twentieth of the run (155,000 against 90,000 faults; 0.5 against 0.3 s of
    system time), while a small file's pages are reused by the next one anyway."""
    if not _COLLECT["after_file"]:
        return
    _COLLECT["pending_lines"] += lines
    if _COLLECT["pending_lines"] >= COLLECT_EVERY_LINES:
        from scalarlint.analysis.tree import release

        release()
        gc.collect()
        _COLLECT["pending_lines"] = 0
        _return_freed_memory()
    elif lines >= TRIM_LINES:
        _return_freed_memory()


def _return_freed_memory() -> None:
    """Hand the pages freed by the last trees back to the system (glibc keeps them otherwise:
    a worker that analysed one large file would hold that file's peak for the rest of the run,
    and two workers' peaks would add up). A no-op where there is no glibc."""
    trim = _malloc_trim()
    if trim:
        trim(0)


@functools.lru_cache(maxsize=None)
def _malloc_trim():  # type: ignore[no-untyped-def]
    """glibc's ``malloc_trim`` from the running process's own symbols, or False."""
    import ctypes

    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False


def index_source(
    source: SourceFile, config: Config, module: str | None = None, package: str = "", tree: ast.Module | None = None
) -> ModuleIndex | FileError | None:
    """The first pass on one source; ``None`` for a skipped file. The module name comes from
    the path when the file exists (so relative imports resolve), else it stays empty. ``tree``:
    the source's ``ast`` tree when the caller already has it."""
    if module is None:
        module, package = module_name_for(Path(source.path)) if Path(source.path).is_file() else ("", "")
    if file_is_skipped(source.text):
        return None
    try:
        with time_limit(config.file_time_limit):
            parsed = tree if tree is not None else ast_parse(source.text, filename=source.path)
            too_new = grammar_error(source.text, config.target_version, source.path) if config.target_version else None
            if too_new is not None:
                return syntax_error(source, too_new.msg, too_new.lineno, too_new.offset)
            return build_index(parsed, source.path, module, package, config, source.text)
    except TimeLimitExceeded as exc:
        return FileError(source.path, f"not checked: reading it {exc} (file-time-limit)", NOT_ANALYSED)
    except SyntaxError as exc:
        return syntax_error(source, exc.msg, exc.lineno, exc.offset)
    except (ValueError, RecursionError) as exc:  # NUL bytes (3.11), nesting Python cannot compile
        return FileError(source.path, f"cannot parse: {exc}", SYNTAX_ERROR)


def syntax_error(source: SourceFile, message: str, row: int | None, column: int | None) -> FileError:
    """SL001 at the parser's position (within its cell in a notebook)."""
    cell, at = source.locate(Location(max(row or 1, 1), max(column or 1, 1)))
    return FileError(source.path, f"syntax error: {message}", SYNTAX_ERROR, at, cell)


def analyze_whole(source: SourceFile, targets: dict[str, Target], config: Config) -> list[Diagnostic] | FileError:
    """The second pass on one source, the whole file in one tree: its findings with their
    fixes, or the error that stopped it. The analysis reports; the engine then asks the
    fixers, for each reported finding, for its fixes or why there are none."""
    from scalarlint.analysis.analyzer import FileAnalyzer, ParseFailure
    from scalarlint.fixers import fixes_and_reason

    codes = config.codes_for_file(source.path)
    if not codes or not targets:
        return []
    try:
        with time_limit(config.file_time_limit):
            analyzer = FileAnalyzer(source, config, codes)
            try:
                fixed: list[Diagnostic] = []
                for finding, diagnostic in analyzer.run(targets):
                    fixes, reason = fixes_and_reason(finding, analyzer)
                    fixed.append(dataclasses.replace(diagnostic, fixes=tuple(fixes), no_fix_reason=reason))
                return fixed
            finally:
                analyzer.close()
                del analyzer  # the tree is garbage now: a collection need not walk it
                _collect_garbage_after(source.text.count("\n"))
    except TimeLimitExceeded as exc:
        return FileError(source.path, f"not checked: the analysis {exc} (file-time-limit)", NOT_ANALYSED)
    except ParseFailure as exc:
        return _parse_failure(source, exc)
    except RecursionError:
        return FileError(source.path, "too deeply nested to analyse", NOT_ANALYSED)
    except Exception as exc:  # a bug in a check must cost one file, said as such, not the run
        return FileError(source.path, f"not checked: internal error {type(exc).__name__}: {exc} (a scalarlint bug; please report it)", NOT_ANALYSED)


def _parse_failure(source: SourceFile, exc: Exception) -> FileError:
    """SL001 from libcst's parser (where Python's accepted the text): at libcst's position when
    it names one."""
    cause = exc.__cause__
    row, column = getattr(cause, "raw_line", None), getattr(cause, "raw_column", None)
    if isinstance(row, int) and isinstance(column, int):
        return syntax_error(source, str(getattr(cause, "message", exc)), row, column + 1)
    return FileError(source.path, str(exc), SYNTAX_ERROR)


def is_time_limit(item: object) -> bool:
    """A file that ran out of time is not cached: the next run (or a higher limit) may finish it."""
    return isinstance(item, FileError) and "(file-time-limit)" in item.message
