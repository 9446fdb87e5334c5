"""Real projects as the oracle of the fixers: their own tests of each changed file, before and after fixing.

A fix is only as good as the program it leaves behind, and a project's own tests are the best
judge of that program there is. For each project (a folder of its source at a fixed release,
see ``benchmarks/recall/SOURCES.md``):

1. copy it to a scratch folder; where the release ships no tests (chainer, MyGrad), take them
   from the project's repository (``--tests-from NAME=GITDIR@REF``: the release's tag where the
   mirror has one);
2. vendor the allow_scalar helper and configure it, as a user would:
   ``scalarlint vendor --path <pkg>/_allow_scalar.py`` and ``[tool.scalarlint]
   allow-scalar-import = "<pkg>._allow_scalar"`` in the tree's ``pyproject.toml``; so a fix
   never makes the project import scalarlint, which it does not declare;
3. for each mode, fix a fresh copy of that tree with ``scalarlint check --fix --unsafe-fixes``:
   ``default`` (the default scope and checks) and ``all`` (``--scope all --select ALL``);
4. find the files the fix changed and map each to its test files by the project's naming
   convention (``benchmarks/real_tests_map.py``), saying when a changed file has none;
5. run exactly those test files on the unfixed tree and on the fixed one, with ``--python``,
   an interpreter whose environment has the project's test dependencies and **not** scalarlint
   (the script refuses one that can import it), so that a fix importing scalarlint would fail;
   every test starts from the same seeds (Python's, NumPy's, PyTorch's where loaded: a small
   plugin), so that tests drawing unseeded random inputs cannot flip between the two runs.

A test that passes before and fails after is a fixer bug (or a fix that must become unsafe).
The findings per check and the kind of fix each has (safe, unsafe, display-only: the fix would
add an undeclared dependency, none) are reported as well, from ``--format json``.

Environments of the committed table (PyPI; Python 3.11)::

    python3 -m venv /tmp/rt_chenv && /tmp/rt_chenv/bin/pip install 'numpy<2' filelock protobuf six typing_extensions pytest mock scipy
    python3 -m venv /tmp/rt_mgenv && /tmp/rt_mgenv/bin/pip install numpy pytest hypothesis scipy
    python3 -m venv /tmp/rt_agenv && /tmp/rt_agenv/bin/pip install numpy scipy pytest
    python3 -m venv /tmp/rt_thenv && /tmp/rt_thenv/bin/pip install thinc==9.1.1 pytest hypothesis mock
    python3 -m venv /tmp/rt_tenv && /tmp/rt_tenv/bin/pip install torch==2.13.0 numpy scipy pytest scikit-learn

chainer 7.8.1 predates NumPy 2 (it uses ``numpy.bool``), so it runs on NumPy 1.26; MyGrad's
tests are its repository's newest (the mirror has no 2.5.0 tag; its last commit fixes NumPy
2.4 compatibility), on NumPy 2; thinc's Cython modules come from the same release's wheel;
xitorch, torchkbnufft and didyprog run on PyTorch's CPU build (didyprog's tests also need scikit-learn).
xitorch is defined too, but its tests of the changed files (gradgradcheck on every solver) took
9 to over 13 minutes per run on 2 shared cores (four runs: about an hour), so the committed
table leaves it out. Usage::

    python benchmarks/real_fixes.py --python-for chainer=/tmp/rt_chenv/bin/python ... \\
        --project chainer=/work/checkouts/chainer-7.8.1 \\
        --tests-from chainer=/work/.mirror/chainer+chainer/repo@v7.8.1 ... \\
        --out benchmarks/results/real_fixes.md
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
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_tests_map import test_files_for  # a sibling module, not a package

# A test file that cannot be imported here (didyprog's needs allennlp) must not stop the others.
QUIET = ["-q", "-rfE", "-p", "no:cacheprovider", "-o", "addopts=", "-o", "required_plugins=", "--continue-on-collection-errors"]
# Tests that draw unseeded random inputs pass or fail on their own (didyprog's Hessian check of
# ``np.random.randn`` data fails about one run in sixteen, fixed or not): every test starts from
# the same seeds, before and after fixing, so that a difference is the fix's.
SEED_PLUGIN = "real_fixes_seed"
SEED_PLUGIN_TEXT = '''"""Seed Python's, NumPy's and (where loaded) PyTorch's generators before every test."""
import random
import sys


def pytest_runtest_setup(item):
    random.seed(0)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(0)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.manual_seed(0)
'''
MODES: dict[str, list[str]] = {"default": [], "all": ["--scope", "all", "--select", "ALL"]}
IMPORTS_SCALARLINT = re.compile(r"^\s*(?:import|from)\s+scalarlint\b", re.MULTILINE)
# Chainer's markers for tests that need a device or library this machine lacks, or take long.
CHAINER_CPU = "not gpu and not cudnn and not ideep and not theano and not multi_gpu and not slow"


@dataclass(frozen=True)
class Project:
    """What to fix in a project, where its tests are and how to run them."""

    package: str  # the folder scalarlint fixes, relative to the source tree
    module: str  # the package's import name (the vendored helper is ``<module>._allow_scalar``)
    test_root: str  # the folder holding the tests, relative to the tree
    dir_suffix: str = ""  # chainer names the test folder of ``functions/`` ``functions_tests/``
    tests_from: tuple[str, ...] = ()  # paths taken from the repository where the release has no tests
    pytest_args: tuple[str, ...] = ()
    pythonpath: str = "."  # where the package imports from (MyGrad has a src layout)
    env: dict[str, str] = field(default_factory=dict)
    compiled: bool = False  # Cython modules copied from the test environment's install of the release
    extra_map: dict[str, tuple[str, ...]] = field(default_factory=dict)  # where no convention names the tests
    note: str = ""
    why_failing: str = ""  # why tests fail before fixing already (checked by hand), for the report


PROJECTS: dict[str, Project] = {
    "chainer": Project(
        "chainer", "chainer", "tests/chainer_tests", dir_suffix="_tests",
        tests_from=("tests/conftest.py", "tests/chainer_tests"),
        # setup.cfg turns every warning into an error, and NumPy 1.26 warns on chainer's import of
        # numpy.distutils: with it no test would even import chainer.
        pytest_args=("-m", CHAINER_CPU, "-o", "filterwarnings="),
        extra_map={
            "chainer/functions/rnn/n_step_rnn.py": tuple(  # n_step_lstm and n_step_gru are built on it
                f"tests/chainer_tests/functions_tests/rnn_tests/test_function_n_step_{cell}.py" for cell in ("rnn", "lstm", "gru")
            ),
            "chainer/graph_optimizations/static_graph.py": ("tests/chainer_tests/graph_optimization_tests/test_static_graph_models.py",),
        },
        why_failing=(
            "`test_int` uses `numpy.int`, gone since NumPy 1.24 (chainer 7.8.1 predates it). "
            "(Where a fix changes `sparse_matmul.py`, its tests' float16 cases fail too, before and "
            "after alike: SciPy 1.17's sparse matrices refuse float16.)"
        ),
        note=f"repository tag v7.8.1; CPU tests only (`-m \"{CHAINER_CPU}\"`); warnings not errors (`-o filterwarnings=`)",
    ),
    "mygrad": Project(
        "src/mygrad", "mygrad", "tests", tests_from=("tests",), pythonpath="src",
        pytest_args=("--hypothesis-seed=0",),
        extra_map={"src/mygrad/math/_special.py": (  # logsumexp, and the two functions that use it
            "tests/math/unary/test_scipy_mirror.py", "tests/nnet/activations/test_softmax.py",
            "tests/nnet/losses/test_softmaxcrossentropy.py",
        )},
        note="repository HEAD 6971309 (no 2.5.0 tag); hypothesis seed 0",
    ),
    "autograd": Project("autograd", "autograd", "tests", note="the release's tests"),
    "thinc": Project(
        "thinc", "thinc", "thinc/tests", compiled=True, pytest_args=("--hypothesis-seed=0",),
        extra_map={  # the test files that use them (CupyOps' and TensorFlow's skip on this machine)
            "thinc/backends/cupy_ops.py": ("thinc/tests/backends/test_ops.py",),
            "thinc/layers/remap_ids.py": ("thinc/tests/layers/test_layers_api.py", "thinc/tests/layers/test_mappers.py"),
            "thinc/shims/tensorflow.py": ("thinc/tests/layers/test_tensorflow_wrapper.py",),
        },
        note="the release's tests; Cython modules from the 9.1.1 wheel; hypothesis seed 0",
    ),
    "xitorch": Project(
        "xitorch", "xitorch", "xitorch/_tests",
        extra_map={
            "xitorch/_impls/linalg/solve.py": ("xitorch/_tests/test_linop_fcns.py",),
            "xitorch/_impls/linalg/symeig.py": ("xitorch/_tests/test_linop_fcns.py",),
            "xitorch/linalg/symeig.py": ("xitorch/_tests/test_linop_fcns.py",),
        },
        note="the release's tests",
    ),
    "didyprog": Project(
        "didyprog", "didyprog", "didyprog",
        extra_map={  # the test files that import didyprog.utils
            "didyprog/utils.py": tuple(f"didyprog/{sub}/tests/test_viterbi.py" for sub in ("_allennlp/modules", "ner", "reference")),
        },
        why_failing=(
            "`ner/viterbi.py` unpacks `pack_padded_sequence(...)` into two values and today's PyTorch returns four; "
            "`conditional_random_field_test.py` imports allennlp, not installed."
        ),
        note="the repository snapshot's tests",
    ),
    "torchkbnufft": Project(
        "torchkbnufft", "torchkbnufft", "tests",
        extra_map={
            "torchkbnufft/_nufft/spmat.py": ("tests/test_interp.py", "tests/test_nufft.py"),
            "torchkbnufft/_nufft/utils.py": ("tests/test_interp.py", "tests/test_nufft.py"),
            "torchkbnufft/modules/kbnufft.py": ("tests/test_nufft.py",),
        },
        note="the release's tests",
    ),
}


def scalarlint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the scalarlint this script runs under, with no cache, so each tree is read afresh."""
    return subprocess.run(
        [sys.executable, "-m", "scalarlint", *args, *(["--no-cache"] if args[0] == "check" else [])],
        cwd=cwd, capture_output=True, text=True, check=False,
    )


@dataclass
class Outcome:
    """pytest's counts for one run, and the ids of the tests that failed or errored."""

    counts: Counter[str]
    failing: set[str]
    seconds: float = 0.0
    tail: str = ""  # the end of pytest's output, kept where it gave no counts


def run_tests(python: str, tree: Path, project: Project, files: list[str], timeout: float) -> Outcome:
    """Run the given test files of the tree where scalarlint cannot be imported."""
    if not files:
        return Outcome(Counter(), set())
    plugins = tree.parent / "real_fixes_plugins"  # beside the tree: not part of what was fixed
    plugins.mkdir(exist_ok=True)
    (plugins / f"{SEED_PLUGIN}.py").write_text(SEED_PLUGIN_TEXT, encoding="utf-8")
    path = os.pathsep.join([str(tree / project.pythonpath), str(plugins)])
    env = {**os.environ, **project.env, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}
    command = [python, "-m", "pytest", *files, *QUIET, "-p", SEED_PLUGIN, *project.pytest_args]
    start = time.monotonic()
    try:
        proc = subprocess.run(command, cwd=tree, capture_output=True, text=True, env=env, check=False, timeout=timeout)
        stdout = proc.stdout
    except subprocess.TimeoutExpired as expired:
        stdout = (expired.stdout or b"").decode() if isinstance(expired.stdout, bytes) else (expired.stdout or "")
        stdout += "\n1 timeout"
    lines = stdout.strip().splitlines()
    summary = lines[-1] if lines else ""
    counts: Counter[str] = Counter()
    for number, outcome in re.findall(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected|timeout)", summary):
        counts["error" if outcome.startswith("error") else outcome] += int(number)
    failing = {line.split(" ", 1)[1].split(" - ")[0] for line in lines if line.startswith(("FAILED ", "ERROR "))}
    tail = "" if counts else "\n".join(lines[-15:])
    if tail:
        print(f"pytest gave no counts in {tree}:\n{tail}", file=sys.stderr)
    return Outcome(counts, failing, time.monotonic() - start, tail)


def coverage(tree: Path, package: str, mode: list[str]) -> dict[str, Counter[str]]:
    """Per check: how many findings have a safe, unsafe or display-only fix, or none."""
    report = scalarlint("check", *mode, "--unsafe-fixes", "--format", "json", "--exit-zero", package, cwd=tree)
    if report.returncode != 0:  # a crash or an unreadable file is a finding of this benchmark
        raise RuntimeError(f"scalarlint check failed on {tree / package}:\n{report.stderr[-3000:]}")
    out: dict[str, Counter[str]] = {}
    for item in json.loads(report.stdout):
        kind = item["fix"]["applicability"] if item.get("fix") else "none"
        out.setdefault(item["code"], Counter())[kind] += 1
    return out


def check_importable_without_scalarlint(python: str) -> None:
    """Refuse an interpreter that can import scalarlint: it would hide a fix that imports it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the tests run with their own PYTHONPATH
    probe = subprocess.run([python, "-c", "import scalarlint"], capture_output=True, check=False, cwd=tempfile.gettempdir(), env=env)
    if probe.returncode == 0:
        raise SystemExit(f"{python} can import scalarlint: the tests must run where it is not installed")


def copy_compiled_modules(python: str, module: str, tree: Path, package: str) -> int:
    """Copy the compiled modules of ``module`` as installed for ``python`` into the tree.

    A project with Cython modules (thinc) cannot run from its source release without building
    them; the wheel of the same release, installed in the test environment, has them built.
    The Python files stay the source release's, so the fixes are what the tests exercise.
    """
    where = subprocess.run(
        [python, "-I", "-c", f"import {module}, os; print(os.path.dirname({module}.__file__))"],
        capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(),
    ).stdout.strip()
    installed = Path(where)
    copied = 0
    for compiled in installed.rglob("*.so"):
        target = tree / package / compiled.relative_to(installed)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(compiled, target)
        copied += 1
    return copied


def take_tests(tree: Path, source: str, paths: tuple[str, ...]) -> None:
    """Extract ``paths`` at ``GITDIR@REF`` into the tree (read from the mirror, never committed)."""
    gitdir, _, ref = source.rpartition("@")
    archive = subprocess.run(["git", "--git-dir", gitdir, "archive", ref, *paths], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)


def vendor_helper(tree: Path, project: Project) -> str:
    """Vendor allow_scalar into the package and point ``allow-scalar-import`` at it, as a user would."""
    helper = f"{project.package}/_allow_scalar.py"
    done = scalarlint("vendor", "--path", helper, cwd=tree)
    if done.returncode != 0:
        raise RuntimeError(f"scalarlint vendor failed:\n{done.stderr}")
    config = tree / "pyproject.toml"
    text = config.read_text(encoding="utf-8") if config.exists() else ""
    if "[tool.scalarlint]" in text:
        raise RuntimeError(f"{config} already configures scalarlint")
    config.write_text(f'{text}\n[tool.scalarlint]\nallow-scalar-import = "{project.module}._allow_scalar"\n', encoding="utf-8")
    return helper


def sources(tree: Path, package: str) -> dict[str, bytes]:
    """The Python files of the package, by path relative to the tree."""
    return {str(p.relative_to(tree)): p.read_bytes() for p in sorted((tree / package).rglob("*.py"))}


def measure(name: str, source: Path, python: str, tests_from: str | None, timeout: float) -> dict[str, object]:
    """Both modes on one project: fix, map the changed files to tests, run them before and after."""
    project = PROJECTS[name]
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch) / "base"
        shutil.copytree(source, base, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", ".git"))
        if project.tests_from:
            if not tests_from:
                raise SystemExit(f"{name}'s release has no tests: give --tests-from {name}=GITDIR@REF")
            take_tests(base, tests_from, project.tests_from)
        if project.compiled:
            copy_compiled_modules(python, project.module, base, project.package)
        plain = coverage(base, project.package, MODES["all"])  # the release as it is, nothing configured
        helper = vendor_helper(base, project)
        configured = coverage(base, project.package, MODES["default"])
        original = sources(base, project.package)
        modes: dict[str, dict[str, object]] = {}
        for mode, flags in MODES.items():  # fix every copy before any test run writes into the base
            tree = Path(scratch) / mode
            shutil.copytree(base, tree)
            fixed = scalarlint("check", *flags, "--fix", "--unsafe-fixes", project.package, cwd=tree)
            applied = re.search(r"Fixed (\d+) finding", fixed.stdout + fixed.stderr)
            now = sources(tree, project.package)
            changed = sorted(p for p in now if p != helper and now[p] != original.get(p))
            mapping = {p: test_files_for(base, p, project) for p in changed}
            modes[mode] = {
                "tree": tree, "changed": changed, "mapping": mapping, "fixed": int(applied.group(1)) if applied else 0,
                "imports": [p for p in changed if IMPORTS_SCALARLINT.search(now[p].decode("utf-8", "replace"))],
                "helper_changed": now.get(helper) != original.get(helper),
            }
        before_runs: dict[tuple[str, ...], Outcome] = {}
        for mode, result in modes.items():
            files = sorted({t for tests in result["mapping"].values() for t in tests})  # type: ignore[union-attr]
            key = tuple(files)
            if key not in before_runs:
                before_runs[key] = run_tests(python, base, project, files, timeout)
            after = run_tests(python, result.pop("tree"), project, files, timeout)  # type: ignore[arg-type]
            before = before_runs[key]
            result.update(files=files, before=before, after=after, newly_failing=sorted(after.failing - before.failing))
    return {"name": name, "project": project, "plain": plain, "configured": configured, "modes": modes}


def environment(python: str) -> str:
    """The versions that decide how a project's tests run: Python, NumPy, pytest (and PyTorch)."""
    code = (
        "import sys, numpy, pytest\nv = [f'Python {sys.version.split()[0]}', f'NumPy {numpy.__version__}', f'pytest {pytest.__version__}']\n"
        "try:\n import torch; v.append(f'torch {torch.__version__}')\nexcept ImportError: pass\nprint(', '.join(v))"
    )
    probe = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True, check=False, cwd=tempfile.gettempdir())
    return probe.stdout.strip() or "unknown"


def environment_setups() -> list[str]:
    """The commands that made the test environments, as the docstring gives them."""
    block = (__doc__ or "").split("Environments of the committed table (PyPI; Python 3.11)::\n\n", 1)[-1].split("\n\n", 1)[0]
    return [line.strip() for line in block.splitlines()]


def fmt(outcome: Outcome) -> str:
    """passed / failed / errors (and skipped, deselected where any) of one run."""
    c = outcome.counts
    text = f"{c['passed']} / {c['failed']} / {c['error']}"
    extra = [f"{c[k]} {k}" for k in ("skipped", "deselected", "timeout") if c[k]]
    return text + (f" ({', '.join(extra)})" if extra else "")


def table(results: list[dict[str, object]], args: argparse.Namespace) -> str:
    """The report: per project and mode the tests before and after, then the mapping and coverage."""
    lines = [
        "# Real projects' own tests of the changed files, before and after `--fix --unsafe-fixes`",
        "",
        f"Command: `python benchmarks/real_fixes.py {' '.join(sys.argv[1:])}`.",
        "",
        (
            "Each interpreter is a virtual environment with the project's test dependencies and without scalarlint "
            "(the script refuses one that can import it); how each was made is in the script's docstring. "
            "Each tree has the allow_scalar helper vendored (`scalarlint vendor --path <pkg>/_allow_scalar.py`) and "
            "`allow-scalar-import = \"<pkg>._allow_scalar\"` in its `pyproject.toml`. Modes: `default` is "
            "`scalarlint check --fix --unsafe-fixes <pkg>`; `all` adds `--scope all --select ALL`. "
            "The tests run are exactly the test files of the changed files (next table), on the unfixed tree (before) "
            "and on the fixed one (after), every test from the same seeds (Python's, NumPy's, PyTorch's where loaded). "
            "Sources: the release files in `benchmarks/recall/SOURCES.md`."
        ),
        f"Machine: {platform.machine()}, {os.cpu_count()} cores; scalarlint run by Python {platform.python_version()}.",
        "",
        (
            "| project | mode | tests | environment | test files | passed / failed / errors before | after | newly failing | "
            "files changed | changed files without a test file | findings fixed | changed files importing scalarlint |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        env = environment(r["python"])  # type: ignore[arg-type]
        for mode, m in r["modes"].items():  # type: ignore[union-attr]
            untested = sum(1 for tests in m["mapping"].values() if not tests)
            lines.append(
                f"| {r['name']} | {mode} | {r['project'].note} | {env} | {len(m['files'])} | {fmt(m['before'])} | "  # type: ignore[union-attr]
                f"{fmt(m['after'])} | {len(m['newly_failing'])} | {len(m['changed'])} | {untested} | {m['fixed']} | {len(m['imports'])} |"
            )
    lines += ["", "Changed files and the test files run for them (`-`: the project has no test file for it):", "",
              "| project | mode | changed file | test files |", "|---|---|---|---|"]
    for r in results:
        for mode, m in r["modes"].items():  # type: ignore[union-attr]
            for changed, tests in m["mapping"].items():
                lines.append(f"| {r['name']} | {mode} | `{changed}` | {', '.join(f'`{t}`' for t in tests) or '-'} |")
    for title, key in (
        ("Fix coverage of the findings in the release as shipped (`--scope all --select ALL --unsafe-fixes`, no helper configured):", "plain"),
        ("Fix coverage in the default scope with the vendored helper configured (`--unsafe-fixes`):", "configured"),
    ):
        lines += ["", title, "", "| project | check | findings | safe fix | unsafe fix | display-only | no fix |", "|---|---|---|---|---|---|---|"]
        for r in results:
            for code, counts in sorted(r[key].items()):  # type: ignore[union-attr]
                lines.append(
                    f"| {r['name']} | {code} | {sum(counts.values())} | {counts['safe']} | {counts['unsafe']} | "
                    f"{counts['display-only']} | {counts['none']} |"
                )
    lines += ["", "Environments (each `--python-for` interpreter; from the script's docstring):", "", "```", *environment_setups(), "```"]
    for r in results:
        for mode, m in r["modes"].items():  # type: ignore[union-attr]
            both = sorted(m["before"].failing & m["after"].failing)
            if both:
                lines += ["", f"Tests of {r['name']} ({mode}) that fail before and after fixing alike:", *_listed(both)]
                lines += ["", f"Why: {r['project'].why_failing}"] if r["project"].why_failing else []  # type: ignore[union-attr]
            if m["newly_failing"]:
                lines += ["", f"Tests of {r['name']} ({mode}) that fail only after fixing:", *[f"- `{t}`" for t in m["newly_failing"]]]
            if m["helper_changed"]:
                lines += ["", f"{r['name']} ({mode}): the fix rewrote the vendored helper itself."]
    return "\n".join(lines) + "\n"


def _listed(tests: list[str], most: int = 20) -> list[str]:
    """Markdown items for failing tests: each one, or per test file with a count when there
    are more than ``most`` (a parametrized class can fail hundreds of times for one cause)."""
    if len(tests) <= most:
        return [f"- `{t}`" for t in tests]
    per_file = Counter(t.split("::", 1)[0] for t in tests)
    return [f"- `{path}`: {count} tests" for path, count in sorted(per_file.items())]


def pairs(items: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` options as a dict."""
    return dict(item.partition("=")[::2] for item in items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", help="interpreter with the projects' test dependencies, without scalarlint")
    parser.add_argument("--python-for", action="append", default=[], metavar="NAME=PY", help="a project's own test interpreter")
    parser.add_argument("--project", action="append", default=[], metavar="NAME=PATH", help=f"one of {', '.join(PROJECTS)}")
    parser.add_argument("--tests-from", action="append", default=[], metavar="NAME=GITDIR@REF", help="where a release has no tests")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per test run")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    own, tests_from = pairs(args.python_for), pairs(args.tests_from)
    results = []
    for name, path in pairs(args.project).items():
        if name not in PROJECTS:
            raise SystemExit(f"unknown project {name!r}; known: {', '.join(PROJECTS)}")
        python = own.get(name, args.python)
        if not python:
            raise SystemExit(f"no interpreter for {name}: give --python or --python-for {name}=PY")
        check_importable_without_scalarlint(python)
        result = {**measure(name, Path(path), python, tests_from.get(name), args.timeout), "python": python}
        results.append(result)
        print(f"{name}: " + "; ".join(f"{mode} {fmt(m['before'])} -> {fmt(m['after'])}" for mode, m in result["modes"].items()), file=sys.stderr)  # type: ignore[union-attr]
    report = table(results, args)
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")
    if args.json:
        raw = [{"name": r["name"], "modes": {k: {**v, "before": [dict(v["before"].counts), sorted(v["before"].failing), v["before"].seconds],
                                                 "after": [dict(v["after"].counts), sorted(v["after"].failing), v["after"].seconds]}
                                             for k, v in r["modes"].items()}} for r in results]  # type: ignore[union-attr]
        args.json.write_text(json.dumps(raw, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
