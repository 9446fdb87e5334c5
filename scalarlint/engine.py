"""One run: files -> first pass (ast index) -> project reach -> second pass (libcst checks).

Both passes run in worker processes when there are enough files to pay for them; small runs
stay in-process. Bad input never stops a run: each unreadable, undecodable or unparsable
file becomes a ``FileError``.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scalarlint.analysis.index import ModuleIndex, build_index
from scalarlint.analysis.project import Project, Target, module_name_for
from scalarlint.analysis.syntax_versions import ast_parse
from scalarlint.analysis.sources import SourceFile, read_source
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, FileError
from scalarlint.files import discover
from scalarlint.suppression import file_is_skipped
from scalarlint.time_limit import TimeLimitExceeded, time_limit

PARALLEL_THRESHOLD = 24  # files; below this a process pool costs more than it saves


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    files_checked: int = 0


def index_source(source: SourceFile, config: Config, module: str | None = None, package: str = "") -> ModuleIndex | FileError | None:
    """The first pass on one source; ``None`` for a skipped file. The module name comes from
    the path when the file exists (so relative imports resolve), else it stays empty."""
    if module is None:
        module, package = module_name_for(Path(source.path)) if Path(source.path).is_file() else ("", "")
    if file_is_skipped(source.text):
        return None
    try:
        with time_limit(config.file_time_limit):
            return build_index(ast_parse(source.text, filename=source.path), source.path, module, package, config)
    except TimeLimitExceeded as exc:
        return FileError(source.path, f"not checked: reading it {exc} (file-time-limit)")
    except SyntaxError as exc:
        return FileError(source.path, f"syntax error at {source.where(exc.lineno or 1, exc.offset or 1)}: {exc.msg}")
    except (ValueError, RecursionError) as exc:
        return FileError(source.path, f"cannot parse: {exc}")


def _index_file(args: tuple[str, Config]) -> ModuleIndex | FileError | None:
    path, config = args
    source = read_source(path)
    if isinstance(source, FileError):
        return source
    module, package = module_name_for(Path(path))
    return index_source(source, config, module, package)


def _analyze_source(source: SourceFile, targets: dict[str, Target], config: Config) -> list[Diagnostic] | FileError:
    from scalarlint.analysis.analyzer import FileAnalyzer, ParseFailure

    codes = config.codes_for_file(source.path)
    if not codes or not targets:
        return []
    try:
        with time_limit(config.file_time_limit):
            return FileAnalyzer(source, config, codes).run(targets)
    except TimeLimitExceeded as exc:
        return FileError(source.path, f"not checked: the analysis {exc} (file-time-limit)")
    except ParseFailure as exc:
        return FileError(source.path, str(exc))
    except RecursionError:
        return FileError(source.path, "too deeply nested to analyse")


def _analyze_file(args: tuple[str, dict[str, Target], Config]) -> list[Diagnostic] | FileError:
    path, targets, config = args
    source = read_source(path)
    if isinstance(source, FileError):
        return source
    return _analyze_source(source, targets, config)


def _map(func, items: list, jobs: int | None):  # type: ignore[no-untyped-def]
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers <= 1 or len(items) < PARALLEL_THRESHOLD:
        return [func(item) for item in items]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(func, items, chunksize=max(1, len(items) // (workers * 4))))


def check_files(files: list[Path], config: Config, jobs: int | None = None) -> RunResult:
    result = RunResult()
    indexed = _map(_index_file, [(str(f), config) for f in files], jobs)
    indexes: list[ModuleIndex] = []
    for item in indexed:
        if isinstance(item, FileError):
            result.errors.append(item)
        elif item is not None:
            indexes.append(item)
    result.files_checked = len(files) - len(result.errors)
    targets = Project(indexes, config).targets(scope_all=config.scope == "all")
    work = [(path, t, config) for path, t in sorted(targets.items()) if t]
    for item in _map(_analyze_file, work, jobs):
        if isinstance(item, FileError):
            result.errors.append(item)
            result.files_checked -= 1
        else:
            result.diagnostics.extend(item)
    result.diagnostics.sort(key=Diagnostic.sort_key)
    result.errors.sort(key=lambda e: e.filename)
    return result


def check_paths(paths: list[Path], config: Config, jobs: int | None = None) -> RunResult:
    files, problems = discover(paths, config)
    result = check_files(files, config, jobs)
    result.errors = sorted(result.errors + problems, key=lambda e: e.filename)
    return result


def check_source(source: SourceFile, config: Config, others: Sequence[ModuleIndex] = ()) -> list[Diagnostic] | FileError:
    """Check one in-memory source (stdin, editors, the fix loop); rules in ``others`` (first-pass
    indexes of other modules) may reach helpers in it."""
    index = index_source(source, config)
    if isinstance(index, FileError):
        return index
    if index is None:
        return []
    indexes = [i for i in others if i.path != source.path] + [index]
    targets = Project(indexes, config).targets(scope_all=config.scope == "all")
    return _analyze_source(source, targets.get(source.path, {}), config)
