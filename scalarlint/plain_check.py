"""A check that reports and writes nothing: the source on stdin and the paths checked, the
baseline applied, the report printed with the fixes it may apply marked; then exit.

The last step of ``scalarlint check`` when it neither fixes, marks nor watches
(``check_command`` decides which step a run takes).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from scalarlint.analysis.sources import decode_source
from scalarlint.config import Config
from scalarlint.diagnostics import FileError
from scalarlint.read_errors import locate
from scalarlint.run_report import ReportOptions, emit_report, exit_code, warn_if_nothing_found

if TYPE_CHECKING:
    from scalarlint.analysis.sources import SourceFile
    from scalarlint.baseline import Baseline
    from scalarlint.cache import Cache
    from scalarlint.check_options import CheckOptions
    from scalarlint.engine import RunResult


def check_and_report(
    options: CheckOptions, targets: list[Path], stdin_name: str | None, config: Config, baseline: Baseline | None,
    report: ReportOptions,
) -> None:
    """Check the source on stdin (when ``stdin_name`` is given) and ``targets``, keep the
    findings the baseline does not hold, and report them; then exit."""
    from scalarlint.engine import RunResult, check_paths

    result = RunResult()
    stdin_sources: dict[str, SourceFile] = {}
    if stdin_name is not None:
        stdin_sources = _check_stdin(stdin_name, config, result)
    if targets:
        run = check_paths(targets, config, options.jobs, None if options.no_cache else open_cache(config))
        if options.verbose:
            click.echo(_cache_summary(run), err=True)
        result.diagnostics.extend(run.diagnostics)
        result.errors.extend(run.errors)
        result.files_checked += run.files_checked
        warn_if_nothing_found(run.files_checked, run.errors)
    if baseline is not None:
        result.diagnostics = baseline.report_only_new(result.diagnostics, stdin_sources)
    _report(result, report, options.unsafe_fixes)


def _check_stdin(name: str, config: Config, result: RunResult) -> dict[str, SourceFile]:
    """Check the source on stdin, reported under ``name``, into ``result``; the source by its
    path when it could be checked (for the baseline), else nothing."""
    from scalarlint.engine import check_source

    raw = sys.stdin.buffer.read()
    source = decode_source(raw, name)
    source = locate(source, raw) if isinstance(source, FileError) else source
    outcome = source if isinstance(source, FileError) else check_source(source, config)
    if isinstance(outcome, FileError):
        result.errors.append(outcome)
        return {}
    result.diagnostics.extend(outcome)
    result.files_checked += 1
    return {source.path: source}


def _report(result: RunResult, report: ReportOptions, unsafe_fixes: bool) -> None:
    """A plain check's report, with the fixes it may apply marked; then exit."""
    hidden = 0
    display_only = sum(1 for d in result.diagnostics if d.fixes and not d.fixable)
    # unsafe fixes are shown only when asked for (and a clean run need not import the fixers)
    if (report.output_format == "text" or report.statistics) and not unsafe_fixes and result.diagnostics:
        from scalarlint.diagnostics import visible_fixes
        from scalarlint.fix_counts import unsafe_only

        hidden = sum(1 for d in result.diagnostics if unsafe_only(d))
        result.diagnostics = [visible_fixes(d, unsafe=False) for d in result.diagnostics]
    emit_report(report, result.diagnostics, result.errors, result.files_checked)
    if report.output_file is None:
        if hidden and not (report.statistics and report.output_format == "json"):
            from scalarlint.fix_counts import more_with_unsafe

            click.echo(more_with_unsafe(hidden))
        if display_only and report.output_format == "text":
            click.echo(
                f"{display_only} more would get a fix importing `allow_scalar` or `to_host` if the project declared "
                "scalarlint as a dependency (or set `allow-scalar-import`: `scalarlint vendor`)."
            )
    sys.exit(exit_code(result.diagnostics, result.errors, report.exit_zero))


def _cache_summary(run: RunResult) -> str:
    stats = run.stats
    if stats is None:
        return "cache: not used"
    if not (stats.indexed or stats.analysed):
        return f"cache: {stats.files} files, all answered by the cache"
    return f"cache: {stats.files} files, {stats.indexed} read again, {stats.analysed} analysed again"


def open_cache(config: Config) -> Cache:
    """The cache of a run with ``config``, its folder tagged as a cache (``CACHEDIR.TAG``)."""
    from scalarlint.cache import Cache, tag_cache_dir

    cache = Cache.for_config(config)
    tag_cache_dir(cache.root)
    return cache
