"""How long ``scalarlint check`` takes on real code bases, next to the cost of parsing them.

Usage: ``python benchmarks/speed.py --out benchmarks/results/speed.md TREE [TREE ...]``

For each tree (a folder of Python files, e.g. clones of numpy, chainer, HIPS/autograd) it
times, as separate processes so imports count as a user would see them:
``ast.parse`` of every file (the floor), libcst's parse of every file, ``scalarlint check``
(AD rules and their helpers, the default) and ``scalarlint check --scope all`` (every
function), and ``ruff check --select ALL`` when ruff is on PATH. Each timing is the median
of ``--repeat`` runs. Nothing here is asserted: speed is reported, not tested.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

PARSE_AST = "import ast,sys,pathlib\nfor p in pathlib.Path(sys.argv[1]).rglob('*.py'):\n    try: ast.parse(p.read_bytes())\n    except Exception: pass\n"
PARSE_CST = "import libcst,sys,pathlib\nfor p in pathlib.Path(sys.argv[1]).rglob('*.py'):\n    try: libcst.parse_module(p.read_bytes())\n    except Exception: pass\n"


def timed(cmd: list[str], repeat: int) -> tuple[float, str]:
    times: list[float] = []
    tail = ""
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        lines = [line for line in proc.stdout.splitlines() if line.startswith(("Found", "All checks")) or "could not be checked" in line]
        tail = lines[-1] if lines else tail
    return statistics.median(times), tail


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-scope-all", action="store_true", help="skip the slow --scope all runs")
    args = parser.parse_args()

    exe = [sys.executable, "-m", "scalarlint", "check", "--exit-zero"]
    rows: list[str] = []
    for tree in args.trees:
        files = sum(1 for _ in tree.rglob("*.py"))
        runs: list[tuple[str, list[str], int]] = [
            ("ast.parse (floor)", [sys.executable, "-c", PARSE_AST, str(tree)], args.repeat),
            ("libcst parse", [sys.executable, "-c", PARSE_CST, str(tree)], 1),
            ("scalarlint check", [*exe, str(tree)], args.repeat),
        ]
        if not args.skip_scope_all:
            runs.append(("scalarlint check --scope all", [*exe, "--scope", "all", str(tree)], 1))
        ruff = shutil.which("ruff") or shutil.which("ruff", path=str(Path(sys.executable).parent))
        if ruff:
            runs.append(("ruff check --select ALL", [ruff, "check", "--select", "ALL", "--exit-zero", "--no-cache", "-q", str(tree)], args.repeat))
        for label, cmd, repeat in runs:
            seconds, summary = timed(cmd, repeat)
            rows.append(f"| {tree.name} | {files} | {label} | {seconds:.2f} | {repeat} | {summary} |")
            print(rows[-1], flush=True)

    header = [
        "# scalarlint speed",
        "",
        f"Command: `python benchmarks/speed.py {' '.join(str(t) for t in args.trees)}`",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}; "
        f"date {time.strftime('%Y-%m-%d')}. Wall-clock seconds, median of the runs shown, each a fresh process.",
        "",
        "| tree | .py files | what | seconds | runs | result |",
        "|---|---|---|---|---|---|",
    ]
    text = "\n".join(header + rows) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
