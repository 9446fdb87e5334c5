"""What ``scalarlint check`` does with its options: where the source comes from, the
configuration with the command line's overrides, then the one step the run takes (watch,
show the settings or files, join a runtime record, add noqa comments, fix, or check and report).

``cli`` declares the options; the reporting run lives in ``plain_check``, the fixing one in
``fix_command``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from scalarlint.check_options import CheckOptions
from scalarlint.config import Config, ConfigError, load_config
from scalarlint.diagnostics import FileError
from scalarlint.plain_check import check_and_report, open_cache
from scalarlint.run_report import EXIT_CLEAN, EXIT_ERROR, ReportOptions

if TYPE_CHECKING:
    from scalarlint.baseline import Baseline


@dataclass(frozen=True)
class CheckInputs:
    """What a run reads: the paths to check, the name the source on stdin is reported under
    (None: stdin is not read), and the path the configuration is found from."""

    targets: list[Path]
    stdin_name: str | None
    anchor: Path

    @property
    def scope(self) -> list[Path]:
        """Every input, stdin under its name: what a baseline covers."""
        return self.targets + ([Path(self.stdin_name)] if self.stdin_name is not None else [])


def run_check_command(options: CheckOptions) -> None:
    """``scalarlint check``: check (and fix, mark or watch) as the options say; then exit."""
    from scalarlint.engine import quiet_gc

    quiet_gc()
    inputs = _read_inputs(options.paths, options.stdin_filename)
    config = _run_config(options, inputs.anchor)
    if options.watch:
        _watch(inputs.targets, _refuses_watch(options, inputs))
    if options.show_settings or options.show_files:
        _explain_run(inputs.targets, inputs.anchor, config, options.config_file, options.show_settings, options.show_files)
    _note_stale_helper(config)
    baseline = _open_baseline(options.baseline_file, options.update_baseline, options.add_noqa, config, inputs.scope)
    if options.statistics and options.output_format not in ("text", "json"):
        raise click.UsageError("--statistics prints text or json")
    if options.runtime_record is not None:
        from scalarlint.runtime_join import run_check

        sys.exit(run_check(
            inputs.targets, config, options.jobs, options.runtime_record, options.runtime_findings,
            options.output_format, options.output_file, options.exit_zero,
        ))
    if options.add_noqa:
        _add_noqa(options, inputs, config)
    report = ReportOptions(
        options.output_format, options.output_file, options.color, options.exit_zero, options.statistics,
        options.show_fixes, options.show_evidence,
    )
    if options.fix or options.fix_only or options.diff:
        from scalarlint.fix_command import FixMode, check_and_fix

        mode = FixMode(only=options.fix_only, exit_on_fix=options.exit_on_fix, baseline=baseline)
        check_and_fix(
            inputs.targets, inputs.stdin_name, config, options.unsafe_fixes, options.diff, options.fix_read_only, report, mode
        )
        return
    check_and_report(options, inputs.targets, inputs.stdin_name, config, baseline, report)


def _read_inputs(paths: tuple[Path, ...], stdin_filename: str | None) -> CheckInputs:
    """PATHS ('-': stdin; none: '.'), or stdin alone with ``--stdin-filename`` (the paths are
    then ignored, with a warning each)."""
    use_stdin = any(str(p) == "-" for p in paths)
    targets = [p for p in paths if str(p) != "-"] or ([] if use_stdin else [Path(".")])
    if stdin_filename is not None and not use_stdin:  # as ruff: the name means the source is on stdin
        for ignored in paths:
            click.echo(f"warning: ignoring {ignored} in favour of standard input (--stdin-filename)", err=True)
        use_stdin, targets = True, []
    anchor = Path(stdin_filename) if use_stdin and stdin_filename else (targets[0] if targets else Path("."))
    return CheckInputs(targets, (stdin_filename or "<stdin>") if use_stdin else None, anchor)


def _run_config(options: CheckOptions, anchor: Path) -> Config:
    """The configuration found from ``anchor`` (or ``--config``) with the command line's
    settings over it; a bad one is a usage error."""
    try:
        config = load_config(anchor if anchor.exists() else Path.cwd(), options.config_file)
        config = config.with_overrides(
            select=_codes(options.select), ignore=_codes(options.ignore), scope=options.scope,
            file_time_limit=options.file_time_limit,
            confidence=options.confidence.lower() if options.confidence else None,
            cache_dir=str(options.cache_dir.resolve()) if options.cache_dir is not None else None,
        )
        config = _extended(config, options.extend_select, options.extend_exclude, options.target_version)
        config.enabled_codes()
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from exc
    return config


def _codes(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(c.strip() for c in value.split(",") if c.strip())


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


def _refuses_watch(options: CheckOptions, inputs: CheckInputs) -> bool:
    """Whether the run asks for something a watch cannot repeat."""
    return (
        inputs.stdin_name is not None or options.add_noqa or options.show_files or options.show_settings
        or options.update_baseline or options.runtime_record is not None or options.diff
    )


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
            ctx.invoke(ctx.command, **params)
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


def _note_stale_helper(config: Config) -> None:
    """Once per run, on stderr: the vendored ``allow_scalar`` helper that ``allow-scalar-import``
    names is older than this scalarlint's, or was edited. A note, not a finding: the exit code
    stays that of the check."""
    from scalarlint.vendored.command import stale_copy_note

    note = stale_copy_note(config)
    if note is not None:
        click.echo(note, err=True)


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


def _add_noqa(options: CheckOptions, inputs: CheckInputs, config: Config) -> None:
    """``--add-noqa``: mark every finding in the files checked; then exit."""
    if inputs.stdin_name is not None or options.fix or options.fix_only or options.diff:
        raise click.UsageError("--add-noqa writes the files it checks: not with '-', --fix, --fix-only or --diff")
    from scalarlint.add_noqa import add_noqa_command

    sys.exit(add_noqa_command(inputs.targets, config, options.jobs, None if options.no_cache else open_cache(config)))
