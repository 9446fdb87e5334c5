"""A baseline: the findings a code base had when it adopted scalarlint, so that CI fails only
on new ones (as pylint's and mypy's baselines do; ruff offers ``--add-noqa`` instead).

An entry is keyed by the file's path (relative to the baseline's folder, so the file does not
depend on where a run starts), the check's code and the finding's source line, normalised
(stripped, inner whitespace collapsed), with a count per key. Rows are left out on purpose: a
line that moves (code added above it, a function moved within its file) or is re-indented keeps
its entry, while an edited line, a new file, or one more finding than its key counts is new.
Where a key holds fewer findings than the run has, the first ones in file order are the known
ones.

The file is JSON, ``{"version": 1, "entries": [{"path", "code", "line", "count"}, ...]}``,
entries sorted by key, so that writing an unchanged baseline gives the same bytes and its diff
in a review reads as the findings that came or went. A file that cannot be read or does not
hold that shape is an error naming the file and what is wrong (exit 2, as a broken
configuration): silently reporting everything, or nothing, would mislead a CI job.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from scalarlint.atomic_text import write_text_atomic
from scalarlint.config import Config, ConfigError
from scalarlint.diagnostics import Diagnostic, FileError
from scalarlint.fix_counts import plural

if TYPE_CHECKING:
    from scalarlint.analysis.sources import SourceFile

VERSION = 1
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # rows as diagnostics count them (diagnostics.offset_of)


class BaselineError(ConfigError):
    """A baseline file that cannot be read, parsed or written; the message names the file."""


@dataclass(frozen=True, order=True)
class Key:
    """What identifies a finding across edits elsewhere in its file."""

    path: str
    code: str
    line: str


def normalise(line: str) -> str:
    """The source line as a key holds it: stripped, each run of whitespace one space."""
    return " ".join(line.split())


class SourceLines:
    """The text of each finding's row, each file read once. ``sources``: files whose text is
    not (or not yet) on disk as checked, such as standard input."""

    def __init__(self, sources: Mapping[str, SourceFile] | None = None) -> None:
        self._sources = dict(sources or {})
        self._rows: dict[tuple[str, int | None], list[str]] = {}

    def line(self, d: Diagnostic) -> str:
        """Row ``d.location.row`` of the finding's file (of its cell in a notebook); "" when
        the file cannot be read any more."""
        if (d.filename, d.cell) not in self._rows:
            self._read(d.filename)
        rows = self._rows.get((d.filename, d.cell), [])
        return rows[d.location.row - 1] if 0 < d.location.row <= len(rows) else ""

    def _read(self, filename: str) -> None:
        from scalarlint.analysis.sources import read_source

        source = self._sources.get(filename) or read_source(filename)
        self._rows[(filename, None)] = []
        if isinstance(source, FileError):  # it vanished, or cannot be decoded now
            return
        if source.notebook is None:
            self._rows[(filename, None)] = _LINE_BREAK.split(source.text)
        else:  # cell rows as notebooks.Notebook.locate counts them
            for cell in source.notebook.cells:
                self._rows[(filename, cell.number)] = cell.text.split("\n")


def relative_path(filename: str, folder: Path) -> str:
    """``filename`` relative to ``folder``, with ``/`` separators (absolute where there is no
    relative path, as across Windows drives)."""
    absolute = os.path.abspath(filename)
    try:
        return Path(os.path.relpath(absolute, folder)).as_posix()
    except ValueError:
        return Path(absolute).as_posix()


def keys_of(diagnostics: list[Diagnostic], lines: SourceLines, folder: Path) -> list[Key]:
    """The key of each finding, in order."""
    return [Key(relative_path(d.filename, folder), d.code, normalise(lines.line(d))) for d in diagnostics]


def render(counts: Counter[Key]) -> str:
    """The baseline file's text: sorted, one entry per key, a final newline."""
    entries = [{"path": k.path, "code": k.code, "line": k.line, "count": n} for k, n in sorted(counts.items()) if n > 0]
    return json.dumps({"version": VERSION, "entries": entries}, indent=2, ensure_ascii=False) + "\n"


def parse(text: str, path: Path) -> Counter[Key]:
    """The counts a baseline file holds (entries with the same key add up); ``BaselineError``
    for anything else than the documented shape."""

    def broken(reason: str) -> BaselineError:
        return BaselineError(f"cannot use baseline {path}: {reason}")

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise broken(f"not JSON: {exc.msg} (at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(data, dict) or "version" not in data:
        raise broken('not a scalarlint baseline (expected {"version": 1, "entries": [...]})')
    if data["version"] != VERSION or isinstance(data["version"], bool):
        raise broken(f"version {data['version']!r} is not one this scalarlint reads ({VERSION}); write it again with --update-baseline")
    entries = data.get("entries")
    if not isinstance(entries, list):
        raise broken('"entries" must be a list')
    counts: Counter[Key] = Counter()
    for number, entry in enumerate(entries, 1):
        counts[_entry(entry, number, broken)] += entry["count"]
    return counts


def _entry(entry: Any, number: int, broken: Callable[[str], BaselineError]) -> Key:
    """One entry's key, checked field by field so the message can say which is wrong."""
    if not isinstance(entry, dict):
        raise broken(f"entry {number} is not an object")
    for name in ("path", "code", "line"):
        if not isinstance(entry.get(name), str):
            raise broken(f"entry {number}: {name!r} must be a string")
    count = entry.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise broken(f"entry {number}: 'count' must be a positive integer")
    return Key(entry["path"], entry["code"], entry["line"])


def write(path: Path, counts: Counter[Key]) -> None:
    """Write the baseline atomically (``atomic_text``), so that an interrupted run never leaves
    half a baseline for the next one to reject; with the old file's permission bits, or those a
    new file gets."""
    try:
        write_text_atomic(path, render(counts))
    except OSError as exc:
        raise BaselineError(f"cannot write baseline {path}: {exc.strerror or exc}") from exc


def read(path: Path) -> Counter[Key]:
    """The counts the baseline file at ``path`` holds; ``BaselineError`` when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise BaselineError(f"cannot use baseline {path}: {reason}") from exc
    return parse(text, path)


def _covers(scope: tuple[str, ...], entry: Key, folder: Path) -> bool:
    """Whether the run over ``scope`` (absolute paths of its files and folders) checked the file
    of ``entry``."""
    target = os.path.normpath(os.path.join(folder, entry.path))
    return any(target == root or target.startswith(root.rstrip(os.sep) + os.sep) for root in scope)


@dataclass(frozen=True)
class Baseline:
    """The baseline of a run. ``known``: what the file holds, or ``None`` when this run writes
    it (the file does not exist yet, or ``--update-baseline``); then ``kept`` holds the entries
    of files outside the run's paths (``scope``), which a rewrite keeps: updating the baseline
    from a check of one folder must not drop every other folder's entries."""

    path: Path
    known: Counter[Key] | None
    scope: tuple[str, ...] = ()
    kept: Counter[Key] | None = None

    @property
    def folder(self) -> Path:
        """What entry paths are relative to: the baseline file's folder."""
        return Path(os.path.abspath(self.path)).parent

    @classmethod
    def open(cls, cli_path: Path | None, config: Config, update: bool, scope: list[Path]) -> Baseline | None:
        """The baseline named by ``--baseline``, else by the ``baseline`` setting (relative to
        the configuration's folder), read now so that a broken one stops the run before it
        starts; ``None`` when there is none. ``scope``: the paths the run checks. A broken file
        is no error for ``--update-baseline``, which writes it anew."""
        path = cli_path if cli_path is not None else (Path(config.root) / config.baseline if config.baseline else None)
        if path is None:
            if update:
                raise ConfigError("--update-baseline needs a baseline: --baseline FILE or the baseline setting")
            return None
        absolute = tuple(os.path.abspath(p) for p in scope)
        if not path.exists():
            if not Path(os.path.abspath(path)).parent.is_dir():
                raise BaselineError(f"cannot write baseline {path}: its folder does not exist")
            return cls(path, None, absolute, Counter())
        if not update:
            return cls(path, read(path), absolute)
        try:
            previous = read(path)
        except BaselineError:
            previous = Counter()
        folder = Path(os.path.abspath(path)).parent
        return cls(path, None, absolute, Counter({k: n for k, n in previous.items() if not _covers(absolute, k, folder)}))

    def apply(self, diagnostics: list[Diagnostic], sources: Mapping[str, SourceFile] | None = None) -> list[Diagnostic]:
        """The findings to report: those not in the baseline; when this run writes the baseline,
        none (it holds them all), and stderr says so."""
        keys = keys_of(diagnostics, SourceLines(sources), self.folder)
        if self.known is None:
            counts = Counter(keys) + (self.kept or Counter())
            existed = self.path.exists()
            write(self.path, counts)
            verb = "Updated" if existed else "Created"
            click.echo(
                f"{verb} baseline {self.path} with {plural(len(diagnostics), 'finding')}"
                f" ({len(counts)} {'entry' if len(counts) == 1 else 'entries'}"
                f"{f', {sum(self.kept.values())} of them kept from files this run did not check' if self.kept else ''})"
                "; later runs report only findings not in it.",
                err=True,
            )
            return []
        left = Counter(self.known)
        new: list[Diagnostic] = []
        for d, key in zip(diagnostics, keys):
            if left[key] > 0:
                left[key] -= 1
            else:
                new.append(d)
        return new

    def report_only_new(self, diagnostics: list[Diagnostic], sources: Mapping[str, SourceFile] | None = None) -> list[Diagnostic]:
        """``apply`` for the command line: a baseline that cannot be written stops the run as a
        usage error (exit 2), as one that cannot be read does."""
        try:
            return self.apply(diagnostics, sources)
        except BaselineError as exc:
            raise click.UsageError(str(exc)) from exc
