"""Real projects as the oracle of the fixers: their own test suites, before and after fixing.

For each project (a folder of its source at a fixed release, see ``benchmarks/recall/SOURCES.md``):

1. copy it to a scratch folder;
2. run its test suite (or the stated subset) with ``--python``, an interpreter whose
   environment has the project's test dependencies and **not** scalarlint;
3. report the findings and what kind of fix each has (``--format json``): safe, unsafe,
   display-only (the fix would add an undeclared dependency) or none, per check;
4. fix it as a user would: ``scalarlint check --scope all --select ALL --fix --unsafe-fixes``;
5. run the same tests again, in the same environment without scalarlint.

A test that passes before and fails after is a fixer bug (or a fix that must become unsafe).

Usage (the environments as made for the committed table)::

    python3 -m venv /tmp/agenv && /tmp/agenv/bin/pip install numpy scipy pytest
    python3 -m venv /tmp/chenv && /tmp/chenv/bin/pip install 'numpy<2' filelock protobuf six typing_extensions pytest
    python3 -m venv /tmp/thenv && /tmp/thenv/bin/pip install thinc==9.1.1 pytest hypothesis mock
    python benchmarks/real_fixes.py --python-for autograd=/tmp/agenv/bin/python \\
        --python-for mygrad=/tmp/chenv/bin/python --python-for chainer=/tmp/chenv/bin/python \\
        --python-for thinc=/tmp/thenv/bin/python \\
        --project autograd=SRC/autograd-1.9.1 --project mygrad=SRC/mygrad-2.5.0 \\
        --project chainer=SRC/chainer-7.8.1 --project thinc=SRC/thinc-9.1.1 \\
        --out benchmarks/results/real_fixes.md

MyGrad's and chainer's releases ship no tests (their ``MANIFEST.in`` excludes them) and their
repositories are out of this machine's reach, so their own docstring examples stand in, run
by pytest's doctest collector; chainer 7.8.1 predates NumPy 2 (it uses ``numpy.bool``), so
it runs on NumPy 1.26, and MyGrad's examples were written against NumPy 1's reprs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

DOCTEST_FLAGS = ["-o", "doctest_optionflags=NORMALIZE_WHITESPACE ELLIPSIS NUMBER"]
QUIET = ["-q", "-p", "no:cacheprovider", "-o", "addopts=", "-o", "required_plugins="]


@dataclass(frozen=True)
class Project:
    """What to fix in a project and how to run its tests."""

    package: str  # the folder scalarlint checks and fixes, relative to the source tree
    pytest_args: list[str]
    tests: str  # which tests, and why a subset where it is one
    conftest: str = ""  # a conftest.py written at the tree's root (the doctest set-up of the project's docs)
    compiled: str = ""  # an importable package whose compiled modules are copied from the test environment


# Chainer's documentation runs its examples with numpy, chainer, F and L already imported
# (its Sphinx doctest set-up); this gives pytest's doctests the same names.
CHAINER_DOCTEST_NAMES = """\
import numpy
import pytest


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace):
    import chainer

    doctest_namespace.update(np=numpy, numpy=numpy, chainer=chainer, F=chainer.functions, L=chainer.links)
    numpy.random.seed(0)
"""

PROJECTS: dict[str, Project] = {
    "autograd": Project("autograd", ["tests", *QUIET], "the whole suite"),
    "mygrad": Project(
        "src/mygrad",
        ["--doctest-modules", "src/mygrad", "--ignore=src/mygrad/nnet/layers/gru.py", *DOCTEST_FLAGS, *QUIET],
        "its docstring examples (doctests): the sdist ships no tests; gru.py left out, it needs numba",
    ),
    "chainer": Project(
        "chainer",
        ["--doctest-modules", "chainer", "--continue-on-collection-errors", "-o", "filterwarnings=", *DOCTEST_FLAGS, *QUIET],
        "its docstring examples (doctests) with the names its docs import: the sdist ships no tests",
        conftest=CHAINER_DOCTEST_NAMES,
    ),
    "thinc": Project(
        "thinc",
        ["thinc/tests", *QUIET],
        "the whole suite (its Cython modules taken from the same release's wheel)",
        compiled="thinc",
    ),
}


def scalarlint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scalarlint", *args], cwd=cwd, capture_output=True, text=True, check=False)


def run_tests(python: str, tree: Path, pytest_args: list[str]) -> tuple[Counter[str], str]:
    """pytest's outcome counts for the tree, run where scalarlint cannot be imported."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([python, "-m", "pytest", *pytest_args], cwd=tree, capture_output=True, text=True, env=env, check=False)
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-500:]
    counts: Counter[str] = Counter()
    for number, outcome in re.findall(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)", summary):
        counts[outcome.rstrip("s") if outcome.startswith("error") else outcome] += int(number)
    failing = {line.split(" ", 1)[1].split(" - ")[0] for line in proc.stdout.splitlines() if line.startswith(("FAILED ", "ERROR "))}
    return counts, "\n".join(sorted(failing))


def fix_coverage(tree: Path, package: str) -> dict[str, Counter[str]]:
    """Per check: how many findings have a safe, unsafe or display-only fix, or none."""
    report = scalarlint("check", "--scope", "all", "--select", "ALL", "--unsafe-fixes", "--format", "json", "--exit-zero", package, cwd=tree)
    if report.returncode != 0:  # a crash or an unreadable file is a finding of this benchmark
        raise RuntimeError(f"scalarlint check failed on {tree / package}:\n{report.stderr[-3000:]}")
    out: dict[str, Counter[str]] = {}
    for item in json.loads(report.stdout):
        kind = item["fix"]["applicability"] if item.get("fix") else "none"
        out.setdefault(item["code"], Counter())[kind] += 1
    return out


def check_importable_without_scalarlint(python: str) -> None:
    probe = subprocess.run([python, "-c", "import scalarlint"], capture_output=True, check=False, cwd=tempfile.gettempdir())
    if probe.returncode == 0:
        raise SystemExit(f"{python} can import scalarlint: the tests must run where it is not installed")


def copy_compiled_modules(python: str, package: str, tree: Path) -> int:
    """Copy the compiled modules of ``package`` as installed for ``python`` into the tree.

    A project with Cython modules (thinc) cannot run from its source release without building
    them; the wheel of the same release, installed in the test environment, has them built.
    The Python files stay the source release's, so the fixes are what the tests exercise.
    """
    where = subprocess.run(
        [python, "-I", "-c", f"import {package}, os; print(os.path.dirname({package}.__file__))"],
        capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(),
    ).stdout.strip()
    installed = Path(where)
    copied = 0
    for module in installed.rglob("*.so"):
        target = tree / package / module.relative_to(installed)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(module, target)
        copied += 1
    return copied


def measure(name: str, source: Path, python: str) -> dict[str, object]:
    project = PROJECTS[name]
    package, pytest_args, subset = project.package, project.pytest_args, project.tests
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / name
        shutil.copytree(source, tree, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", ".git"))
        if project.compiled:
            copy_compiled_modules(python, project.compiled, tree)
        if project.conftest:
            (tree / "conftest.py").write_text(project.conftest, encoding="utf-8")
        before, failing_before = run_tests(python, tree, pytest_args)
        coverage = fix_coverage(tree, package)
        originals = {p: p.read_bytes() for p in (tree / package).rglob("*.py")}
        fixed = scalarlint("check", "--scope", "all", "--select", "ALL", "--fix", "--unsafe-fixes", package, cwd=tree)
        touched = sorted(str(p.relative_to(tree)) for p in originals if p.read_bytes() != originals[p])
        imports = [t for t in touched if "scalarlint" in (tree / t).read_text(encoding="utf-8", errors="replace")]
        after, failing_after = run_tests(python, tree, pytest_args)
        applied = re.search(r"Fixed (\d+) finding", fixed.stdout + fixed.stderr)
    return {
        "name": name, "subset": subset, "before": before, "after": after, "coverage": coverage,
        "fixed": int(applied.group(1)) if applied else 0, "touched": touched, "imports": imports,
        "newly_failing": sorted(set(failing_after.splitlines()) - set(failing_before.splitlines())),
    }


def environment(python: str) -> str:
    """The versions that decide how a project's tests run: NumPy and pytest."""
    probe = subprocess.run(
        [python, "-I", "-c", "import numpy, pytest, sys; print(f'Python {sys.version.split()[0]}, NumPy {numpy.__version__}, pytest {pytest.__version__}')"],
        capture_output=True, text=True, check=False, cwd=tempfile.gettempdir(),
    )
    return probe.stdout.strip() or "unknown"


def table(results: list[dict[str, object]], args: argparse.Namespace) -> str:
    flags = " ".join(["--python-for " + p for p in args.python_for] + ["--project " + p for p in args.project])
    lines = [
        "# Real projects' own tests, before and after `--fix --unsafe-fixes`",
        "",
        f"Command: `python benchmarks/real_fixes.py {('--python PY ' if args.python else '') + flags} --out benchmarks/results/real_fixes.md`. "
        "Each interpreter is a virtual environment with the project's test dependencies and without scalarlint "
        "(the script refuses one that can import it); how each was made is in the script's docstring. "
        "Sources: the release files in `benchmarks/recall/SOURCES.md`.",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}.",
        "",
        "| project | tests | environment | passed before | passed after | failed before | failed after | findings fixed | files touched | files importing scalarlint |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        b, a = r["before"], r["after"]  # type: ignore[assignment]
        lines.append(
            f"| {r['name']} | {r['subset']} | {environment(r['python'])} | {b.get('passed', '-')} | {a.get('passed', '-')} | "  # type: ignore[union-attr]
            f"{b.get('failed', 0) + b.get('error', 0)} | {a.get('failed', 0) + a.get('error', 0)} | "  # type: ignore[union-attr]
            f"{r['fixed']} | {len(r['touched'])} | {len(r['imports'])} |"  # type: ignore[arg-type]
        )
    lines += ["", "Fix coverage of the findings (`--scope all --select ALL --unsafe-fixes`):", "",
              "| project | check | findings | safe fix | unsafe fix | display-only | no fix |", "|---|---|---|---|---|---|---|"]
    for r in results:
        for code, counts in sorted(r["coverage"].items()):  # type: ignore[union-attr]
            lines.append(
                f"| {r['name']} | {code} | {sum(counts.values())} | {counts['safe']} | {counts['unsafe']} | "
                f"{counts['display-only']} | {counts['none']} |"
            )
    for r in results:
        if r["newly_failing"]:
            lines += ["", f"Tests of {r['name']} that fail only after fixing:", *[f"- `{t}`" for t in r["newly_failing"]]]  # type: ignore[union-attr]
    return "\n".join(lines) + "\n"


def interpreters(args: argparse.Namespace) -> dict[str, str]:
    """The test interpreter of each project: ``--python-for NAME=PY`` or the default ``--python``."""
    chosen = {}
    for item in args.python_for:
        name, _, python = item.partition("=")
        chosen[name] = python
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", help="interpreter with the projects' test dependencies, without scalarlint")
    parser.add_argument("--python-for", action="append", default=[], metavar="NAME=PY", help="a project's own test interpreter")
    parser.add_argument("--project", action="append", default=[], metavar="NAME=PATH", help=f"one of {', '.join(PROJECTS)}")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    own = interpreters(args)
    results = []
    for item in args.project:
        name, _, path = item.partition("=")
        if name not in PROJECTS:
            raise SystemExit(f"unknown project {name!r}; known: {', '.join(PROJECTS)}")
        python = own.get(name, args.python)
        if not python:
            raise SystemExit(f"no interpreter for {name}: give --python or --python-for {name}=PY")
        check_importable_without_scalarlint(python)
        results.append({**measure(name, Path(path), python), "python": python})
    report = table(results, args)
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")


if __name__ == "__main__":
    main()
