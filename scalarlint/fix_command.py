"""``scalarlint check --fix`` / ``--diff``: fix in memory (``scalarlint.fixers.engine``), then
write each changed file atomically or print the diff, and report what remains.

Every count the user reads comes from ``scalarlint.fix_counts``: ``Would fix N`` and
``Fixed N`` count the findings the report marked fixable that the fixes removed, so they equal
the report's ``N fixable`` whenever every fix applies.

Exit codes: 2 on any error (including a file changed on disk meanwhile, which is not
overwritten); with ``--diff`` 1 when something would change; with ``--fix`` 1 when findings
remain (as a plain check does), else 0. ``--fix-only`` (ruff's) reports nothing but the count of
fixes and exits 0; with ``--exit-non-zero-on-fix`` either exits 1 once a file was rewritten, so
a pre-commit hook or CI job stops on fixes it made even when nothing remains.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from scalarlint.analysis.sources import decode_source
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, FileError, visible_fixes
from scalarlint.read_errors import locate, locate_on_disk
from scalarlint.fix_counts import FixTally, diff_summary, fix_summary, plural, tally, unsafe_only
from scalarlint.run_report import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, ReportOptions, emit_report, exit_code, warn_if_nothing_found

if TYPE_CHECKING:
    from scalarlint.analysis.sources import SourceFile
    from scalarlint.baseline import Baseline
    from scalarlint.fixers.outcomes import FileFix, FixRun


@dataclass(frozen=True)
class FixMode:
    """How a fix run ends. ``only``: ``--fix-only``, no report of what remains and exit 0;
    ``exit_on_fix``: ``--exit-non-zero-on-fix``, exit 1 whenever a file was rewritten;
    ``baseline``: report only the remaining findings it does not hold."""

    only: bool = False
    exit_on_fix: bool = False
    baseline: Baseline | None = None


def check_and_fix(
    targets: list[Path], stdin_name: str | None, config: Config, unsafe: bool, diff: bool, fix_read_only: bool, report: ReportOptions,
    mode: FixMode = FixMode(),
) -> None:
    """Fix ``targets`` (and the source on stdin when ``stdin_name`` is given), then exit."""
    run, stdin_fix = _fix_in_memory(targets, stdin_name, config, unsafe)
    if diff:
        _print_diff(run, unsafe)
    remaining: list[Diagnostic] = []
    counts = FixTally()
    rewritten = 0
    for fixed in run.files:
        if fixed is not stdin_fix and fixed.outcome.text != fixed.source.text:
            from scalarlint.fixers.write_back import write_atomic

            error = write_atomic(fixed, root=Path(config.root), read_only=fix_read_only)
            if error is not None:  # left as it was: report the file as it is on disk
                run.errors.append(error)
                remaining.extend(fixed.outcome.original)
                continue
            rewritten += 1
        remaining.extend(fixed.outcome.remaining)
        counts.add(tally(fixed.outcome.original, fixed.outcome.remaining, unsafe))
    if stdin_fix is not None and stdin_fix.outcome.text != stdin_fix.source.text:
        rewritten += 1
    if mode.baseline is not None and not mode.only:  # the fixed files are on disk; stdin's is not
        fixed_stdin = {} if stdin_fix is None else {stdin_fix.path: _fixed_source(stdin_fix)}
        remaining = mode.baseline.report_only_new(remaining, fixed_stdin)
    hidden = 0 if unsafe else sum(1 for d in remaining if unsafe_only(d))
    remaining = sorted((visible_fixes(d, unsafe) for d in remaining), key=Diagnostic.sort_key)
    errors = sorted(run.errors, key=lambda e: e.filename)

    to_stderr = stdin_fix is not None  # stdout carries the fixed source
    if stdin_fix is not None:
        from scalarlint.fixers.write_back import encoded

        sys.stdout.flush()
        sys.stdout.buffer.write(encoded(stdin_fix.outcome.text, stdin_fix.source))
        sys.stdout.flush()
    fixed_exit = EXIT_FINDINGS if mode.exit_on_fix and rewritten else EXIT_CLEAN
    if mode.only:  # ruff's --fix-only: the count of fixes, and the files that could not be checked
        click.echo(f"Fixed {plural(len(counts.fixed), 'finding')}.", err=to_stderr)
        for error in errors:
            click.echo(error.describe(), err=True)
        sys.exit(EXIT_ERROR if errors else fixed_exit)
    emit_report(report, remaining, errors, run.files_checked, to_stderr)
    if counts.fixed or counts.carried or counts.raised or hidden or report.show_fixes:
        summary_to_stderr = to_stderr or report.output_format != "text" or report.output_file is not None
        click.echo(fix_summary(counts, len(remaining), hidden, report.show_fixes), nl=False, err=summary_to_stderr)
    sys.exit(max(exit_code(remaining, errors, report.exit_zero), fixed_exit))


def _fixed_source(fixed: FileFix) -> SourceFile:
    """The fixed text as a source of its own (for a notebook, with its cells where they now are)."""
    from scalarlint.fixers.write_back import encoded

    source = decode_source(encoded(fixed.outcome.text, fixed.source), fixed.path)
    return fixed.source if isinstance(source, FileError) else source


def _fix_in_memory(targets: list[Path], stdin_name: str | None, config: Config, unsafe: bool) -> tuple[FixRun, FileFix | None]:
    from scalarlint.fixers import engine as fx

    run = fx.FixRun()
    stdin_fix: fx.FileFix | None = None
    if stdin_name is not None:
        raw = sys.stdin.buffer.read()
        source = decode_source(raw, stdin_name)
        outcome = fx.fix_source(source, config, unsafe) if not isinstance(source, FileError) else None
        if isinstance(source, FileError):
            run.errors.append(locate(source, raw))
        elif outcome is not None and outcome.error is not None:
            run.errors.append(outcome.error)
        elif outcome is not None:
            stdin_fix = fx.FileFix(source, outcome, None)
            run.files.append(stdin_fix)
            run.files_checked += 1
    if targets:
        found = fx.fix_paths(targets, config, unsafe)
        run.files.extend(found.files)
        run.errors.extend(locate_on_disk(e) for e in found.errors)
        run.files_checked += found.files_checked
        warn_if_nothing_found(found.files_checked, found.errors)
    return run, stdin_fix


def _print_diff(run: FixRun, unsafe: bool) -> None:
    """``--diff``: the patch on stdout, then on stderr what it would fix (counted as the report
    counts), the unsafe fixes it leaves out (``N fixes available with `--unsafe-fixes```, as
    ruff says it) and the files that could not be checked; then exit."""
    from scalarlint.fixers.diffs import diff_bytes

    changed = run.changed
    for fixed in changed:
        sys.stdout.flush()
        sys.stdout.buffer.write(diff_bytes(fixed))
    sys.stdout.flush()
    counts = FixTally()
    for fixed in changed:
        counts.add(tally(fixed.outcome.original, fixed.outcome.remaining, unsafe))
    hidden = 0 if unsafe else sum(1 for f in run.files for d in f.outcome.remaining if unsafe_only(d))
    click.echo(diff_summary(counts, len(changed), hidden), err=True)
    for error in run.errors:
        click.echo(error.describe(), err=True)
    sys.exit(EXIT_ERROR if run.errors else (EXIT_FINDINGS if changed else EXIT_CLEAN))
