"""The fix validation of ``fix_validation.py`` on a device backend: CuPy, PyTorch CUDA, or their
strict CPU stand-ins.

``fix_validation.py`` fixes the corpus and checks the fixed rules on NumPy and on the strict
array. This script takes the same fixed corpus to a real device and checks the two claims the
strict array stands in for:

1. **Same results**: every fixed rule, run on device arrays, gives the forward value and
   cotangents the reference rule (``scalarlint.rules.RULES``) gives on the same device arrays.
2. **No sync where the strict array says none**: every fixed rule the strict array calls
   *clean* runs its forward and pullback on the device without a host sync. On ``cupy`` and
   ``torch`` that is CUDA graph capture of forward plus pullback (any sync invalidates it;
   on ``torch`` inside ``torch.cuda.set_sync_debug_mode("error")`` too); on ``strict`` and
   ``torch-strict`` it is ``disallow_scalar()``. The rules before fixing are probed the same
   way: a rule the strict array rejects that the device runs without a sync is a place where
   the strict array is stricter than the device (a per-element launch is slow, not a sync).

The device backends are ``benchmarks/gpu_verify.py``'s (conversions, guard, capture).

Run: ``python benchmarks/fix_validation_device.py --device cupy --out fix_validation_cupy.md``
(``--device torch``, ``strict``, ``torch-strict``; ``--trials N`` per rule, default 5).
"""

from __future__ import annotations

import argparse
import datetime
import platform
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fix_validation as fv
import gpu_verify as gv

from scalarlint.rules import RULES


@dataclass
class DeviceResult:
    case: fv.Case
    trials: int = 0
    agreed: int = 0
    failures: list[str] = field(default_factory=list)
    strict_after: str = ""  # fix_validation's strict-array verdict on the fixed rule
    sync_after: str = ""  # "no sync", "sync: ..." or "error: ..." (see sync_probe), fixed rule
    sync_before: str = ""  # the same, rule before fixing

    @property
    def agrees(self) -> bool:
        return self.trials > 0 and self.agreed == self.trials

    @property
    def mismatch(self) -> bool:
        """The strict array says clean, the device saw a sync: a bug in the rule or in the strict array."""
        return self.strict_after == "clean" and self.sync_after.startswith("sync")

    @property
    def broken(self) -> bool:
        """The strict array says clean, the fixed code does not run on the device at all."""
        return self.strict_after == "clean" and self.sync_after.startswith("error")


# What the detectors raise: the strict policies, PyTorch's sync debug mode, a broken capture.
_SYNC = re.compile(r"ScalarIndexing|synchroniz|capturing|StreamCapture|capture", re.IGNORECASE)


def _is_host_array(value: Any) -> bool:
    return isinstance(value, (np.ndarray, np.generic)) and not isinstance(value, (np.bool_, np.integer, np.floating))


def device_args(backend: gv.Backend, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """NumPy arrays (also inside tuples) on the device; host scalars stay host scalars."""
    return gv.tree_map(args, lambda a: backend.to_device(np.asarray(a)) if _is_host_array(a) else a)


def host(backend: gv.Backend, value: Any) -> Any:
    return gv.tree_map_device(value, backend.to_host)


def _describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:100]}"
    return ("sync: " if _SYNC.search(text) else "error: ") + text


def compare_on_device(backend: gv.Backend, case: fv.Case, rule: Callable[..., Any], rng: np.random.Generator, n: int) -> str | None:
    """The fixed rule and the reference on the same device inputs; a message when they differ."""
    args = case.make(rng, n)
    y, pullback = rule(*device_args(backend, args))
    y = case.primal(y)
    dy_host = np.asarray(rng.normal(size=np.shape(host(backend, y))))
    dy = backend.to_device(dy_host)
    cot = pullback(dy)
    y_ref, pullback_ref = RULES[case.oracle](*device_args(backend, case.oracle_args(args)))
    cot_ref = case.oracle_cotangents(pullback_ref(dy))
    if not fv._close(host(backend, y), host(backend, case.primal(y_ref))):
        return f"y differs for n={n}"
    if len(cot) != len(args):
        return f"{len(cot)} cotangents for {len(args)} arguments"
    for k in case.compare:
        if not fv._close(host(backend, cot[k]), host(backend, cot_ref[k])):
            return f"cotangent {k} differs for n={n}"
    return None


def sync_probe(backend: gv.Backend, case: fv.Case, rule: Callable[..., Any], rng: np.random.Generator, n: int) -> str:
    """``no sync``; ``sync: ...``, what the device's sync detector reported for forward plus
    pullback; or ``error: ...``, the rule failing there for another reason."""
    try:
        args = device_args(backend, case.make(rng, n))
        y, _ = rule(*args)
        dy = backend.to_device(np.asarray(rng.normal(size=np.shape(host(backend, case.primal(y))))))

        def forward_and_pullback() -> Any:
            y, pullback = rule(*args)
            return case.primal(y), pullback(dy)

        with backend.guard():
            eager = forward_and_pullback()
        if backend.graphs:
            capture = backend.capture(forward_and_pullback, host(backend, eager))
            if not capture.ok:  # the eager run passed: what broke the capture was a sync
                return f"sync: in CUDA graph capture: {capture.detail}"
    except Exception as exc:  # ScalarIndexingError, a sync error, or a rule broken on the device
        return _describe(exc)
    return "no sync"


def validate_on_device(backend: gv.Backend, fixed: Path, trials: int, seed: int = 0) -> list[DeviceResult]:
    """Agreement runs inside ``allow_scalar()`` (the rules that still need scalar access are
    compared too; the strict array would refuse them); the sync probes run under the guard."""
    from scalarlint.runtime import allow_scalar

    before = fv.load_modules(dict(fv.CORPORA), "before")
    after = fv.load_modules(fv.corpus_folders(fixed), "after")
    results = []
    for case in fv.CASES:
        result = DeviceResult(case)
        rule = getattr(after[case.module], case.name)
        rng = np.random.default_rng(seed)
        for trial in range(trials):
            n = max(case.min_n, 1 + (3 + trial) % case.max_n)
            result.trials += 1
            try:
                with allow_scalar():
                    problem = compare_on_device(backend, case, rule, rng, n)
            except Exception as exc:
                problem = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:120]}"
            if problem is None:
                result.agreed += 1
            elif len(result.failures) < 2:
                result.failures.append(problem)
        n_probe = max(case.min_n, min(6, case.max_n))
        result.strict_after = fv.strict_status(case, rule, np.random.default_rng(seed), n_probe)
        result.sync_after = sync_probe(backend, case, rule, np.random.default_rng(seed), n_probe)
        result.sync_before = sync_probe(backend, case, getattr(before[case.module], case.name), np.random.default_rng(seed), n_probe)
        results.append(result)
    return results


def _strict_word(status: str) -> str:
    return status if status in ("clean", "allow_scalar") else "fails"


def render(backend: gv.Backend, results: list[DeviceResult], trials: int, elapsed: float, command: str) -> str:
    total = len(results)
    agree = sum(r.agrees for r in results)
    clean = [r for r in results if r.strict_after == "clean"]
    mismatches = [r for r in results if r.mismatch]
    broken = [r for r in results if r.broken]
    caught_before = sum(r.sync_before.startswith("sync") for r in results)
    # the corpus is NumPy-flavoured: some rules did not run on another library before fixing either
    inherited = sum(r.sync_before.startswith("error") for r in broken)
    lines = [
        f"# Fix validation on `{backend.name}`",
        "",
        f"- command: `{command}`",
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: `{platform.machine()}`, Python {platform.python_version()}, NumPy {np.__version__}",
        f"- backend: {backend.describe()}",
        f"- total run time: {elapsed:.1f} s",
        "",
        "The corpus fixed by `scalarlint check --fix --unsafe-fixes` (as in `fix_validation.py`); each fixed",
        f"rule against the reference rule on the same device inputs ({trials} trials, ties and zeros), then",
        "forward plus pullback once under the device's sync detector ("
        + ("CUDA graph capture and the guard" if backend.graphs else "`disallow_scalar()`")
        + "), after and before fixing. *strict after* is the strict array's verdict on the fixed rule.",
        "",
        f"- fixed rules agreeing with the reference on `{backend.name}`: **{agree}/{total}**",
        (
            f"- strict-clean fixed rules with no sync on `{backend.name}`: "
            f"**{len(clean) - len(mismatches) - len(broken)}/{len(clean)}**; "
            f"a sync in {len(mismatches)} (a bug in the rule or in the strict array's semantics), "
            f"another error in {len(broken)} (the fixed code does not run there; {inherited} of them did not run "
            "there before fixing either)"
        ),
        f"- rules before fixing in which the device saw a sync: {caught_before}/{total}",
        "",
        "| rule | reference | agrees | strict after | device after fix | device before fix |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        after = r.sync_after + (" **(strict says clean)**" if r.mismatch or r.broken else "")
        lines.append(
            f"| `{r.case.id}` | `{r.case.oracle}` | {r.agreed}/{r.trials} | {_strict_word(r.strict_after)} | "
            f"{after} | {r.sync_before} |"
        )
    failures = [(r.case.id, f) for r in results for f in r.failures]
    if failures:
        lines += ["", "## Disagreements", ""] + [f"- `{name}`: {f}" for name, f in failures]
    verdict = "all agree" if agree == total else f"{total - agree} DISAGREE"
    verdict += "; no sync where the strict array says clean" if not mismatches else f"; {len(mismatches)} SYNC where strict says clean"
    verdict += "" if not broken else f"; {len(broken)} strict-clean fixed rules FAIL to run"
    lines += ["", f"Summary: {total} fixed rules on {backend.name}: {verdict}.", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=("cupy", "torch", "strict", "torch-strict"), required=True)
    parser.add_argument("--out", type=Path, help="write the Markdown table here (default: stdout only)")
    parser.add_argument("--trials", type=int, default=5)
    options = parser.parse_args(argv)
    backend = gv.make_backend(options.device, quick=True)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        fixed = Path(tmp) / "corpus"
        proc = fv.fix_corpus(fixed)
        if proc.returncode == 2:
            print(proc.stdout, proc.stderr, file=sys.stderr)
            return 2
        results = validate_on_device(backend, fixed, options.trials)
    command = "python benchmarks/fix_validation_device.py " + " ".join(argv if argv is not None else sys.argv[1:])
    report = render(backend, results, options.trials, time.perf_counter() - start, command)
    print(report)
    if options.out is not None:
        options.out.parent.mkdir(parents=True, exist_ok=True)
        options.out.write_text(report, encoding="utf-8")
    return 0 if all(r.agrees for r in results) and not any(r.mismatch or r.broken for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
