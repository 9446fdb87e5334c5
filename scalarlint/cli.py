"""The ``scalarlint`` command line (click)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from scalarlint import __version__
from scalarlint.analysis.sources import decode_source
from scalarlint.config import Config, ConfigError, load_config
from scalarlint.diagnostics import FileError
from scalarlint.read_errors import locate
from scalarlint.run_report import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, ReportOptions, emit_report, exit_code, warn_if_nothing_found

if TYPE_CHECKING:
    from scalarlint.analysis.sources import SourceFile
    from scalarlint.baseline import Baseline
    from scalarlint.engine import RunResult

__all__ = ["EXIT_CLEAN", "EXIT_ERROR", "EXIT_FINDINGS", "main"]


def _formats() -> list[str]:
    from scalarlint.output import FORMATS

    return list(FORMATS)


def _codes(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(c.strip() for c in value.split(",") if c.strip())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="scalarlint")
def main() -> None:
    """Find and fix scalar indexing in automatic-differentiation rules, so they run on GPUs."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--select", help="Comma-separated codes or prefixes to enable (e.g. SL101,SL107 or ALL).")
@click.option("--extend-select", help="Codes to enable on top of the configured ones.")
@click.option("--ignore", help="Comma-separated codes or prefixes to disable.")
@click.option("--extend-exclude", help="Comma-separated patterns to exclude on top of the configured ones (a pattern with a '/' is relative to the current folder).")
@click.option("--target-version", help="The oldest Python the checked code must run on (py37 ... py314, or 3.7 ... 3.14): a file using newer syntax is reported as SL001 instead of checked. Default: any syntax up to 3.14.")
@click.option("--scope", type=click.Choice(["rules", "all"]), help="Check only AD rules and their helpers, or every function.")
@click.option("--output-format", "--format", "output_format", type=click.Choice(sorted(_formats())), default="text", show_default=True, help="Report format (--format: the older name).")
@click.option("--output-file", "-o", type=click.Path(path_type=Path, dir_okay=False), help="Write the report to this file instead of stdout.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--stdin-filename", help="Read the source from stdin and report it under this name (as '-' does; other paths are then ignored).")
@click.option("--config", "config_file", type=click.Path(path_type=Path, dir_okay=False), help="Read settings from this TOML file.")
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes (default: every core).")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: only on a terminal).")
@click.option("--fix/--no-fix", default=False, help="Apply safe fixes, then report what is left (--no-fix: do not; the last one given wins).")
@click.option("--fix-only", is_flag=True, help="Apply safe fixes and report nothing else; exit 0 (see --exit-non-zero-on-fix).")
@click.option("--exit-non-zero-on-fix", "exit_on_fix", is_flag=True, help="With --fix or --fix-only, exit 1 when a file was rewritten, even if no findings remain.")
@click.option("--add-noqa", is_flag=True, help="Add `# noqa: SLxxx` to every line with a finding (extending a noqa comment already there), then exit.")
@click.option("--baseline", "baseline_file", type=click.Path(path_type=Path, dir_okay=False), help="Report only findings not in this baseline file (default: the baseline setting); where it does not exist yet, write it from this run's findings and exit 0.")
@click.option("--update-baseline", is_flag=True, help="Rewrite the baseline from this run's findings.")
@click.option("--unsafe-fixes", is_flag=True, help="Also offer unsafe fixes (and apply them with --fix or --diff).")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff and write nothing (exit 1 if anything would change).")
@click.option("--show-fixes", is_flag=True, help="List the findings that were fixed (with --fix) and say why the others have no fix.")
@click.option("--fix-read-only", is_flag=True, help="With --fix, also rewrite files without write permission.")
@click.option("--confidence", type=click.Choice(["high", "medium", "low"], case_sensitive=False), default=None, help="Report findings at this confidence or above (default: the confidence setting, else medium).")
@click.option("--show-evidence", is_flag=True, help="In text, follow each finding with its confidence and why it was reported.")
@click.option("--file-time-limit", type=click.FloatRange(min=0), default=None, help="Seconds each file may take per pass before it is reported instead (default 60; 0: no limit).")
@click.option("--statistics", is_flag=True, help="Print the number of findings per check (and how many are fixable) instead of each finding.")
@click.option("--verbose", "-v", is_flag=True, help="Also say on stderr how much of the run the cache answered.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache (see `scalarlint clean`).")
@click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False), help="Cache folder (default: the cache-dir setting, else $XDG_CACHE_HOME/scalarlint).")
@click.option("--show-files", is_flag=True, help="List the files this run would check, and exit.")
@click.option("--show-settings", is_flag=True, help="Print the configuration this run would use, and exit.")
@click.option("--runtime", "runtime_record", type=click.Path(path_type=Path, dir_okay=False), help="Join the findings with a `pytest --scalarlint-record` file: mark those confirmed by the tests and list accesses the checker missed.")
@click.option("--watch", is_flag=True, help="Check, then check again whenever a Python file, notebook or configuration file under PATHS changes (needs the watch extra: watchfiles).")
@click.option("--runtime-findings", is_flag=True, help="With --runtime, report the accesses seen at runtime but not reported as findings.")
def check(
    paths: tuple[Path, ...],
    select: str | None,
    extend_select: str | None,
    ignore: str | None,
    extend_exclude: str | None,
    target_version: str | None,
    scope: str | None,
    output_format: str,
    output_file: Path | None,
    exit_zero: bool,
    stdin_filename: str | None,
    config_file: Path | None,
    jobs: int | None,
    color: bool | None,
    fix: bool = False,
    fix_only: bool = False,
    exit_on_fix: bool = False,
    add_noqa: bool = False,
    baseline_file: Path | None = None,
    update_baseline: bool = False,
    unsafe_fixes: bool = False,
    diff: bool = False,
    show_fixes: bool = False,
    fix_read_only: bool = False,
    statistics: bool = False,
    show_files: bool = False,
    show_settings: bool = False,
    file_time_limit: float | None = None,
    confidence: str | None = None,
    show_evidence: bool = False,
    no_cache: bool = False,
    cache_dir: Path | None = None,
    verbose: bool = False,
    runtime_record: Path | None = None,
    runtime_findings: bool = False,
    watch: bool = False,
) -> None:
    """Check PATHS (files or folders; default '.'; '-' reads stdin)."""
    from scalarlint.engine import RunResult, check_paths, check_source, quiet_gc

    quiet_gc()
    use_stdin = any(str(p) == "-" for p in paths)
    targets = [p for p in paths if str(p) != "-"] or ([] if use_stdin else [Path(".")])
    if stdin_filename is not None and not use_stdin:  # as ruff: the name means the source is on stdin
        for ignored in paths:
            click.echo(f"warning: ignoring {ignored} in favour of standard input (--stdin-filename)", err=True)
        use_stdin, targets = True, []
    anchor = Path(stdin_filename) if use_stdin and stdin_filename else (targets[0] if targets else Path("."))
    try:
        config = load_config(anchor if anchor.exists() else Path.cwd(), config_file)
        config = config.with_overrides(
            select=_codes(select), ignore=_codes(ignore), scope=scope, file_time_limit=file_time_limit,
            confidence=confidence.lower() if confidence else None,
            cache_dir=str(cache_dir.resolve()) if cache_dir is not None else None,
        )
        config = _extended(config, extend_select, extend_exclude, target_version)
        config.enabled_codes()
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from exc
    if watch:
        _watch(targets, use_stdin or add_noqa or show_files or show_settings or update_baseline or runtime_record is not None or diff)
    if show_settings or show_files:
        _explain_run(targets, anchor, config, config_file, show_settings, show_files)
    _note_stale_helper(config)
    baseline = _open_baseline(baseline_file, update_baseline, add_noqa, config, targets + ([Path(stdin_filename or "<stdin>")] if use_stdin else []))
    if statistics and output_format not in ("text", "json"):
        raise click.UsageError("--statistics prints text or json")
    if runtime_record is not None:
        from scalarlint.runtime_join import run_check

        sys.exit(run_check(targets, config, jobs, runtime_record, runtime_findings, output_format, output_file, exit_zero))

    if add_noqa:
        if use_stdin or fix or fix_only or diff:
            raise click.UsageError("--add-noqa writes the files it checks: not with '-', --fix, --fix-only or --diff")
        from scalarlint.add_noqa import add_noqa_command

        sys.exit(add_noqa_command(targets, config, jobs, None if no_cache else _open_cache(config)))

    report = ReportOptions(output_format, output_file, color, exit_zero, statistics, show_fixes, show_evidence)
    if fix or fix_only or diff:
        from scalarlint.fix_command import FixMode, check_and_fix

        mode = FixMode(only=fix_only, exit_on_fix=exit_on_fix, baseline=baseline)
        check_and_fix(targets, (stdin_filename or "<stdin>") if use_stdin else None, config, unsafe_fixes, diff, fix_read_only, report, mode)
        return

    result = RunResult()
    stdin_sources: dict[str, SourceFile] = {}
    if use_stdin:
        raw = sys.stdin.buffer.read()
        source = decode_source(raw, stdin_filename or "<stdin>")
        source = locate(source, raw) if isinstance(source, FileError) else source
        outcome = source if isinstance(source, FileError) else check_source(source, config)
        if isinstance(outcome, FileError):
            result.errors.append(outcome)
        else:
            result.diagnostics.extend(outcome)
            result.files_checked += 1
            stdin_sources[source.path] = source
    if targets:
        run = check_paths(targets, config, jobs, None if no_cache else _open_cache(config))
        if verbose:
            click.echo(_cache_summary(run), err=True)
        result.diagnostics.extend(run.diagnostics)
        result.errors.extend(run.errors)
        result.files_checked += run.files_checked
        warn_if_nothing_found(run.files_checked, run.errors)
    if baseline is not None:
        result.diagnostics = baseline.report_only_new(result.diagnostics, stdin_sources)
    _report(result, report, unsafe_fixes)


def _watch(targets: list[Path], refused: bool) -> None:
    """``--watch``: this same command without it, once and after each change; then exit.
    Each run loads the configuration anew and ends as a plain run does (its exit code is kept,
    not raised); a usage error in a run (a configuration broken meanwhile) is printed and the
    watch goes on."""
    from scalarlint.watch import WatchSession, WatchUnavailable, watch

    if refused:
        raise click.UsageError("--watch checks again and again: not with '-', --add-noqa, --diff, --update-baseline, --runtime or --show-*")
    ctx = click.get_current_context()
    params = {**ctx.params, "watch": False}

    def run_once() -> int:
        try:
            ctx.invoke(check, **params)
        except SystemExit as done:
            return done.code if isinstance(done.code, int) else EXIT_ERROR
        except click.ClickException as exc:
            exc.show()
            return EXIT_ERROR
        return EXIT_CLEAN

    folders = sorted({str((t if t.is_dir() else t.parent).resolve()) for t in targets})
    session = WatchSession(run_once, lambda line: click.echo(line, err=True), click.clear)
    try:
        sys.exit(watch([Path(f) for f in folders], session))
    except WatchUnavailable as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_ERROR)


def _note_stale_helper(config: Config) -> None:
    """Once per run, on stderr: the vendored ``allow_scalar`` helper that ``allow-scalar-import``
    names is older than this scalarlint's, or was edited. A note, not a finding: the exit code
    stays that of the check."""
    from scalarlint.vendored.command import stale_copy_note

    note = stale_copy_note(config)
    if note is not None:
        click.echo(note, err=True)


def _extended(config: Config, extend_select: str | None, extend_exclude: str | None, target_version: str | None) -> Config:
    """The configuration with the command line's additions, merged as ruff merges them: the
    codes of ``--extend-select`` after the selection (configured, or ``--select``), the
    patterns of ``--extend-exclude`` after the configured ``exclude`` and ``extend-exclude``.
    A bad value is a ``ConfigError`` naming the option."""
    if extend_select:
        config = config.with_overrides(select=config.select + _codes(extend_select))  # type: ignore[operator]
    if extend_exclude:
        from scalarlint.files import patterns_from_cwd

        config = config.with_overrides(extend_exclude=config.extend_exclude + patterns_from_cwd(_codes(extend_exclude) or (), Path(config.root)))
    if target_version is not None:
        from scalarlint.target_version import parse_target_version

        try:
            config = config.with_overrides(target_version=parse_target_version(target_version))
        except ConfigError as exc:
            raise ConfigError(f"--target-version: {exc}") from exc
    return config


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
                f"{display_only} more would get an `allow_scalar` fix if the project declared scalarlint as a "
                "dependency (or set `allow-scalar-import`)."
            )
    sys.exit(exit_code(result.diagnostics, result.errors, report.exit_zero))


def _open_baseline(path: Path | None, update: bool, add_noqa: bool, config: Config, scope: list[Path]) -> Baseline | None:
    """The baseline of a run over ``scope`` (``--baseline``, else the setting), read before the
    run starts; a broken one, or one asked for with ``--add-noqa`` (which marks every finding),
    is a usage error. None with ``--add-noqa`` or without a baseline."""
    if add_noqa and (path is not None or update):
        raise click.UsageError("--add-noqa marks every finding: not with --baseline or --update-baseline")
    if add_noqa or not (path is not None or update or config.baseline):
        return None
    from scalarlint.baseline import Baseline

    try:
        return Baseline.open(path, config, update, scope)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from exc


def _cache_summary(run) -> str:  # type: ignore[no-untyped-def]
    stats = run.stats
    if stats is None:
        return "cache: not used"
    if not (stats.indexed or stats.analysed):
        return f"cache: {stats.files} files, all answered by the cache"
    return f"cache: {stats.files} files, {stats.indexed} read again, {stats.analysed} analysed again"


def _open_cache(config: Config):  # type: ignore[no-untyped-def]
    from scalarlint.cache import Cache, tag_cache_dir

    cache = Cache.for_config(config)
    tag_cache_dir(cache.root)
    return cache


def _explain_run(
    targets: list[Path], anchor: Path, config: Config, config_file: Path | None, settings: bool, files: bool
) -> None:
    """``--show-settings`` / ``--show-files``: what a run would use and check; then exit."""
    from scalarlint.config import find_config
    from scalarlint.files import discover
    from scalarlint.output.settings import render_settings

    if settings:
        source = config_file.resolve() if config_file else find_config(anchor if anchor.exists() else Path.cwd())
        click.echo(render_settings(config, source), nl=False)
    problems: list[FileError] = []
    if files:
        found, problems = discover(targets or [Path(".")], config)
        for path in found:
            click.echo(str(path))
        for problem in problems:
            click.echo(problem.describe(), err=True)
    sys.exit(EXIT_ERROR if problems else EXIT_CLEAN)


@main.command()
@click.argument("code", metavar="CODE_OR_NAME", required=False)
@click.option("--all", "show_all", is_flag=True, help="Print the documentation of every check.")
@click.option("--markdown", is_flag=True, help="Add the link anchors used by docs/checks.md.")
@click.option("--output-format", "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True, help="text, or json (one object for a check, an array for --all or the listing).")
def explain(code: str | None, show_all: bool, markdown: bool, output_format: str) -> None:
    """Print what a check flags, why it hurts on a GPU, an example, and the fix (SL001-SL003:
    what keeps a file from being checked). CODE_OR_NAME: SL101 or scalar-getindex; none lists
    the checks."""
    from scalarlint.explain import Catalogue, UnknownCheck, render_json, render_text

    catalogue = Catalogue.load()
    if code is not None and not show_all:
        try:
            chosen = [catalogue.find(code)]
        except UnknownCheck as exc:
            raise click.UsageError(str(exc)) from exc
    else:
        chosen = list(catalogue.infos.values())
    if output_format == "json":
        click.echo(render_json(catalogue, chosen, one=code is not None and not show_all), nl=False)
    elif code is None and not show_all:
        click.echo(catalogue.listing(), nl=False)
    else:
        click.echo(render_text(chosen, markdown), nl=False)


@main.command()
@click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False), help="The cache folder (default: the configured one).")
@click.option("--stats", is_flag=True, help="Say what the cache holds (entries and size per kind, last use, bounds) and remove nothing.")
@click.option("--prune", is_flag=True, help="Remove only what is past the bounds (cache-max-mb, cache-max-days) now, then say what is left.")
def clean(cache_dir: Path | None, stats: bool, prune: bool) -> None:
    """Remove the cache (findings and first-pass results of earlier runs)."""
    from scalarlint import cache_limits
    from scalarlint.cache import cache_dir_for, clean as remove

    try:
        config = load_config(Path.cwd())
        root = cache_dir if cache_dir is not None else cache_dir_for(config)
        if stats or prune:
            limits = cache_limits.Limits.of(config.cache_max_mb, config.cache_max_days)
            if prune and root.is_dir():
                pruned = cache_limits.prune(root, limits)
                click.echo(f"Removed {pruned.removed} entries ({cache_limits.report_size(pruned.freed)}) past the bounds.")
            where = "--cache-dir" if cache_dir is not None else ("the cache-dir setting" if config.cache_dir else "per user: $XDG_CACHE_HOME/scalarlint")
            click.echo(cache_limits.report(cache_limits.scan(root), limits, where), nl=False)
            return
        removed = remove(root)
    except (ConfigError, ValueError, OSError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    click.echo(f"Removed {root}" if removed else f"No cache at {root}")


@main.command()
@click.option("--path", "path", type=click.Path(path_type=Path), help="Where to write it: a .py file, or a package folder (which gets _allow_scalar.py). Default: the file allow-scalar-import names, else _allow_scalar.py in the project's single top-level package, else in the project root.")
@click.option("--force", is_flag=True, help="Also replace a copy that was edited or that a newer scalarlint wrote (never a file scalarlint did not write).")
@click.option("--configure", is_flag=True, help="Also set allow-scalar-import to the written module in the configuration file (pyproject.toml), where that can be done safely.")
@click.option("--config", "config_file", type=click.Path(path_type=Path, dir_okay=False), help="Read (and with --configure, write) settings in this TOML file.")
def vendor(path: Path | None, force: bool, configure: bool, config_file: Path | None) -> None:
    """Write a dependency-free allow_scalar helper into your project, for the allow_scalar fix to
    import (with `allow-scalar-import` pointing at it) instead of scalarlint.runtime. It uses
    scalarlint.runtime where installed, else PyTorch's and CuPy's own sync switches, else does
    nothing. Run it again to update the copy."""
    from scalarlint.vendored.command import VendorError, vendor as write_helper

    start = Path.cwd()
    if path is not None:
        folder = path if path.is_dir() else path.parent
        start = folder if folder.is_dir() else start
    try:
        config = load_config(start, config_file)
        outcome = write_helper(config, path, force, configure, config_file)
    except (ConfigError, VendorError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    for line in outcome.messages:
        click.echo(line)


@main.command()
def lsp() -> None:
    """Run the language server on stdin/stdout (diagnostics and quick fixes in editors)."""
    # Imported here, not at the top: the LSP libraries are an optional extra, and every other
    # command (and `import scalarlint.cli`) must work and start fast without them.
    try:
        from scalarlint.lsp.server import start
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs"):
            raise
        click.echo(
            f"scalarlint lsp needs the optional LSP dependencies ({exc.name} is missing).\n"
            "Install them with: pip install 'scalarlint[lsp]'",
            err=True,
        )
        sys.exit(EXIT_ERROR)
    start()


if __name__ == "__main__":  # pragma: no cover
    main()
