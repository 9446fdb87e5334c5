"""The ``scalarlint`` command line (click)."""

from __future__ import annotations

import functools

import sys
from pathlib import Path

import click

from scalarlint import __version__
from scalarlint.analysis.sources import decode_source
from scalarlint.config import ALL_CODES, Config, ConfigError, load_config
from scalarlint.diagnostics import Diagnostic, FileError

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


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
@click.option("--scope", type=click.Choice(["rules", "all"]), help="Check only AD rules and their helpers, or every function.")
@click.option("--format", "output_format", type=click.Choice(sorted(_formats())), default="text", show_default=True)
@click.option("--output-file", "-o", type=click.Path(path_type=Path, dir_okay=False), help="Write the report to this file instead of stdout.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--stdin-filename", help="Name to report for source read from stdin ('-').")
@click.option("--config", "config_file", type=click.Path(path_type=Path, dir_okay=False), help="Read settings from this TOML file.")
@click.option("--jobs", "-j", type=int, default=None, help="Worker processes (default: every core).")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: only on a terminal).")
@click.option("--fix", is_flag=True, help="Apply safe fixes, then report what is left.")
@click.option("--unsafe-fixes", is_flag=True, help="Also offer unsafe fixes (and apply them with --fix or --diff).")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff and write nothing (exit 1 if anything would change).")
@click.option("--show-fixes", is_flag=True, help="List the findings that were fixed (with --fix) and say why the others have no fix.")
@click.option("--fix-read-only", is_flag=True, help="With --fix, also rewrite files without write permission.")
@click.option("--file-time-limit", type=click.FloatRange(min=0), default=None, help="Seconds each file may take per pass before it is reported instead (default 60; 0: no limit).")
@click.option("--statistics", is_flag=True, help="Print the number of findings per check (and how many are fixable) instead of each finding.")
@click.option("--verbose", "-v", is_flag=True, help="Also say on stderr how much of the run the cache answered.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache (see `scalarlint clean`).")
@click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False), help="Cache folder (default: the cache-dir setting, else $XDG_CACHE_HOME/scalarlint).")
@click.option("--show-files", is_flag=True, help="List the files this run would check, and exit.")
@click.option("--show-settings", is_flag=True, help="Print the configuration this run would use, and exit.")
@click.option("--runtime", "runtime_record", type=click.Path(path_type=Path, dir_okay=False), help="Join the findings with a `pytest --scalarlint-record` file: mark those confirmed by the tests and list accesses the checker missed.")
@click.option("--runtime-findings", is_flag=True, help="With --runtime, report the accesses seen at runtime but not reported as findings.")
def check(
    paths: tuple[Path, ...],
    select: str | None,
    extend_select: str | None,
    ignore: str | None,
    scope: str | None,
    output_format: str,
    output_file: Path | None,
    exit_zero: bool,
    stdin_filename: str | None,
    config_file: Path | None,
    jobs: int | None,
    color: bool | None,
    fix: bool = False,
    unsafe_fixes: bool = False,
    diff: bool = False,
    show_fixes: bool = False,
    fix_read_only: bool = False,
    statistics: bool = False,
    show_files: bool = False,
    show_settings: bool = False,
    file_time_limit: float | None = None,
    no_cache: bool = False,
    cache_dir: Path | None = None,
    verbose: bool = False,
    runtime_record: Path | None = None,
    runtime_findings: bool = False,
) -> None:
    """Check PATHS (files or folders; default '.'; '-' reads stdin)."""
    from scalarlint.engine import RunResult, check_paths, check_source, quiet_gc

    quiet_gc()
    use_stdin = any(str(p) == "-" for p in paths)
    targets = [p for p in paths if str(p) != "-"] or ([] if use_stdin else [Path(".")])
    anchor = Path(stdin_filename) if use_stdin and stdin_filename else (targets[0] if targets else Path("."))
    try:
        config = load_config(anchor if anchor.exists() else Path.cwd(), config_file)
        config = config.with_overrides(
            select=_codes(select), ignore=_codes(ignore), scope=scope, file_time_limit=file_time_limit,
            cache_dir=str(cache_dir.resolve()) if cache_dir is not None else None,
        )
        if extend_select:
            config = config.with_overrides(select=config.select + _codes(extend_select))  # type: ignore[operator]
        config.enabled_codes()
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from exc
    if show_settings or show_files:
        _explain_run(targets, anchor, config, config_file, show_settings, show_files)
    if statistics and output_format not in ("text", "json"):
        raise click.UsageError("--statistics prints text or json")
    if runtime_record is not None:
        from scalarlint.runtime_join import run_check

        sys.exit(run_check(targets, config, jobs, runtime_record, runtime_findings, output_format, output_file, exit_zero))

    if fix or diff:
        _check_and_fix(
            targets, use_stdin, stdin_filename, config, unsafe_fixes, diff, show_fixes, output_format, output_file, color, exit_zero,
            fix_read_only, statistics,
        )
        return

    result = RunResult()
    if use_stdin:
        name = stdin_filename or "<stdin>"
        source = decode_source(sys.stdin.buffer.read(), name)
        outcome = source if isinstance(source, FileError) else check_source(source, config)
        if isinstance(outcome, FileError):
            result.errors.append(outcome)
        else:
            result.diagnostics.extend(outcome)
            result.files_checked += 1
    if targets:
        run = check_paths(targets, config, jobs, None if no_cache else _open_cache(config))
        if verbose:
            click.echo(_cache_summary(run), err=True)
        result.diagnostics.extend(run.diagnostics)
        result.errors.extend(run.errors)
        result.files_checked += run.files_checked

    hidden = 0
    display_only = sum(1 for d in result.diagnostics if d.fixes and not d.fixable)
    # unsafe fixes are shown only when asked for (and a clean run need not import the fixers)
    if (output_format == "text" or statistics) and not unsafe_fixes and result.diagnostics:
        from scalarlint.diagnostics import visible_fixes

        visible = [visible_fixes(d, unsafe=False) for d in result.diagnostics]
        hidden = sum(1 for before, after in zip(result.diagnostics, visible) if before.fixable and not after.fixes)
        result.diagnostics = visible
    render = _renderer(output_format, statistics, show_fixes)
    if output_file is not None:
        report = render(result.diagnostics, result.errors, result.files_checked, False)
        try:
            output_file.write_text(report, encoding="utf-8")
        except OSError as exc:
            raise click.FileError(str(output_file), hint=exc.strerror or str(exc)) from exc
    else:
        use_color = color if color is not None else (output_format == "text" and sys.stdout.isatty())
        click.echo(render(result.diagnostics, result.errors, result.files_checked, use_color), nl=False, color=use_color)
        if hidden and not (statistics and output_format == "json"):
            click.echo(f"{hidden} more fixable with `--fix --unsafe-fixes` (review those changes).")
        if display_only and output_format == "text":
            click.echo(
                f"{display_only} more would get an `allow_scalar` fix if the project declared scalarlint as a "
                "dependency (or set `allow-scalar-import`)."
            )
    if output_format != "text" or output_file is not None:
        for error in result.errors:
            click.echo(f"{error.filename}: error: {error.message}", err=True)
    sys.exit(_exit_code(result.diagnostics, result.errors, exit_zero))


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


def _check_and_fix(
    targets: list[Path],
    use_stdin: bool,
    stdin_filename: str | None,
    config: Config,
    unsafe: bool,
    diff: bool,
    show_fixes: bool,
    output_format: str,
    output_file: Path | None,
    color: bool | None,
    exit_zero: bool,
    fix_read_only: bool = False,
    statistics: bool = False,
) -> None:
    """``check --fix`` / ``--diff``: fix in memory (``scalarlint.fixers.engine``), then write
    each changed file atomically or print the diff, and report the findings that remain.

    Exit codes: 2 on any error (including a file changed on disk meanwhile, which is not
    overwritten); with ``--diff`` 1 when something would change; with ``--fix`` 1 when findings
    remain (as a plain check does), else 0.
    """
    from scalarlint.fixers import engine as fx

    run = fx.FixRun()
    stdin_fix: fx.FileFix | None = None
    if use_stdin:
        source = decode_source(sys.stdin.buffer.read(), stdin_filename or "<stdin>")
        outcome = fx.fix_source(source, config, unsafe) if not isinstance(source, FileError) else None
        if isinstance(source, FileError):
            run.errors.append(source)
        elif outcome is not None and outcome.error is not None:
            run.errors.append(outcome.error)
        elif outcome is not None:
            stdin_fix = fx.FileFix(source, outcome, None)
            run.files.append(stdin_fix)
            run.files_checked += 1
    if targets:
        found = fx.fix_paths(targets, config, unsafe)
        run.files.extend(found.files)
        run.errors.extend(found.errors)
        run.files_checked += found.files_checked

    if diff:
        changed = run.changed
        for fixed in changed:
            sys.stdout.flush()
            sys.stdout.buffer.write(fx.diff_bytes(fixed))
        sys.stdout.flush()
        fixes = sum(len(fx.resolved(f.outcome)) for f in changed)
        click.echo(
            f"Would fix {fixes} finding{'' if fixes == 1 else 's'} in {len(changed)} file{'' if len(changed) == 1 else 's'}."
            if changed else "No fixes available.",
            err=True,
        )
        for error in run.errors:
            click.echo(f"{error.filename}: error: {error.message}", err=True)
        sys.exit(EXIT_ERROR if run.errors else (EXIT_FINDINGS if changed else EXIT_CLEAN))

    remaining: list[Diagnostic] = []
    resolved: list[Diagnostic] = []  # findings of the original text that the fixes made go away
    for fixed in run.files:
        if fixed is not stdin_fix and fixed.outcome.text != fixed.source.text:
            error = fx.write_atomic(fixed, root=Path(config.root), read_only=fix_read_only)
            if error is not None:  # left as it was: report the file as it is on disk
                run.errors.append(error)
                remaining.extend(fixed.outcome.original)
                continue
        remaining.extend(fixed.outcome.remaining)
        resolved.extend(fx.resolved(fixed.outcome))
    remaining = sorted((fx.visible_fixes(d, unsafe) for d in remaining), key=Diagnostic.sort_key)
    errors = sorted(run.errors, key=lambda e: e.filename)

    to_stderr = stdin_fix is not None  # stdout carries the fixed source
    if stdin_fix is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(fx.encoded(stdin_fix.outcome.text, stdin_fix.source))
        sys.stdout.flush()
    render = _renderer(output_format, statistics, show_fixes)
    summary_to_stderr = to_stderr or output_format != "text" or output_file is not None
    if output_file is not None:
        try:
            output_file.write_text(render(remaining, errors, run.files_checked, False), encoding="utf-8")
        except OSError as exc:
            raise click.FileError(str(output_file), hint=exc.strerror or str(exc)) from exc
    else:
        use_color = color if color is not None else (output_format == "text" and not to_stderr and sys.stdout.isatty())
        click.echo(render(remaining, errors, run.files_checked, use_color), nl=False, color=use_color, err=to_stderr)
    if output_format != "text" or output_file is not None or to_stderr:
        for error in errors:
            click.echo(f"{error.filename}: error: {error.message}", err=True)
    if resolved or show_fixes:
        click.echo(_fix_summary(resolved, show_fixes, len(remaining)), nl=False, err=summary_to_stderr)
    sys.exit(_exit_code(remaining, errors, exit_zero))


def _renderer(output_format: str, statistics: bool, show_fixes: bool):  # type: ignore[no-untyped-def]
    """The report's renderer; ``--show-fixes`` adds, in text, why a finding has no fix."""
    from scalarlint.output import FORMATS, render_text

    if statistics:
        return _statistics_renderer(output_format)
    if show_fixes and output_format == "text":
        return functools.partial(render_text, reasons=True)
    return FORMATS[output_format]


def _statistics_renderer(output_format: str):  # type: ignore[no-untyped-def]
    from scalarlint.output.statistics import render_statistics

    as_json = output_format == "json"
    return lambda diagnostics, errors, files, color: render_statistics(diagnostics, errors, files, as_json)


def _explain_run(
    targets: list[Path], anchor: Path, config: Config, config_file: Path | None, settings: bool, files: bool
) -> None:
    """``--show-settings`` / ``--show-files``: what a run would use and check; then exit."""
    from scalarlint.config import find_pyproject
    from scalarlint.files import discover
    from scalarlint.output.settings import render_settings

    if settings:
        source = config_file.resolve() if config_file else find_pyproject(anchor if anchor.exists() else Path.cwd())
        click.echo(render_settings(config, source), nl=False)
    problems: list[FileError] = []
    if files:
        found, problems = discover(targets or [Path(".")], config)
        for path in found:
            click.echo(str(path))
        for problem in problems:
            click.echo(f"{problem.filename}: error: {problem.message}", err=True)
    sys.exit(EXIT_ERROR if problems else EXIT_CLEAN)


def _fix_summary(resolved: list[Diagnostic], details: bool, remaining: int) -> str:
    """``Fixed N findings (M remaining).`` and, with ``--show-fixes``, which per file and code.

    A finding counts as fixed when the fixes made it go away, whether its own fix did it or
    another one (a vectorized search also removes the element accesses that used its index).
    """
    n = len(resolved)
    lines = [f"Fixed {n} finding{'' if n == 1 else 's'} ({remaining} remaining)."]
    if details and resolved:
        by_file: dict[str, dict[tuple[str, str], int]] = {}
        for d in resolved:
            counts = by_file.setdefault(d.filename, {})
            counts[(d.code, d.name)] = counts.get((d.code, d.name), 0) + 1
        for filename, counts in by_file.items():
            lines.append(f"{filename}:")
            lines.extend(f"    {count} x {code} ({name})" for (code, name), count in sorted(counts.items()))
    return "\n".join(lines) + "\n"


def _exit_code(diagnostics: list[Diagnostic], errors: list[FileError], exit_zero: bool) -> int:
    if errors:
        return EXIT_ERROR
    if diagnostics and not exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


@main.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Print the documentation of every check.")
@click.option("--markdown", is_flag=True, help="Add the link anchors used by docs/checks.md.")
def explain(code: str | None, show_all: bool, markdown: bool) -> None:
    """Print what a check flags, why it hurts on a GPU, an example, and the fix."""
    from scalarlint.checks import BY_CODE

    if show_all or code is None:
        chosen = list(BY_CODE.values()) if show_all else []
        if not chosen:
            for c in BY_CODE.values():
                flag = "" if c.INFO.default_enabled else " (opt-in)"
                click.echo(f"{c.INFO.code}  {c.INFO.name:22} {c.INFO.summary}{flag}")
            return
    else:
        key = code.upper()
        if key not in BY_CODE:
            raise click.UsageError(f"unknown check {code!r}; known: {', '.join(ALL_CODES)}")
        chosen = [BY_CODE[key]]
    for c in chosen:
        if markdown:
            click.echo(f'<a id="{c.INFO.code.lower()}"></a>\n')
        click.echo(f"# {c.INFO.code} {c.INFO.name}\n")
        click.echo(c.INFO.summary + (" (off by default)" if not c.INFO.default_enabled else "") + "\n")
        click.echo(c.INFO.doc)


@main.command()
@click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False), help="The cache folder to remove (default: the configured one).")
def clean(cache_dir: Path | None) -> None:
    """Remove the cache (findings and first-pass results of earlier runs)."""
    from scalarlint.cache import cache_dir_for, clean as remove

    try:
        root = cache_dir if cache_dir is not None else cache_dir_for(load_config(Path.cwd()))
        removed = remove(root)
    except (ConfigError, ValueError, OSError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    click.echo(f"Removed {root}" if removed else f"No cache at {root}")


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
