"""One run: files -> first pass (ast index) -> project reach -> second pass (libcst checks).

Both passes run in worker processes when there are enough files to pay for them; small runs
stay in-process. Bad input never stops a run: each unreadable, undecodable or unparsable
file becomes a ``FileError``.
"""

from __future__ import annotations

import dataclasses
import gc
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scalarlint.analysis.index import ModuleIndex
from scalarlint.analysis.project import Project, Target, module_names
from scalarlint.analysis.sources import SourceFile, decode_source, read_regular
from scalarlint.cache import Cache, NoCache, content_digest
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, FileError
from scalarlint.file_passes import analyze_whole, collects_after_file, index_source, is_time_limit, quiet_gc, syntax_error  # noqa: F401 (quiet_gc, syntax_error: re-exported)
from scalarlint.files import discover
from scalarlint.read_errors import locate
from scalarlint.time_limit import TimeLimitExceeded
from scalarlint.workers import PARALLEL_THRESHOLD, Workers, map_by_weight, map_in_workers, map_with_ended_children  # noqa: F401 (PARALLEL_THRESHOLD: the engine's)

SPLIT_LINES = 2500  # a file this long is analysed in groups of linked definitions (memory)
LARGE_BYTES = 120_000  # about 3,000 lines: started first, largest first (balance)
WORKER_BYTES = 450_000  # source in the second pass's workers at once (memory: about 0.5 MB per KB)
SHARED_POOL_BYTES = 8_000_000  # a tree this large keeps its first pass's workers (see workers.py)


@dataclass(frozen=True)
class RunStats:
    """How much of a cached run was computed (the rest came from the cache)."""

    files: int
    indexed: int
    analysed: int
    analysed_paths: tuple[str, ...] = ()


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    files_checked: int = 0
    stats: RunStats | None = field(default=None, compare=False)






def _analyze_source(source: SourceFile, targets: dict[str, Target], config: Config, split: bool = False) -> list[Diagnostic] | FileError:
    """The second pass on one source. ``split``: a file over ``SPLIT_LINES`` lines is analysed
    one group of linked definitions at a time (``group_analysis.analyze_in_groups``), so a run's
    memory follows its largest group, not its largest file."""
    codes = config.codes_for_file(source.path)
    if not codes or not targets:
        return []
    if split and source.notebook is None and source.text.count("\n") > SPLIT_LINES:
        from scalarlint.group_analysis import analyze_in_groups

        return analyze_in_groups(source, targets, config)
    return analyze_whole(source, targets, config)





def _second_pass(items: list[tuple[str, bytes, dict[str, Target], Config]], sizes: list[int], jobs: int | None | Workers) -> list[list[Diagnostic] | FileError]:
    """The second pass over ``items`` in the workers, weighed by size (``workers.map_by_weight``):
    the peak of a whole-tree run follows its largest file, not its two largest."""
    _freeze_run_state()
    limit = items[0][3].file_time_limit if items else None
    return map_with_ended_children(
        _analyze_bytes, items, sizes, limit,
        lambda rest: map_by_weight(_analyze_bytes, rest, [len(item[1]) for item in rest], jobs, budget=WORKER_BYTES, large=LARGE_BYTES),
        lambda item, why: _ended(item[0], "the analysis", why),
    )


def _ended(path: str, what: str, why: BaseException) -> FileError:
    """The error of a file whose child process was ended at the limit (or died)."""
    if isinstance(why, TimeLimitExceeded):
        return FileError(path, f"not checked: {what} {why} (file-time-limit)")
    return FileError(path, f"not checked: {why}")


def _freeze_run_state() -> None:
    """What the run holds so far (indexes, sources) is never garbage: keep it out of every
    later cyclic pass (under ``quiet_gc``), in this process and in the workers forked from it."""
    if collects_after_file():
        gc.freeze()


def _load_analysis() -> None:
    """Import the second pass (libcst and the checks) in this process while the first pass runs
    in the workers: on a tree under ``SHARED_POOL_BYTES`` the second pass's workers are forked
    from this process and start with it loaded, instead of each importing it (about 0.25 s)
    before its first file."""
    import scalarlint.analysis.analyzer  # noqa: F401


def check_files(files: list[Path], config: Config, jobs: int | None = None, cache: Cache | None = None) -> RunResult:
    """One run over ``files``: read each once, then a run entry for the whole tree, else an
    index entry per file and a findings entry per file and set of targets; only what the cache
    does not answer is computed. Without a cache every step is computed. Both passes run in
    one ``workers.Workers``: the same processes on a large tree, a fresh pool for the second
    pass otherwise."""
    with Workers(jobs) as workers:
        return _check_files(files, config, workers, cache)


def _check_files(files: list[Path], config: Config, workers: Workers, cache: Cache | None) -> RunResult:
    store: Cache | NoCache = cache if cache is not None else NoCache()
    contents: dict[str, bytes] = {}
    digests: dict[str, str] = {}
    result = RunResult()
    for f in files:
        read = read_regular(f)
        if isinstance(read, FileError):
            result.errors.append(read)
            continue
        contents[str(f)] = read[0]
        digests[str(f)] = content_digest(read[0]) if cache is not None else ""
    run_key = store.key("run", *(f"{p}\0{d}" for p, d in sorted(digests.items())), *(f"{e.filename}\0{e.message}" for e in result.errors))
    cached = store.load("run", run_key)
    if isinstance(cached, tuple) and len(cached) == 3:
        diagnostics, errors, checked = cached
        return RunResult(list(diagnostics), list(errors), checked, RunStats(files=len(files), indexed=0, analysed=0))

    names = module_names(list(digests))
    index_keys = {p: store.key("index", p, d, *names[p]) for p, d in digests.items()}
    found: dict[str, ModuleIndex | FileError | None] = {}
    for path, key in index_keys.items():
        entry = store.load("index", key)
        if isinstance(entry, (ModuleIndex, FileError)) or entry == _SKIPPED:
            found[path] = None if entry == _SKIPPED else entry
    missing = [p for p in contents if p not in found]
    first_pass = [(p, contents[p], *names[p], config) for p in missing]
    _freeze_run_state()
    shared = sum(map(len, contents.values())) >= SHARED_POOL_BYTES
    indexed = map_with_ended_children(
        _index_bytes, first_pass, [len(contents[p]) for p in missing], config.file_time_limit,
        lambda rest: map_in_workers(_index_bytes, rest, workers, meanwhile=None if shared else _load_analysis),
        lambda item, why: _ended(item[0], "reading it", why),
    )
    for path, item in zip(missing, indexed):
        found[path] = item
        if not is_time_limit(item):
            store.store("index", index_keys[path], _SKIPPED if item is None else item)
    if not shared:
        workers.close()  # the second pass's workers are forked anew, with the second pass imported
    indexes: list[ModuleIndex] = []
    for path in contents:
        item = found[path]
        if isinstance(item, FileError):
            result.errors.append(item)
        elif item is not None:
            indexes.append(item)
    result.files_checked = len(files) - len(result.errors)

    targets = Project(indexes, config).targets(scope_all=config.scope == "all")
    work = {path: t for path, t in sorted(targets.items()) if t}
    findings_keys = {path: findings_key(store, path, digests[path], t) for path, t in work.items()}
    analysed: list[str] = []
    for path, key in findings_keys.items():
        entry = load_findings(store, key, path)
        if entry is not None:
            _collect(result, entry)
        else:
            analysed.append(path)
    items = [(p, contents[p], work[p], config) for p in analysed]
    for path, item in zip(analysed, _second_pass(items, [len(contents[p]) for p in analysed], workers)):
        _collect(result, item)
        store_findings(store, findings_keys[path], item)
    _sorted(result)
    if cache is not None:
        store.store("run", run_key, (result.diagnostics, result.errors, result.files_checked), depends_on=_watched(result.diagnostics))
        result.stats = RunStats(files=len(files), indexed=len(missing), analysed=len(analysed), analysed_paths=tuple(analysed))
        cache.finish()
    return result


def _collect(result: RunResult, item: list[Diagnostic] | FileError) -> None:
    if isinstance(item, FileError):
        result.errors.append(item)
        result.files_checked -= 1
    else:
        result.diagnostics.extend(item)


def _sorted(result: RunResult) -> RunResult:
    result.diagnostics.sort(key=Diagnostic.sort_key)
    result.errors.sort(key=lambda e: e.filename)
    return result


def _index_bytes(args: tuple[str, bytes, str, str, Config]) -> ModuleIndex | FileError | None:
    path, raw, module, package, config = args
    source = decode_source(raw, path)
    if isinstance(source, FileError):
        return locate(source, raw)
    return index_source(source, config, module, package)


def _analyze_bytes(args: tuple[str, bytes, dict[str, Target], Config]) -> list[Diagnostic] | FileError:
    path, raw, targets, config = args
    source = decode_source(raw, path)
    if isinstance(source, FileError):
        return locate(source, raw)
    return _analyze_source(source, targets, config, split=True)


def findings_key(cache: Cache | NoCache, path: str, digest: str, targets: dict[str, Target]) -> str:
    """The key of a file's second pass: its absolute path (the CLI and the editor name files
    differently), its content, and its targets."""
    if not cache.enabled:
        return ""
    return cache.key("findings", os.path.abspath(path), digest, repr(sorted(targets.items())))


def load_findings(cache: Cache | NoCache, key: str, path: str) -> list[Diagnostic] | FileError | None:
    """A cached second pass, its findings named as this run names the file."""
    entry = cache.load("findings", key)
    if isinstance(entry, FileError):
        return dataclasses.replace(entry, filename=path)
    if isinstance(entry, list):
        return [d if d.filename == path else dataclasses.replace(d, filename=path) for d in entry]
    return None


def store_findings(cache: Cache | NoCache, key: str, found: list[Diagnostic] | FileError) -> None:
    """Keep a file's second pass, with the packaging files its fixes depend on; a file that ran
    out of time is not kept."""
    if not is_time_limit(found):
        cache.store("findings", key, found, depends_on=_watched(found))


_SKIPPED = "skipped"  # the index entry of a file with a skip-file directive




def _watched(item: list[Diagnostic] | FileError) -> list[str]:
    """Packaging files that decide whether these findings' fixes may import scalarlint (once
    per file that has fixes)."""
    if not isinstance(item, list):
        return []
    with_fixes = sorted({d.filename for d in item if d.fixes})
    if not with_fixes:
        return []
    from scalarlint.cache import watched_project_files

    return sorted({f for name in with_fixes for f in watched_project_files(name)})


def check_paths(paths: list[Path], config: Config, jobs: int | None = None, cache: Cache | None = None) -> RunResult:
    files, problems = discover(paths, config)
    result = check_files(files, config, jobs, cache)
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
