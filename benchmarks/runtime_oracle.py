"""Findings confirmed by running real projects' tests: strict PyTorch as a recall oracle.

For each project (a checkout of a PyTorch code base with custom ``autograd.Function``s and a
pytest suite), it runs the suite three times on the CPU (plain, ``--scalarlint-record`` without
line tracing, which is the strict mode's own cost, and ``--scalarlint-record`` with line
tracing), then ``scalarlint check --runtime`` on the package, and prints a Markdown table:
tests run, runtime sites inside rules and their helpers (and outside), how many the checker
reported (the recall estimate), findings confirmed / ran clean / not run, and the suite's wall
time in each mode with the overhead ratios. Below the table, per project: the sites the
checker missed and the findings with their runtime status (material for the detection work).

    python benchmarks/runtime_oracle.py [--repeat N] NAME=CHECKOUT:PACKAGE[:PYTEST ARGS] ... > table.md

With ``--repeat N`` the three runs are interleaved N times and the fastest of each is kept
(a shared machine disturbs single runs by far more than the mode costs).

``PYTEST ARGS`` is split like a shell line (test files, ``-k`` expressions; default ``.``).
Run it with the Python of a virtual environment that has scalarlint, torch and the projects'
dependencies. The projects are fetched by the person running it (never committed here); each
must be importable from its checkout (the script puts CHECKOUT on PYTHONPATH).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:asyncio", "--no-header"]
_SUMMARY = re.compile(
    r"Runtime \((?P<tests>\d+) tests\): (?P<in_rules>\d+) scalar-access sites in rules, (?P<reported>\d+) reported"
    r".*?; (?P<outside>\d+) more outside rules")


@dataclass
class Project:
    name: str
    checkout: Path
    package: str
    pytest_args: list[str]


@dataclass
class Result:
    project: Project
    tests: int
    times: dict[str, float]  # plain, mode, record
    pytest_lines: dict[str, str]
    in_rules: int
    reported: int
    outside: int
    findings: list[dict[str, Any]]
    unreported: list[str] = field(default_factory=list)
    outside_sites: list[str] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(f.get("runtime") == status for f in self.findings)


def parse_spec(spec: str) -> Project:
    name, _, rest = spec.partition("=")
    checkout, package, *tests = rest.split(":", 2)
    args = shlex.split(tests[0]) if tests and tests[0].strip() else ["."]
    return Project(name, Path(checkout).resolve(), package, args)


def _pytest(project: Project, *extra: str) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(project.checkout), "CUDA_VISIBLE_DEVICES": ""}
    start = time.perf_counter()
    done = subprocess.run([*PYTEST, *project.pytest_args, *extra], cwd=project.checkout, env=env,
                          capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    last = (done.stdout.strip().splitlines() or ["?"])[-1]
    return elapsed, last


def _loop_ends(path: Path) -> dict[int, int]:
    """First line of each loop -> its last line (a loop finding covers its body, as in the join)."""
    tree = ast.parse(path.read_bytes())
    ends: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            ends[node.lineno] = max(ends.get(node.lineno, 0), node.end_lineno or node.lineno)
    return ends


def _relative(filename: str, checkout: Path) -> str:
    """JSON output names files by absolute path (as ruff's does); the record's sites are relative."""
    path = Path(filename)
    return path.resolve().relative_to(checkout.resolve()).as_posix() if path.is_absolute() else path.as_posix()


def _covered(findings: list[dict[str, Any]], checkout: Path) -> set[tuple[str, int]]:
    """The (path, line)s the findings cover: their rows, and a loop finding's whole loop."""
    covered: set[tuple[str, int]] = set()
    for finding in findings:
        path, first, last = finding["filename"], finding["location"]["row"], finding["end_location"]["row"]
        if finding["code"] in ("SL103", "SL104"):
            last = max(last, _loop_ends(checkout / path).get(first, last))
        covered.update((path, line) for line in range(first, last + 1))
    return covered


def _outside_sites(record: dict[str, Any], project: Project, findings: list[dict[str, Any]],
                   unreported: list[str]) -> list[str]:
    """The recorded sites in the package that no finding covers and the join did not list as
    missed in a rule: the accesses outside rules and their helpers."""
    covered = _covered(findings, project.checkout)
    missed = {line.split(": seen at runtime")[0] for line in unreported}
    package = project.checkout / project.package
    lines: dict[str, list[str]] = {}
    for site in record["sites"]:
        path = Path(record["root"], site["path"]).resolve()  # the root is pytest's rootdir, maybe above
        if not path.is_relative_to(package):
            continue
        shown = path.relative_to(project.checkout).as_posix()
        where = f"{shown}:{site['line']}"
        if where in missed or (shown, site["line"]) in covered:
            continue
        lines.setdefault(where, []).append(f"{site['operation']} [{site['code']}] ({site['count']}x in {site['function']})")
    return [f"{where}: {'; '.join(ops)}" for where, ops in lines.items()]


def _timed_runs(project: Project, record: Path, repeat: int) -> tuple[dict[str, float], dict[str, str]]:
    """The three modes, interleaved ``repeat`` times; the fastest run of each (the least disturbed)."""
    modes = {
        "plain": (),
        # the mode itself: every check runs, nothing raises (a strict run would stop at the first access)
        "mode": ("--scalarlint-record", str(record), "--scalarlint-record-no-lines"),
        "record": ("--scalarlint-record", str(record)),  # last: its record (with lines) is the one joined
    }
    _pytest(project, "--collect-only")  # warm the file cache and bytecode first: the first run pays for both
    times: dict[str, float] = {}
    lines: dict[str, str] = {}
    for _ in range(repeat):
        for mode, extra in modes.items():
            elapsed, last = _pytest(project, *extra)
            if mode not in times or elapsed < times[mode]:
                times[mode], lines[mode] = elapsed, last
    return times, lines


def measure(project: Project, repeat: int) -> Result:
    record = Path(tempfile.mkdtemp()) / "record.json"
    times, pytest_lines = _timed_runs(project, record, repeat)
    check = subprocess.run(
        [sys.executable, "-m", "scalarlint", "check", "--no-cache", "--exit-zero", "--format", "json",
         project.package, "--runtime", str(record)],
        cwd=project.checkout, capture_output=True, text=True, check=False)
    findings: list[dict[str, Any]] = json.loads(check.stdout or "[]")
    for finding in findings:
        finding["filename"] = _relative(finding["filename"], project.checkout)
    summary = _SUMMARY.search(check.stderr)
    if summary is None:
        raise SystemExit(f"{project.name}: no runtime summary from scalarlint check:\n{check.stderr}")
    unreported = [line for line in check.stderr.splitlines() if ": seen at runtime, not reported: " in line]
    data = json.loads(record.read_text())
    return Result(
        project, int(data["tests"]), times, pytest_lines,
        int(summary["in_rules"]), int(summary["reported"]), int(summary["outside"]), findings, unreported,
        _outside_sites(data, project, findings, unreported),
    )


def _finding_line(finding: dict[str, Any]) -> str:
    where = f"{finding['filename']}:{finding['location']['row']}"
    return f"{where} {finding.get('code')} ({finding.get('rule', '')}): {finding.get('runtime')}"


def table(results: list[Result]) -> list[str]:
    out = [
        ("| project | tests | sites in rules | reported (recall) | sites outside rules | findings | confirmed "
         "| ran clean | not run | plain s | mode s (x) | record + lines s (x) |"),
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        plain = r.times["plain"]
        recall = f"{r.reported / r.in_rules:.0%}" if r.in_rules else "n/a"
        out.append(
            f"| {r.project.name} | {r.tests} | {r.in_rules} | {r.reported} ({recall}) | {r.outside} | {len(r.findings)} "
            f"| {r.count('confirmed')} | {r.count('ran clean')} | {r.count('not run')} | {plain:.1f} "
            f"| {r.times['mode']:.1f} ({r.times['mode'] / plain:.2f}x) "
            f"| {r.times['record']:.1f} ({r.times['record'] / plain:.2f}x) |")
    return out


def notes(result: Result) -> list[str]:
    r = result
    out = [f"### {r.project.name}", "",
           (f"- pytest {' '.join(r.project.pytest_args)}: plain `{r.pytest_lines['plain']}`; mode "
            f"`{r.pytest_lines['mode']}`; record `{r.pytest_lines['record']}`")]
    out += ["- seen at runtime, not reported (in rules and their helpers):"]
    out += [f"  - `{line}`" for line in r.unreported] or ["  - none"]
    out += ["- recorded in the package outside rules:"]
    out += [f"  - `{line}`" for line in r.outside_sites] or ["  - none"]
    out += ["- findings:"]
    out += [f"  - `{_finding_line(f)}`" for f in r.findings] or ["  - none"]
    return out + [""]


def main(argv: list[str]) -> int:
    repeat = 1
    if argv[:1] == ["--repeat"]:
        repeat, argv = int(argv[1]), argv[2:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    results = [measure(parse_spec(spec), repeat) for spec in argv]
    print("\n".join(table(results)))
    print()
    for result in results:
        print("\n".join(notes(result)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
