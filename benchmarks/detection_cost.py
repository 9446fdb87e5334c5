"""What the deeper detection costs: default-scope ``scalarlint check`` of this checkout against
an earlier revision (the checker without it), side by side in one run on the same machine.

Usage::

    python benchmarks/detection_cost.py --base-rev 028552f --out benchmarks/results/detection_cost.md \
        TREE [TREE ...]

The base revision is checked out with ``git worktree`` into a temporary folder and installed into
its own virtual environment (``--base-python`` reuses one). Each tree is then checked by both
versions alternately, ``--repeat`` times each (interleaved, so machine noise hits both alike),
as separate processes so imports count as a user sees them; the table reports the medians, the
ratio, and the findings each version reports. Nothing is asserted: speed is measured, not tested.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def prepare_base(rev: str, workdir: Path) -> Path:
    """A virtual environment with scalarlint at ``rev`` installed; returns its python."""
    tree = workdir / "base"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev], check=True, capture_output=True)
    venv = workdir / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(tree)], check=True)
    return python


# Both versions run with their bytecode written and read: the pip-installed base has it from its
# install, and a checkout run under PYTHONDONTWRITEBYTECODE=1 (as some shells and CI set it)
# would recompile every module on every run, about a tenth of a check of chainer.
_BYTECODE_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(python: Path, tree: Path, jobs: int | None) -> tuple[float, int]:
    cmd = [str(python), "-m", "scalarlint", "check", "--exit-zero", "--no-cache", "--format", "json", str(tree)]
    if jobs is not None:
        cmd += ["--jobs", str(jobs)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tree, env=_BYTECODE_ENV)
    elapsed = time.perf_counter() - start
    try:
        found = len(json.loads(proc.stdout))
    except json.JSONDecodeError:
        found = -1
    return elapsed, found


ASTROID_SHARE = """
import sys, time
from pathlib import Path
from scalarlint.config import Config
from scalarlint.engine import check_paths
from scalarlint.analysis.installed_bases import COST
start = time.perf_counter()
check_paths([Path(sys.argv[1])], Config(root=sys.argv[1]), jobs=1)
print(COST.seconds, time.perf_counter() - start, len(COST.modules))
"""


def astroid_share(tree: Path) -> tuple[float, float, int]:
    """Seconds astroid spent reading installed base classes, of the whole run, in one process
    (``--jobs 1``, so the lookups happen where ``installed_bases.COST`` counts them)."""
    proc = subprocess.run([sys.executable, "-c", ASTROID_SHARE, str(tree)], capture_output=True, text=True, cwd=tree)
    spent, total, modules = proc.stdout.split()
    return float(spent), float(total), int(modules)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--base-rev", default="028552f")
    parser.add_argument("--base-python", type=Path, help="a python with the base revision installed")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, help="passed to both versions (default: every core)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="scalarlint-base-"))
    base_python = args.base_python or prepare_base(args.base_rev, workdir)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    rows = []
    for tree in args.trees:
        times: dict[str, list[float]] = {"base": [], "head": []}
        found: dict[str, int] = {}
        for _ in range(args.repeat):
            for label, python in (("base", base_python), ("head", Path(sys.executable))):
                elapsed, count = run(python, tree.resolve(), args.jobs)
                times[label].append(elapsed)
                found[label] = count
        base, new = statistics.median(times["base"]), statistics.median(times["head"])
        files = sum(1 for _ in tree.rglob("*.py"))
        spent, total, modules = astroid_share(tree.resolve())
        rows.append(
            f"| {tree.name} | {files} | {base:.1f} | {new:.1f} | {new / base:.2f} | {found['base']} | {found['head']} "
            f"| {spent:.2f} of {total:.1f} ({spent / total:.1%}), {modules} modules |"
        )
        print(rows[-1], flush=True)
    lines = [
        "# Cost of the deeper detection (default scope)",
        "",
        f"`python benchmarks/detection_cost.py --base-rev {args.base_rev} --repeat {args.repeat} TREES`: the checker at "
        f"`{args.base_rev}` and at `{head}`, each tree checked by both alternately with `--no-cache`, "
        f"medians of {args.repeat} wall-clock runs as separate processes (imports included), every core. "
        "astroid: seconds it spent reading installed base classes in one `--jobs 1` run of the new version, "
        "and the modules it read.",
        f"Machine: {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}.",
        "",
        "| tree | .py files | base (s) | now (s) | ratio | findings base | findings now | astroid |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    if args.out:
        args.out.write_text("\n".join(lines), encoding="utf-8")
    if not args.base_python:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(workdir / "base")], capture_output=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
