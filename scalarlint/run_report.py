"""How ``scalarlint check`` hands a run's outcome to the user: the report (in the chosen format,
to stdout or a file), the lines that go to stderr, and the exit code. Shared by a plain check
and by ``--fix`` / ``--diff`` (``scalarlint.fix_command``), so both say things the same way."""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import click

from scalarlint.diagnostics import Diagnostic, FileError

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
NO_PYTHON_FILES = "warning: No Python files found under the given path(s)"

Renderer = Callable[[list[Diagnostic], list[FileError], int, bool], str]


@dataclass(frozen=True)
class ReportOptions:
    """The options of ``check`` that shape the report, not the run."""

    output_format: str = "text"
    output_file: Path | None = None
    color: bool | None = None
    exit_zero: bool = False
    statistics: bool = False
    show_fixes: bool = False
    show_evidence: bool = False


def renderer(options: ReportOptions) -> Renderer:
    """The report's renderer; in text, ``--show-fixes`` adds why a finding has no fix and
    ``--show-evidence`` why it was reported."""
    from scalarlint.output import FORMATS, render_text

    if options.statistics:
        from scalarlint.output.statistics import render_statistics

        as_json = options.output_format == "json"
        return lambda diagnostics, errors, files, color: render_statistics(diagnostics, errors, files, as_json)
    if (options.show_fixes or options.show_evidence) and options.output_format == "text":
        return functools.partial(render_text, reasons=options.show_fixes, evidence=options.show_evidence)
    return FORMATS[options.output_format]


def emit_report(
    options: ReportOptions, diagnostics: list[Diagnostic], errors: list[FileError], files: int, to_stderr: bool = False
) -> None:
    """Render the report into ``--output-file``, else print it (in colour on a terminal, unless
    told otherwise); in formats other than text, and whenever the report is not printed on a
    terminal's stdout, the files that could not be checked are also named on stderr."""
    render = renderer(options)
    if options.output_file is not None:
        try:
            options.output_file.write_text(render(diagnostics, errors, files, False), encoding="utf-8")
        except OSError as exc:
            raise click.FileError(str(options.output_file), hint=exc.strerror or str(exc)) from exc
    else:
        text = options.output_format == "text"
        use_color = options.color if options.color is not None else (text and not to_stderr and sys.stdout.isatty())
        click.echo(render(diagnostics, errors, files, use_color), nl=False, color=use_color, err=to_stderr)
    if options.output_format != "text" or options.output_file is not None or to_stderr:
        for error in errors:
            click.echo(error.describe(), err=True)


def warn_if_nothing_found(files_checked: int, errors: list[FileError]) -> None:
    """An empty selection is worth a word (a mistyped folder, an exclude that takes all), but
    not a failure: as ruff, a warning on stderr and the exit code of a clean run (0)."""
    if files_checked == 0 and not errors:
        click.echo(NO_PYTHON_FILES, err=True)


def exit_code(diagnostics: list[Diagnostic], errors: list[FileError], exit_zero: bool) -> int:
    """2 when a file could not be checked (whatever ``--exit-zero`` says: a file that was not
    checked is not a clean file), 1 for findings, else 0."""
    if errors:
        return EXIT_ERROR
    if diagnostics and not exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN
