"""Findings confirmed by running real projects' tests: strict PyTorch as a recall oracle.

For each project (a checkout of a PyTorch code base with custom ``autograd.Function``s and a
pytest suite), it runs the suite three times on the CPU (plain, ``--scalarlint-strict`` and
``--scalarlint-record``), then ``scalarlint check --runtime`` on the package, and prints a
Markdown table: tests run, runtime sites inside rules (and outside), how many the checker
reported (the recall estimate), findings confirmed / ran clean / not run, and the suite's wall
time in each mode with the overhead ratios.

    python benchmarks/runtime_oracle.py NAME=CHECKOUT:PACKAGE[:TESTS] ... > table.md

The projects are fetched by the person running it (never committed here); each must be
importable from its checkout (the script puts CHECKOUT on PYTHONPATH).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:asyncio", "--no-header"]


def _pytest(checkout: Path, tests: str, *extra: str) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "CUDA_VISIBLE_DEVICES": ""}
    start = time.perf_counter()
    done = subprocess.run([*PYTEST, tests, *extra], cwd=checkout, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    last = (done.stdout.strip().splitlines() or ["?"])[-1]
    return elapsed, last


def measure(name: str, checkout: Path, package: str, tests: str) -> dict[str, object]:
    plain, plain_line = _pytest(checkout, tests)
    record = Path(tempfile.mkdtemp()) / "record.json"
    # the mode itself: every check runs, nothing raises (a strict run would stop at the first access)
    strict, strict_line = _pytest(checkout, tests, "--scalarlint-record", str(record), "--scalarlint-record-no-lines")
    recording, record_line = _pytest(checkout, tests, "--scalarlint-record", str(record))
    check = subprocess.run(
        [sys.executable, "-m", "scalarlint", "check", "--no-cache", "--exit-zero", "--format", "json", package,
         "--runtime", str(record)], cwd=checkout, capture_output=True, text=True)
    findings = json.loads(check.stdout or "[]")
    summary = next((line for line in check.stderr.splitlines() if line.startswith("Runtime (")), check.stderr.strip())
    data = json.loads(record.read_text())
    return {
        "name": name, "tests": data["tests"], "plain": plain, "strict": strict, "record": recording,
        "plain_line": plain_line, "strict_line": strict_line, "record_line": record_line,
        "findings": len(findings),
        "confirmed": sum(f.get("runtime") == "confirmed" for f in findings),
        "ran_clean": sum(f.get("runtime") == "ran clean" for f in findings),
        "summary": summary,
    }


def main(argv: list[str]) -> int:
    rows = []
    for spec in argv:
        name, _, rest = spec.partition("=")
        checkout, package, *tests = rest.split(":")
        rows.append(measure(name, Path(checkout).resolve(), package, tests[0] if tests else "."))
    print("| project | tests | findings | confirmed | ran clean | plain s | mode s (x) | record + lines s (x) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        plain = float(r["plain"])  # type: ignore[arg-type]
        print(f"| {r['name']} | {r['tests']} | {r['findings']} | {r['confirmed']} | {r['ran_clean']} | {plain:.1f} | "
              f"{r['strict']:.1f} ({float(r['strict']) / plain:.2f}x) | {r['record']:.1f} ({float(r['record']) / plain:.2f}x) |")
    print()
    for r in rows:
        print(f"- {r['name']}: {r['summary']}")
        print(f"  - pytest: plain `{r['plain_line']}`; mode `{r['strict_line']}`; record `{r['record_line']}`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
