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

Usage::

    python benchmarks/real_fixes.py --python /tmp/agenv/bin/python \\
        --project autograd=/path/to/autograd-1.9.1 --out benchmarks/results/real_fixes.md
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
from pathlib import Path

# What to fix and how to test each project: (package folder in the source tree, pytest
# arguments, why a subset where it is one).
PROJECTS: dict[str, tuple[str, list[str], str]] = {
    "autograd": ("autograd", ["tests", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-o", "required_plugins="], "the whole suite"),
    "mygrad": ("src/mygrad", [], "the release has no tests in its sdist"),
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


def measure(name: str, source: Path, python: str) -> dict[str, object]:
    package, pytest_args, subset = PROJECTS[name]
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / name
        shutil.copytree(source, tree, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", ".git"))
        before, failing_before = run_tests(python, tree, pytest_args) if pytest_args else (Counter(), "")
        coverage = fix_coverage(tree, package)
        originals = {p: p.read_bytes() for p in tree.rglob("*.py")}
        fixed = scalarlint("check", "--scope", "all", "--select", "ALL", "--fix", "--unsafe-fixes", package, cwd=tree)
        touched = sorted(str(p.relative_to(tree)) for p in originals if p.read_bytes() != originals[p])
        imports = [t for t in touched if "scalarlint" in (tree / t).read_text(encoding="utf-8", errors="replace")]
        after, failing_after = run_tests(python, tree, pytest_args) if pytest_args else (Counter(), "")
        applied = re.search(r"Fixed (\d+) finding", fixed.stdout + fixed.stderr)
    return {
        "name": name, "subset": subset, "before": before, "after": after, "coverage": coverage,
        "fixed": int(applied.group(1)) if applied else 0, "touched": touched, "imports": imports,
        "newly_failing": sorted(set(failing_after.splitlines()) - set(failing_before.splitlines())),
    }


def table(results: list[dict[str, object]], args: argparse.Namespace) -> str:
    lines = [
        "# Real projects' own tests, before and after `--fix --unsafe-fixes`",
        "",
        f"Command: `python benchmarks/real_fixes.py --python PY {' '.join('--project ' + p for p in args.project)}`; "
        f"PY is a virtual environment with each project's test dependencies and without scalarlint. Sources: "
        "the release files in `benchmarks/recall/SOURCES.md`.",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}.",
        "",
        "| project | tests | passed before | passed after | failed before | failed after | findings fixed | files touched | files importing scalarlint |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        b, a = r["before"], r["after"]  # type: ignore[assignment]
        lines.append(
            f"| {r['name']} | {r['subset']} | {b.get('passed', '-')} | {a.get('passed', '-')} | "  # type: ignore[union-attr]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", required=True, help="interpreter with the projects' test dependencies, without scalarlint")
    parser.add_argument("--project", action="append", default=[], metavar="NAME=PATH", help=f"one of {', '.join(PROJECTS)}")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    check_importable_without_scalarlint(args.python)
    results = []
    for item in args.project:
        name, _, path = item.partition("=")
        if name not in PROJECTS:
            raise SystemExit(f"unknown project {name!r}; known: {', '.join(PROJECTS)}")
        results.append(measure(name, Path(path), args.python))
    report = table(results, args)
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")


if __name__ == "__main__":
    main()
