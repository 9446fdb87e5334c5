"""Validate the fixers against the reference rule set: fix a corpus of bad rules, then run them.

The corpus (``tests/fixers/corpus``) holds ChainRules-style rules written the way scalar
code gets written: search loops, element writes, builtin reductions, element loops. This
script

1. copies the corpus to a temporary folder and runs ``scalarlint check --fix --unsafe-fixes``
   on the copy in a real subprocess (the same command a user runs);
2. imports the fixed modules and, for every rule, compares ``y`` and the pullback's
   cotangents with ``scalarlint.rules.RULES[...]`` on random inputs full of ties and zeros
   (NumPy, float64): they must agree in every trial;
3. runs every rule, before and after fixing, on ``scalarlint.runtime.strict`` arrays, where
   any scalar access raises: a rule is *strict-clean* when it runs without error, without
   entering ``allow_scalar()``, and agrees with NumPy there too;
4. writes a Markdown table (``benchmarks/results/fix_validation.md``).

Every rule that still needs scalar access after fixing must be listed in ``UNFIXABLE`` with
the reason no fixer handles it; ``tests/fixers/test_validation.py`` asserts exactly that, and
100% agreement.

Run: ``python benchmarks/fix_validation.py [--trials N] [--output PATH]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "fixers" / "corpus"
# The ChainRules translations of the detection corpus, fixed in a sub-folder of the copy.
CHAINRULES = ROOT / "tests" / "chainrules_corpus"
CORPORA: dict[str, Path] = {"": CORPUS, "chainrules": CHAINRULES}
RESULTS = ROOT / "benchmarks" / "results" / "fix_validation.md"

Args = tuple[Any, ...]


def _vector(rng: np.random.Generator, n: int) -> np.ndarray:
    """Small integers as floats: ties, zeros and equal magnitudes of both signs are common."""
    return rng.integers(-3, 4, size=n).astype(np.float64)


def _smooth(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.normal(size=n)


def _with_zeros(rng: np.random.Generator, n: int) -> np.ndarray:
    x = rng.uniform(0.5, 2.0, size=n) * rng.choice([-1.0, 1.0], size=n)
    zeros = rng.integers(0, 3)
    x[rng.choice(n, size=min(zeros, n), replace=False)] = 0.0
    return x


def _spd(rng: np.random.Generator, n: int) -> np.ndarray:
    """A well-conditioned symmetric positive definite matrix."""
    m = rng.normal(size=(n, n))
    return m @ m.T + n * np.eye(n)


def _index_args(rng: np.random.Generator, n: int) -> Args:
    """A vector and a host index of either sign (``-n <= i < n``)."""
    return _smooth(rng, n), int(rng.integers(-n, n))


@dataclass(frozen=True)
class Case:
    """One corpus rule, the reference rule it must agree with, and how to call both."""

    module: str
    name: str
    oracle: str
    make: Callable[[np.random.Generator, int], Args]
    oracle_args: Callable[[Args], Args] = lambda args: args
    compare: tuple[int, ...] = (0,)  # which cotangents to compare (others are None)
    min_n: int = 1
    # the reference's cotangents in the rule's argument order (``where(x > 0, x, 0)`` for relu)
    oracle_cotangents: Callable[[Args], Args] = lambda cot: cot
    max_n: int = 8
    primal: Callable[[Any], Any] = lambda y: y  # the differentiable output (findmax returns (value, index))

    @property
    def corpus(self) -> str:
        return self.module.rpartition(".")[0]

    @property
    def stem(self) -> str:
        return self.module.rpartition(".")[2]

    @property
    def id(self) -> str:
        return f"{self.module}.{self.name}"


CASES: tuple[Case, ...] = (
    Case("norms", "rrule_norm_inf", "norm", lambda r, n: (_vector(r, n),), lambda a: (a[0], math.inf)),
    Case("norms", "rrule_norm_neg_inf", "norm", lambda r, n: (_vector(r, n),), lambda a: (a[0], -math.inf)),
    Case("norms", "rrule_norm_inf_nonzero", "norm", lambda r, n: (_vector(r, n),), lambda a: (a[0], math.inf)),
    Case("norms", "rrule_norm1", "norm", lambda r, n: (_vector(r, n),), lambda a: (a[0], 1)),
    Case("extrema", "rrule_maximum", "maximum", lambda r, n: (_vector(r, n),)),
    Case("extrema", "rrule_minimum", "minimum", lambda r, n: (_vector(r, n),)),
    Case("extrema", "rrule_maximum_next", "maximum", lambda r, n: (_vector(r, n),)),
    Case("extrema", "rrule_minimum_nonzero", "minimum", lambda r, n: (_vector(r, n),)),
    Case("reductions", "rrule_sum", "sum", lambda r, n: (_smooth(r, n),)),
    Case("reductions", "rrule_mean", "mean", lambda r, n: (_smooth(r, n),)),
    Case("reductions", "rrule_column_sum", "sum", lambda r, n: (r.normal(size=(n, 3)),), lambda a: (a[0], 0)),
    Case("reductions", "rrule_logsumexp", "logsumexp", lambda r, n: (_vector(r, n),)),
    Case("reductions", "rrule_softmax", "softmax", lambda r, n: (_vector(r, n),)),
    Case("reductions", "rrule_prod", "prod", lambda r, n: (_with_zeros(r, n),)),
    Case("reductions", "rrule_prod_masks", "prod", lambda r, n: (_with_zeros(r, n),)),
    Case(
        "indexing", "rrule_getindex", "getindex",
        lambda r, n: (_smooth(r, n), int(r.integers(-n, n))), lambda a: (a[0], np.asarray(a[1])),
    ),
    Case(
        "indexing", "rrule_getindex_many", "getindex",
        lambda r, n: (_smooth(r, n), r.integers(0, n, size=2 * n)),
    ),
    Case(
        "indexing", "rrule_getindex_skipping", "getindex",
        lambda r, n: (_smooth(r, n), r.integers(0, n, size=2 * n)),
    ),
    Case("indexing", "rrule_last", "getindex", lambda r, n: (_smooth(r, n),), lambda a: (a[0], np.asarray([a[0].shape[0] - 1]))),
    Case("indexing", "rrule_cumsum", "cumsum", lambda r, n: (_smooth(r, n),)),
    Case("indexing", "rrule_clip", "clip", lambda r, n: (_vector(r, n), -1.0, 2.0)),
    Case("indexing", "rrule_det2", "det", lambda r, n: (r.normal(size=(2, 2)),)),
    *(  # the ChainRules translations of the detection corpus (tests/chainrules_corpus)
        Case("chainrules.arrays", "rrule_getindex", "getindex", _index_args, lambda a: (a[0], np.asarray(a[1]))),
        Case("chainrules.arrays", "rrule_getindex_vector", "getindex", _index_args, lambda a: (a[0], np.asarray(a[1]))),
        Case(
            "chainrules.arrays", "rrule_getindex_matrix", "getindex",
            lambda r, n: (r.normal(size=(n, 3)), int(r.integers(-n, n)), int(r.integers(-3, 3))),
            lambda a: (a[0], (np.asarray(a[1]), np.asarray(a[2]))),
        ),
        Case("chainrules.arrays", "rrule_getindex_repeated", "getindex", lambda r, n: (_smooth(r, n), r.integers(0, n, size=2 * n))),
        Case("chainrules.arrays", "rrule_first", "getindex", lambda r, n: (_smooth(r, n),), lambda a: (a[0], np.asarray(0))),
        Case("chainrules.arrays", "rrule_last", "getindex", lambda r, n: (_smooth(r, n),), lambda a: (a[0], np.asarray(-1))),
        Case("chainrules.arrays", "rrule_sort", "sort", lambda r, n: (_smooth(r, n),)),
        Case("chainrules.arrays", "rrule_reverse", "take", lambda r, n: (_smooth(r, n),), lambda a: (a[0], np.arange(a[0].shape[0])[::-1].copy())),
        Case(
            "chainrules.arrays", "rrule_relu_mask", "where", lambda r, n: (_vector(r, n),),
            lambda a: (a[0] > 0, a[0], 0.0), oracle_cotangents=lambda c: (c[1],),
        ),
        Case("chainrules.arrays", "rrule_abs_loop", "abs", lambda r, n: (_vector(r, n),)),
        Case("chainrules.linalg", "rrule_diag", "getindex", lambda r, n: (r.normal(size=(n, n)),), lambda a: (a[0], (np.arange(a[0].shape[0]),) * 2)),
        Case("chainrules.linalg", "rrule_tr", "trace", lambda r, n: (r.normal(size=(n, n)),)),
        Case(
            "chainrules.linalg", "rrule_triu", "where", lambda r, n: (r.normal(size=(n, n + 1)),),
            lambda a: (np.triu(np.ones(a[0].shape, dtype=bool)), a[0], 0.0), oracle_cotangents=lambda c: (c[1],),
        ),
        Case("chainrules.linalg", "rrule_det2", "det", lambda r, n: (r.normal(size=(2, 2)),)),
        Case("chainrules.linalg", "rrule_matmul_loops", "matmul", lambda r, n: (r.normal(size=(n, 3)), r.normal(size=(3, 2))), compare=(0, 1)),
        Case("chainrules.norms", "rrule_norm_inf", "norm", lambda r, n: (_vector(r, n),), lambda a: (a[0], math.inf)),
        Case("chainrules.norms", "rrule_norm_neg_inf", "norm", lambda r, n: (_vector(r, n),), lambda a: (a[0], -math.inf)),
        # sign(0) is -1 in this translation (ChainRules' rule gives 0): compared away from zero
        Case("chainrules.norms", "rrule_norm1", "norm", lambda r, n: (_smooth(r, n),), lambda a: (a[0], 1)),
        # (rrule_norm2 is left out: its one sync, `float(y) == 0.0`, is SL107, opt-in; with no
        # finding by default there is nothing for `--fix` to act on)
        Case("chainrules.norms", "rrule_normp", "norm", lambda r, n: (_vector(r, n), 3.0)),
        Case("chainrules.norms", "rrule_normalize", "normalize", lambda r, n: (_smooth(r, n),)),
        Case("chainrules.reductions", "rrule_maximum", "maximum", lambda r, n: (_vector(r, n),)),
        Case("chainrules.reductions", "rrule_minimum", "minimum", lambda r, n: (_vector(r, n),)),
        Case("chainrules.reductions", "rrule_findmax", "findmax", lambda r, n: (_vector(r, n),), primal=lambda y: y[0]),
        Case("chainrules.reductions", "rrule_maximum_dims", "maximum", lambda r, n: (_vector(r, 3 * n).reshape(n, 3),), lambda a: (a[0], 0)),
        Case("chainrules.reductions", "rrule_prod", "prod", lambda r, n: (_with_zeros(r, n),)),
        Case("chainrules.reductions", "rrule_prod_zeros", "prod", lambda r, n: (_with_zeros(r, n),)),
        Case("chainrules.reductions", "rrule_cumsum", "cumsum", lambda r, n: (_smooth(r, n),)),
        # the textbook pullback divides by x[i]: compared where x has no zero
        Case("chainrules.reductions", "rrule_cumprod", "cumprod", lambda r, n: (_smooth(r, n),)),
        Case("chainrules.reductions", "rrule_logsumexp", "logsumexp", lambda r, n: (_vector(r, n),)),
        Case("chainrules.reductions", "rrule_sum_builtin", "sum", lambda r, n: (_smooth(r, n),)),
        Case("chainrules.reductions", "rrule_maximum_builtin", "maximum", lambda r, n: (_smooth(r, n),)),
        Case("chainrules.reductions", "rrule_mean_numpy", "mean", lambda r, n: (_smooth(r, n),)),
        # odd lengths: this translation takes the upper middle element, NumPy's median averages two
        Case("chainrules.reductions", "rrule_median", "median", lambda r, n: (_smooth(r, 2 * (n // 2) + 1),)),
        Case("chainrules.arrays", "rrule_evalpoly", "evalpoly", lambda r, n: (float(r.normal()), _smooth(r, n)), compare=(0, 1)),
        Case("chainrules.linalg", "rrule_cholesky", "cholesky", lambda r, n: (_spd(r, n),)),
        Case("chainrules.linalg", "rrule_svd_values", "svdvals", lambda r, n: (r.normal(size=(n + 1, n)),)),
    ),
)

# Rules that still need scalar access after fixing, and why no fixer handles them.
UNFIXABLE: dict[str, str] = {
    "chainrules.arrays.rrule_relu_mask": "a boolean-mask write whose mask comes from another array of unknown rank "
    "(`dx[x <= 0] = 0`): `dx[m]` with a lower-rank `m` picks whole rows, which `xp.where(m, 0, dx)` would get "
    "wrong, so the mask fix needs the ranks to be known equal",
    "chainrules.arrays.rrule_evalpoly": "Horner's rule and its pullback are linear recurrences (`ys[i] = x * ys[i + 1] + "
    "p[i]`, `dp[i] = dp[i - 1] * x`): vectorizing them needs powers of `x`, an algorithm change (the reference "
    "rule's `x**k`), not a local rewrite",
    "chainrules.linalg.rrule_matmul_loops": "a loop over `np.ndindex(m, k)` computing one matrix product entry per "
    "trip: a matrix product, not an element loop",
    "chainrules.reductions.rrule_prod_zeros": "a data-dependent branch on the number of zeros (`xp.nonzero`, "
    "`int(zeros[0])`): an algorithm change",
    "chainrules.reductions.rrule_sum_builtin": "a list comprehension building one cotangent per element (`[dy for _ in "
    "x]`): no fixer turns it into an array, which would change the cotangent from a list",
}


@dataclass
class Result:
    case: Case
    trials: int = 0
    agreed: int = 0
    failures: list[str] = field(default_factory=list)
    strict_before: str = ""
    strict_after: str = ""
    fixed: Counter = field(default_factory=Counter)
    remaining: Counter = field(default_factory=Counter)
    before: Counter = field(default_factory=Counter)

    @property
    def agrees(self) -> bool:
        return self.trials > 0 and self.agreed == self.trials

    @property
    def strict_clean(self) -> bool:
        return self.strict_after == "clean"


# -- fixing ----------------------------------------------------------------------------------
def run_cli(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``scalarlint`` in a subprocess of this interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "scalarlint.cli", *map(str, args)], capture_output=True, text=True, cwd=cwd, check=False
    )


def fix_corpus(dest: Path) -> subprocess.CompletedProcess[str]:
    """Copy the corpora to ``dest`` (the ChainRules one in ``dest/chainrules``) and fix the copy
    with ``check --fix --unsafe-fixes``."""
    if dest.exists():
        shutil.rmtree(dest)
    for prefix, folder in CORPORA.items():
        shutil.copytree(folder, dest / prefix if prefix else dest, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    # The copy is a project that depends on scalarlint (its rules run under its runtime), so
    # the allow_scalar fix may import it; without the declaration that fix is display-only.
    (dest / "requirements.txt").write_text("numpy\narray-api-compat\nscalarlint\n", encoding="utf-8")
    return run_cli("check", "--fix", "--unsafe-fixes", "--show-fixes", "--no-color", dest)


def corpus_folders(root: Path) -> dict[str, Path]:
    """Each corpus's folder under ``root`` (a fixed copy) or the committed ones (``None``)."""
    return {prefix: (root / prefix if prefix else root) for prefix in CORPORA}


def findings_by_rule(folders: dict[str, Path]) -> dict[tuple[str, str], Counter]:
    """Codes of the findings per (module, top-level rule), from the JSON report. The files are
    named one by one: named files are checked even where a folder walk would exclude them."""
    out: dict[tuple[str, str], Counter] = {}
    for prefix, folder in folders.items():
        proc = run_cli("check", "--format", "json", "--exit-zero", *sorted(folder.glob("*.py")))
        if proc.returncode != 0:
            raise RuntimeError(f"scalarlint check failed: {proc.stderr}")
        for item in json.loads(proc.stdout):
            rule = (item.get("rule") or "").split(":")[-1].split(".")[0]
            module = ".".join(filter(None, (prefix, Path(item["filename"]).stem)))
            out.setdefault((module, rule), Counter())[item["code"]] += 1
    return out


def load_modules(folders: dict[str, Path], tag: str) -> dict[str, Any]:
    return {
        ".".join(filter(None, (prefix, path.stem))): load_module(path, f"{tag}_{prefix}")
        for prefix, folder in folders.items()
        for path in sorted(folder.glob("*.py"))
    }


def load_module(path: Path, tag: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"_scalarlint_fixval_{tag}_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- running -----------------------------------------------------------------------------------
def _host(value: Any) -> Any:
    from scalarlint.runtime import StrictArray, to_host

    if isinstance(value, StrictArray):
        return to_host(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_host(v) for v in value)
    return value


def _close(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    a, b = np.asarray(_host(a), dtype=np.float64), np.asarray(_host(b), dtype=np.float64)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-10, atol=1e-12, equal_nan=True))


def _cotangent(rng: np.random.Generator, y: Any) -> np.ndarray:
    return np.asarray(rng.normal(size=np.shape(y)))


def compare_once(case: Case, rule: Callable[..., Any], rng: np.random.Generator, n: int) -> str | None:
    """Run the fixed rule and the reference on one input; a message when they differ."""
    from scalarlint.rules import RULES

    args = case.make(rng, n)
    y, pullback = rule(*args)
    y = case.primal(y)
    dy = _cotangent(rng, y)
    cot = pullback(dy)
    y_ref, pullback_ref = RULES[case.oracle](*case.oracle_args(args))
    y_ref = case.primal(y_ref)
    cot_ref = case.oracle_cotangents(pullback_ref(dy))
    if not _close(y, y_ref):
        return f"y differs for args={args!r}: {y!r} vs {y_ref!r}"
    if len(cot) != len(args):
        return f"{len(cot)} cotangents for {len(args)} arguments"
    for k in case.compare:
        if not _close(cot[k], cot_ref[k]):
            return f"cotangent {k} differs for args={args!r}, dy={dy!r}: {cot[k]!r} vs {cot_ref[k]!r}"
    return None


def strict_status(case: Case, rule: Callable[..., Any], rng: np.random.Generator, n: int = 6) -> str:
    """``clean``, ``allow_scalar`` (runs only inside a declared scope), or the error it raises."""
    from scalarlint.runtime import ScalarIndexingError, strict
    from scalarlint.runtime._context import add_transition_hook, remove_transition_hook

    entered: list[bool] = []

    def hook(allowed: bool, entering: bool) -> None:
        if entering and allowed:
            entered.append(True)

    args = case.make(rng, n)
    strict_args = tuple(strict(a) if isinstance(a, np.ndarray) else a for a in args)
    add_transition_hook(hook)
    try:
        y, pullback = rule(*strict_args)
        y = case.primal(y)
        dy = _cotangent(rng, _host(y))
        cot = pullback(strict(dy))
    except ScalarIndexingError as exc:
        return "scalar access: " + str(exc).splitlines()[0]
    except Exception as exc:  # a fixed rule that breaks on device arrays is a failure too
        return f"error: {type(exc).__name__}: {exc}"
    finally:
        remove_transition_hook(hook)
    y_np, pullback_np = rule(*args)
    y_np = case.primal(y_np)
    cot_np = pullback_np(dy)
    if not _close(y, y_np) or not all(_close(cot[k], cot_np[k]) for k in case.compare):
        return "error: strict result differs from NumPy"
    return "allow_scalar" if entered else "clean"


def validate(fixed: Path, trials: int = 40, seed: int = 0) -> list[Result]:
    """Compare every fixed rule with the reference and run it on the strict array."""
    committed = {prefix: folder for prefix, folder in CORPORA.items()}
    before_modules = load_modules(committed, "before")
    after_modules = load_modules(corpus_folders(fixed), "after")
    before_findings = findings_by_rule(committed)
    after_findings = findings_by_rule(corpus_folders(fixed))
    results = []
    for case in CASES:
        rng = np.random.default_rng(seed)
        result = Result(case)
        rule = getattr(after_modules[case.module], case.name)
        for trial in range(trials):
            n = max(case.min_n, 1 + trial % case.max_n)
            result.trials += 1
            try:
                problem = compare_once(case, rule, rng, n)
            except Exception as exc:
                problem = f"{type(exc).__name__}: {exc}"
            if problem is None:
                result.agreed += 1
            elif len(result.failures) < 3:
                result.failures.append(problem)
        n_strict = max(case.min_n, min(6, case.max_n))
        result.strict_before = strict_status(case, getattr(before_modules[case.module], case.name), np.random.default_rng(seed), n_strict)
        result.strict_after = strict_status(case, rule, np.random.default_rng(seed), n_strict)
        before = before_findings.get((case.module, case.name), Counter())
        result.before = before
        result.remaining = after_findings.get((case.module, case.name), Counter())
        result.fixed = before - result.remaining
        results.append(result)
    return results


# -- report ----------------------------------------------------------------------------------
def _codes(counter: Counter) -> str:
    return ", ".join(f"{code}x{count}" if count > 1 else code for code, count in sorted(counter.items())) or "-"


def render_markdown(results: list[Result], cli_output: str = "") -> str:
    total = len(results)
    agree = sum(r.agrees for r in results)
    clean_after = sum(r.strict_clean for r in results)
    clean_before = sum(r.strict_before == "clean" for r in results)
    allowed = sum(r.strict_after == "allow_scalar" for r in results)
    trials = sum(r.trials for r in results)
    agreed = sum(r.agreed for r in results)
    lines = [
        "# Fix validation",
        "",
        "Generated by `python benchmarks/fix_validation.py`: the corpus in `tests/fixers/corpus` is fixed with",
        "`scalarlint check --fix --unsafe-fixes`, then every rule is compared with `scalarlint.rules.RULES` on",
        "random inputs with ties and zeros (NumPy, float64) and run on the strict array (`scalarlint.runtime.strict`).",
        "",
        f"- agreement with the reference rules after fixing: **{agree}/{total} rules ({100 * agree / total:.0f}%)**, "
        f"{agreed}/{trials} trials",
        f"- strict-clean (no scalar access, no `allow_scalar`) before fixing: {clean_before}/{total}; "
        f"after fixing: **{clean_after}/{total}**",
        f"- after fixing, {allowed} rule(s) run on the strict array only inside a declared `allow_scalar()` scope; "
        f"{total - clean_after - allowed} still fail there",
        "",
        "| rule | reference | fixed | remaining | agrees | strict before | strict after | why not clean |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        reason = UNFIXABLE.get(r.case.id, "") if not r.strict_clean else ""
        before = "clean" if r.strict_before == "clean" else ("allow_scalar" if r.strict_before == "allow_scalar" else "fails")
        after = r.strict_after if r.strict_after in ("clean", "allow_scalar") else "fails"
        lines.append(
            f"| `{r.case.module}.{r.case.name}` | `{r.case.oracle}` | {_codes(r.fixed)} | {_codes(r.remaining)} | "
            f"{r.agreed}/{r.trials} | {before} | {after} | {reason} |"
        )
    failures = [(r.case.id, f) for r in results for f in r.failures]
    if failures:
        lines += ["", "## Disagreements", ""] + [f"- `{name}`: {f}" for name, f in failures]
    if cli_output:
        lines += ["", "## Output of `scalarlint check --fix --unsafe-fixes --show-fixes`", "", "```", cli_output.rstrip(), "```"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--output", type=Path, default=RESULTS)
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        fixed = Path(tmp) / "corpus"
        proc = fix_corpus(fixed)
        if proc.returncode == 2:
            print(proc.stdout, proc.stderr, file=sys.stderr)
            return 2
        results = validate(fixed, options.trials)
        summary = proc.stdout.replace(str(fixed), "corpus")
    report = render_markdown(results, summary)
    options.output.parent.mkdir(parents=True, exist_ok=True)
    options.output.write_text(report, encoding="utf-8")
    print(report)
    ok = all(r.agrees for r in results) and all(r.strict_clean or r.case.id in UNFIXABLE for r in results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
