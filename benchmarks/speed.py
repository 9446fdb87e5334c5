"""scalarlint, ruff and Fixit side by side on whole trees, with peak memory; nothing is asserted.

Usage::

    python benchmarks/speed.py --tree numpy=/path/to/numpy --tree chainer=/path/to/chainer \\
        --fixit /path/to/fixit-venv/bin/fixit --out benchmarks/results/speed.md

Every command runs as a fresh process, so imports count as a user sees them. For each tree
(every ``.py`` file in it, tests included) it times:

* ``ast.parse`` of every file in one process (the floor for any Python-level tool);
* ruff ``check --select ALL --no-cache --output-format full`` (the anchor: every ratio is to it);
* ``scalarlint check --no-cache`` (default scope), with every core and with ``--jobs 1``;
* ``scalarlint check`` with the cache: empty, then again with nothing changed, then after
  editing one helper that a rule reaches (on a copy of the tree; ``--verbose`` says how many
  files were analysed again);
* ``scalarlint check --no-cache --scope all``;
* Fixit ``lint`` with its built-in rules, when ``--fixit`` names it (it is slow: one run).

and, for one small file with findings and one without, ``scalarlint check`` with and without the
cache next to ruff. Peak RSS is the largest sum of the resident memory of the command and every
process below it, sampled every 10 ms from ``/proc``; forked workers share pages with their
parent, which that sum counts once per process, so the peak PSS (shared pages split between
the processes sharing them) is given too. Each timing is the median of ``--repeat``
runs (one for the slow rows). The table goes to ``--out``.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PARSE_AST = "import ast,sys,pathlib\nfor p in pathlib.Path(sys.argv[1]).rglob('*.py'):\n    try: ast.parse(p.read_bytes())\n    except Exception: pass\n"
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@dataclass
class Timing:
    seconds: float
    peak_mb: float
    tail: str
    peak_pss_mb: float = 0.0


def _tree_memory(root: int) -> tuple[int, int]:
    """(resident bytes, proportional bytes) of ``root`` and every process below it. Worker
    processes are forked: the pages they share with the parent count in each one's RSS, and
    once, split between them, in PSS (``/proc/PID/smaps_rollup``)."""
    rss = pss = 0
    stack = [root]
    while stack:
        pid = stack.pop()
        try:
            with open(f"/proc/{pid}/statm") as fh:
                rss += int(fh.read().split()[1]) * PAGE
            with open(f"/proc/{pid}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1]) * 1024
                        break
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as fh:
                    stack.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return rss, pss


def run_once(cmd: list[str], cwd: Path | None = None) -> Timing:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = peak_pss = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, peak_pss
        while not done.is_set():
            rss, pss = _tree_memory(proc.pid)
            peak, peak_pss = max(peak, rss), max(peak_pss, pss)
            done.wait(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    lines = [ln for ln in (out + "\n" + err).splitlines() if ln.startswith(("Found", "All checks", "cache:")) or "could not be checked" in ln]
    return Timing(seconds, peak / 2**20, " / ".join(lines[-2:]), peak_pss / 2**20)


def timed(cmd: list[str], repeat: int, cwd: Path | None = None, before: list[list[str]] = ()) -> Timing:  # type: ignore[assignment]
    runs = []
    for _ in range(repeat):
        for step in before:
            subprocess.run(step, cwd=cwd, capture_output=True, check=False)
        runs.append(run_once(cmd, cwd))
    middle = statistics.median(r.seconds for r in runs)
    best = min(runs, key=lambda r: abs(r.seconds - middle))
    return Timing(middle, max(r.peak_mb for r in runs), best.tail, max(r.peak_pss_mb for r in runs))


def edit_one_helper(tree: Path) -> str:
    """Add a statement to the body of one helper a rule reaches (the first in path order); in a
    tree without AD rules (numpy), to the first function of the first file that has one."""
    from scalarlint.analysis.project import Project, module_names
    from scalarlint.config import Config
    from scalarlint.analysis.sources import read_source
    from scalarlint.engine import index_source
    from scalarlint.files import discover

    config = Config(root=str(tree))
    files, _ = discover([tree], config)
    names = module_names([str(f) for f in files])
    sources = [read_source(f) for f in files]
    indexes = [i for i in (index_source(s, config, *names[s.path]) for s in sources if hasattr(s, "text")) if hasattr(i, "functions")]
    targets = Project(indexes, config).targets()
    chosen = [(p, k) for p, found in sorted(targets.items()) for k, t in found.items() if t.is_helper and "<lambda>" not in k]
    label = "helper"
    if not chosen:
        chosen = [(i.path, k) for i in sorted(indexes, key=lambda i: i.path) for k in i.functions if "<lambda>" not in k]
        label = "function (no helpers)"
    path, key = chosen[0]
    entry = next(i for i in indexes if i.path == path).functions[key]
    lines = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
    head = lines[entry.line - 1]
    indent = head[: len(head) - len(head.lstrip())] + "    "
    at = entry.line  # the first line after the signature (the line ending with ':')
    while at < len(lines) and not lines[at - 1].rstrip().endswith(":"):
        at += 1
    lines.insert(at, f"{indent}_edited_by_benchmark = 1\n")
    Path(path).write_text("".join(lines), encoding="utf-8")
    return f"{label} `{Path(path).relative_to(tree)}::{key}`"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", action="append", default=[], help="NAME=PATH, a tree to check whole")
    parser.add_argument("--fixit", help="the fixit executable (its own venv: it pins libcst)")
    parser.add_argument("--small", action="append", default=[], help="NAME=FILE, a small file to time alone")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    bin_dir = Path(sys.executable).parent
    ruff = shutil.which("ruff") or str(bin_dir / "ruff")
    version = subprocess.run([ruff, "--version"], capture_output=True, text=True).stdout.strip()
    fixit_version = subprocess.run([args.fixit, "--version"], capture_output=True, text=True).stdout.strip() if args.fixit else ""
    sl = [sys.executable, "-m", "scalarlint", "check", "--exit-zero"]
    rows: list[str] = []
    work = Path(tempfile.mkdtemp(prefix="scalarlint-speed-"))

    def row(tree: str, files: int | str, what: str, t: Timing, ruff_seconds: float | None, runs: int) -> None:
        ratio = f"{t.seconds / ruff_seconds:.2f}" if ruff_seconds else ""
        rows.append(f"| {tree} | {files} | {what} | {t.seconds:.2f} | {ratio} | {t.peak_mb:.0f} | {t.peak_pss_mb:.0f} | {runs} | {t.tail} |")
        print(rows[-1], flush=True)

    for spec in args.tree:
        name, _, path = spec.partition("=")
        copy = work / name
        shutil.copytree(path, copy, symlinks=True)
        files = sum(1 for _ in copy.rglob("*.py"))
        cache = work / f"cache-{name}"
        cached = [*sl, "--cache-dir", str(cache), "--verbose", str(copy)]
        clean = [sys.executable, "-m", "scalarlint", "clean", "--cache-dir", str(cache)]
        anchor = timed([ruff, "check", "--select", "ALL", "--no-cache", "--output-format", "full", "--exit-zero", str(copy)], args.repeat)
        row(name, files, f"ruff check --select ALL ({version})", anchor, anchor.seconds, args.repeat)
        row(name, files, "ast.parse of every file (floor)", timed([sys.executable, "-c", PARSE_AST, str(copy)], args.repeat), anchor.seconds, args.repeat)
        row(name, files, "scalarlint check --no-cache", timed([*sl, "--no-cache", str(copy)], args.repeat), anchor.seconds, args.repeat)
        row(name, files, "scalarlint check --no-cache --jobs 1", timed([*sl, "--no-cache", "--jobs", "1", str(copy)], args.repeat), anchor.seconds, args.repeat)
        row(name, files, "scalarlint check, empty cache", timed(cached, args.repeat, before=[clean]), anchor.seconds, args.repeat)
        row(name, files, "scalarlint check, nothing changed", timed(cached, args.repeat), anchor.seconds, args.repeat)
        edited = edit_one_helper(copy)
        row(name, files, f"scalarlint check, after editing one {edited}", timed(cached, 1), anchor.seconds, 1)
        row(name, files, "scalarlint check --no-cache --scope all", timed([*sl, "--no-cache", "--scope", "all", str(copy)], 1), anchor.seconds, 1)
        if args.fixit:
            row(name, files, f"fixit lint ({fixit_version})", timed([args.fixit, "lint", str(copy)], 1), anchor.seconds, 1)

    for spec in args.small:
        name, _, path = spec.partition("=")
        anchor = timed([ruff, "check", "--select", "ALL", "--no-cache", "--exit-zero", path], args.repeat)
        row(name, 1, f"ruff check --select ALL ({version})", anchor, anchor.seconds, args.repeat)
        row(name, 1, "scalarlint check --no-cache", timed([*sl, "--no-cache", path], args.repeat), anchor.seconds, args.repeat)
        cache = work / f"cache-{name}"
        row(name, 1, "scalarlint check, nothing changed", timed([*sl, "--cache-dir", str(cache), path], args.repeat, before=[[*sl, "--cache-dir", str(cache), path]]), anchor.seconds, args.repeat)
    shutil.rmtree(work, ignore_errors=True)

    header = [
        "# scalarlint speed",
        "",
        "Command: `python benchmarks/speed.py " + " ".join(sys.argv[1:]) + "`",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}; "
        f"date {time.strftime('%Y-%m-%d')}. Wall-clock seconds (median of the runs shown, each a fresh process), the ratio "
        "to ruff's time on the same input, and the peak memory of the whole process tree (RSS summed; PSS summed).",
        "",
        "| tree | .py files | what | seconds | x ruff | peak RSS MB | peak PSS MB | runs | result |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    text = "\n".join(header + rows) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
