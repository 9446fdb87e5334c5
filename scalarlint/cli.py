"""The ``scalarlint`` command line (click): the commands and their options.

What ``check`` does with its options lives in ``check_command``; the other commands are short
and call into the modules that do their work.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from scalarlint import __version__
from scalarlint.check_command import run_check_command
from scalarlint.check_options import CheckOptions
from scalarlint.config import ConfigError, load_config
from scalarlint.run_report import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS

__all__ = ["EXIT_CLEAN", "EXIT_ERROR", "EXIT_FINDINGS", "main"]


def _formats() -> list[str]:
    from scalarlint.output import FORMATS

    return list(FORMATS)


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
def check(**options: Any) -> None:
    """Check PATHS (files or folders; default '.'; '-' reads stdin)."""
    run_check_command(CheckOptions(**options))


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
