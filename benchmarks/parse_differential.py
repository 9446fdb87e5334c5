"""Differential test of everything that cuts a file: no valid file becomes a syntax error, and
the cut paths find exactly what the whole file finds.

scalarlint analyses a file in pieces or pruned copies in two places: a large text is parsed by
libcst a few top-level statements at a time (``analysis.piecewise_parse``), and a long file's
second pass runs one group of linked definitions at a time, each in a copy of the file with
the rest blanked out (``group_analysis`` over ``analysis.pruning``; the editor's incremental re-check
cuts the same way). A mistake in the cutting shows up as a syntax error in a file CPython
accepts, or as findings that differ. For every ``.py`` file that ``ast.parse`` accepts, this
compares, under ``--scope all`` (every function is a target):

* the parse: libcst's one parse of the text (it must succeed), and the pieces cut at every
  place a cut is allowed (``piece_bytes=1``), which must give the same tree (``deep_equals``)
  or decline;
* the findings: the whole file analysed from one parse, against ``analyze_in_groups`` with
  every group cut alone (``batch_lines=1``) and no fallback to the whole file, so a pruned copy
  that does not parse is counted instead of hidden.

``tests/checker/test_cutting_keeps_parsing.py`` runs it on a sample of the installed
site-packages; this script runs it on whole trees and writes the result table::

    python benchmarks/parse_differential.py --tree numpy=/tmp/numpy-head --tree site-packages \\
        --out benchmarks/results/parse_differential.md

``--tree site-packages`` means the running interpreter's ``purelib`` folder.
"""

from __future__ import annotations

import argparse
import ast
import os
import platform
import sys
import sysconfig
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

import scalarlint.analysis.syntax_versions as syntax_versions
from scalarlint.analysis.piecewise_parse import parse_in_pieces
from scalarlint.analysis.project import Project
from scalarlint.analysis.sources import decode_source
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, FileError
from scalarlint.engine import _analyze_source, index_source
from scalarlint.group_analysis import analyze_in_groups

CONFIG = Config(scope="all", file_time_limit=None)
SAME, SKIPPED = "same", "skipped"
FALSE_SYNTAX_ERROR, TREE_DIFFERS, FINDINGS_DIFFER = "false syntax error", "piecewise tree differs", "findings differ"


@dataclass(frozen=True)
class Outcome:
    """One file's comparison: ``status`` is one of the constants above; ``detail`` says what
    differed (or why the file was skipped)."""

    path: str
    status: str
    detail: str = ""
    findings: int = 0
    size: int = 0


def site_packages() -> Path:
    """The running interpreter's ``purelib`` folder (a venv's own site-packages)."""
    return Path(sysconfig.get_paths()["purelib"])


def python_files(root: Path) -> list[Path]:
    """Every ``.py`` file under ``root``, in path order (links to files included, to folders not)."""
    return sorted(p for p in root.rglob("*.py") if p.is_file())


@contextmanager
def one_parse() -> Iterator[None]:
    """libcst parses every text whole in this block (the reference path)."""
    saved = syntax_versions.PIECEWISE_BYTES
    syntax_versions.PIECEWISE_BYTES = sys.maxsize
    try:
        yield
    finally:
        syntax_versions.PIECEWISE_BYTES = saved


def compare_file(path: Path) -> Outcome:
    """The comparison described above, for one file."""
    raw = path.read_bytes()
    source = decode_source(raw, str(path))
    if isinstance(source, FileError):
        return Outcome(str(path), SKIPPED, "undecodable", size=len(raw))
    try:
        tree = ast.parse(source.text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return Outcome(str(path), SKIPPED, "ast.parse rejects it", size=len(raw))
    problem = _parse_problem(source.text, tree)
    if problem is not None:
        return Outcome(str(path), *problem, size=len(raw))
    index = index_source(source, CONFIG, tree=tree)
    if isinstance(index, FileError):
        return Outcome(str(path), FALSE_SYNTAX_ERROR, f"first pass: {index.message}", size=len(raw))
    if index is None:
        return Outcome(str(path), SKIPPED, "skip-file directive", size=len(raw))
    targets = Project([index], CONFIG).targets(scope_all=True).get(source.path, {})
    with one_parse():
        whole = _analyze_source(source, targets, CONFIG)
    cut = analyze_in_groups(source, targets, CONFIG, whole_file_fallback=False, batch_lines=1)
    for found, name in ((whole, "whole file"), (cut, "groups")):
        if isinstance(found, FileError):
            return Outcome(str(path), FALSE_SYNTAX_ERROR, f"{name}: {found.message}", size=len(raw))
    assert isinstance(whole, list) and isinstance(cut, list)
    if _report(whole) != _report(cut):
        return Outcome(str(path), FINDINGS_DIFFER, _first_difference(whole, cut), len(whole), len(raw))
    return Outcome(str(path), SAME, findings=len(whole), size=len(raw))


def _parse_problem(text: str, tree: ast.Module) -> tuple[str, str] | None:
    """libcst's one parse fails, or the pieces give another tree: (status, detail)."""
    try:
        whole = syntax_versions._parse_one(text)
    except cst.ParserSyntaxError as exc:
        return FALSE_SYNTAX_ERROR, f"libcst: {exc.raw_line}:{exc.raw_column + 1}: {exc.message}"
    except Exception as exc:  # libcst raises plain exceptions for some syntax it does not support
        return FALSE_SYNTAX_ERROR, f"libcst: {exc}"
    pieces = parse_in_pieces(text, tree, syntax_versions._parse_one, piece_bytes=1)
    if pieces is not None and (pieces.code != text or not pieces.deep_equals(whole)):
        return TREE_DIFFERS, "the pieces' tree is not the one parse's"
    return None


def _report(found: list[Diagnostic]) -> list[object]:
    return [d.to_json() for d in found]


def _first_difference(whole: list[Diagnostic], cut: list[Diagnostic]) -> str:
    only_whole = [f"{d.location.row}:{d.code}" for d in whole if d.to_json() not in _report(cut)]
    only_cut = [f"{d.location.row}:{d.code}" for d in cut if d.to_json() not in _report(whole)]
    return f"whole file only {only_whole[:5]}, groups only {only_cut[:5]}"


def compare_files(paths: Sequence[Path], jobs: int) -> list[Outcome]:
    """``compare_file`` over ``paths`` in ``jobs`` worker processes (in order)."""
    if jobs <= 1:
        return [compare_file(p) for p in paths]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(compare_file, paths, chunksize=8))


@dataclass(frozen=True)
class TreeResult:
    name: str
    files: int
    outcomes: list[Outcome]
    seconds: float

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)


def run_tree(name: str, root: Path, jobs: int) -> TreeResult:
    paths = python_files(root)
    started = time.monotonic()
    outcomes = compare_files(paths, jobs)
    return TreeResult(name, len(paths), outcomes, time.monotonic() - started)


def table(results: Sequence[TreeResult], jobs: int) -> str:
    lines = [
        "# Differential parse: whole file against pieces and pruned copies",
        "",
        "Written by `benchmarks/parse_differential.py` (what each column compares is in its",
        f"docstring). Python {platform.python_version()}, libcst {_version('libcst')}, `--scope all`, {jobs} worker(s).",
        "",
        "| tree | .py files | parsed by ast | compared | findings | false syntax errors | piecewise trees differing | finding differences | time |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        parsed = r.files - sum(o.status == SKIPPED and o.detail in ("undecodable", "ast.parse rejects it") for o in r.outcomes)
        compared = r.files - r.count(SKIPPED)
        lines.append(
            f"| {r.name} | {r.files} | {parsed} | {compared} | {sum(o.findings for o in r.outcomes)} | {r.count(FALSE_SYNTAX_ERROR)} "
            f"| {r.count(TREE_DIFFERS)} | {r.count(FINDINGS_DIFFER)} | {r.seconds:.0f} s |"
        )
    problems = [o for r in results for o in r.outcomes if o.status not in (SAME, SKIPPED)]
    lines += ["", "Files with a difference:" if problems else "No file differs."]
    lines += [f"- `{o.path}`: {o.status}: {o.detail}" for o in problems]
    return "\n".join(lines) + "\n"


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", required=True, help="NAME=PATH, or site-packages")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    results = []
    for spec in args.tree:
        name, _, folder = spec.partition("=")
        root = Path(folder) if folder else site_packages()
        results.append(run_tree(name, root, args.jobs))
        print(f"{name}: {results[-1].files} files in {results[-1].seconds:.0f} s", file=sys.stderr)
    text = table(results, args.jobs)
    if args.out:
        args.out.write_text(text)
    print(text)
    return 0 if all(o.status in (SAME, SKIPPED) for r in results for o in r.outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
