"""``benchmarks/gpu_run.sh`` and its Python stages, on the CPU stand-ins for the GPU backends.

There is no GPU here, so the stages run the way ``gpu_run.sh --cpu --quick`` runs them: the
PyTorch stage of ``gpu_verify.py`` on strict CPU tensors (``torch-strict``), the fixed corpus
on the strict array and on strict CPU tensors, and the wrapper itself with a few stages and
with no time left. The CUDA-only code of the PyTorch backend (graph capture, the sync debug
mode) runs against a fake ``torch`` that records the calls, as the CuPy capture does in
``tests/rules/test_gpu_verify.py``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def _load(name: str) -> types.ModuleType:
    """A benchmark script by path (``gpu_verify`` registers itself under its own name)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


gv = _load("gpu_verify")
fvd = _load("fix_validation_device")


def _table_rows(text: str) -> list[list[str]]:
    """The data rows of the first Markdown table, as cells."""
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


@pytest.mark.slow
def test_gpu_verify_torch_strict_quick(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="the torch-strict backend needs torch")
    out = tmp_path / "gpu_verify_torch-strict.md"
    only = ["sum", "norm", "maximum", "getindex"]
    assert gv.main(["--backend", "torch-strict", "--quick", "--peak-bandwidth", "4800", "--out", str(out), "--only", *only]) == 0
    text = out.read_text()
    assert "backend `torch-strict`" in text and "CPU tensors under disallow_scalar" in text
    rows = _table_rows(text)
    labels = {row[0].strip("`") for row in rows}
    assert labels == {s.label for s in gv.SPECS if s.rule in only}
    for row in rows:
        assert row[2] == "ok" and row[3].endswith("(constant)"), row
        assert re.fullmatch(r"\d\.\de[+-]\d\d / \d\.\de[+-]\d\d", row[1]), row
    # bandwidth-bound rules show their share of the peak given on the command line
    assert re.search(r"\| `sum` \|.*GB/s \(\d+% of 4\.8 TB/s\) \|", text)
    # the three ChainRules-style loops raise on strict tensors and compute the same cotangent
    assert text.count("| yes: Scalar indexing is disallowed") == 3
    assert "all agree with NumPy with no scalar access; host calls constant in n for all" in text


def test_gpu_verify_writes_a_partial_table_after_each_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stage stopped by its time cap leaves the rules it finished."""
    out = tmp_path / "partial.md"
    real = gv.verify_spec
    seen: list[str] = []

    def stop_after_two(backend: Any, spec: Any) -> Any:
        if len(seen) == 2:
            assert "**partial**: 2 of 4 rule variants done" in out.read_text()
            raise KeyboardInterrupt  # what a time limit's signal does to the run
        seen.append(spec.label)
        return real(backend, spec)

    monkeypatch.setattr(gv, "verify_spec", stop_after_two)
    with pytest.raises(KeyboardInterrupt):
        gv.main(["--backend", "strict", "--quick", "--out", str(out), "--only", "sum", "mean", "cumsum", "abs"])
    assert [row[0] for row in _table_rows(out.read_text())] == ["`sum`", "`mean`"]


def test_gpu_verify_reports_a_rule_that_breaks_and_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a one-shot GPU run, one rule raising must not cost the other rules' rows."""
    real = gv.verify_spec

    def mean_breaks(backend: Any, spec: Any) -> Any:
        if spec.label == "mean":
            raise RuntimeError("from_dlpack: unsupported dtype\nsecond line")
        return real(backend, spec)

    monkeypatch.setattr(gv, "verify_spec", mean_breaks)
    out = tmp_path / "report.md"
    assert gv.main(["--backend", "strict", "--quick", "--out", str(out), "--only", "sum", "mean", "abs"]) == 1
    rows = {row[0]: row for row in _table_rows(out.read_text())}
    assert rows["`mean`"][2] == "ERROR RuntimeError: from_dlpack: unsupported dtype"
    assert rows["`sum`"][2] == rows["`abs`"][2] == "ok"
    assert "FAILURES above" in out.read_text()


@pytest.mark.slow
@pytest.mark.parametrize("device", ["strict", "torch-strict"])
def test_fix_validation_on_a_strict_device(tmp_path: Path, device: str) -> None:
    if device == "torch-strict":
        pytest.importorskip("torch", reason="the torch-strict backend needs torch")
    out = tmp_path / f"fix_validation_{device}.md"
    status = fvd.main(["--device", device, "--trials", "1", "--out", str(out)])
    text = out.read_text()
    rows = {row[0].strip("`"): row for row in _table_rows(text)}
    assert set(rows) == {case.id for case in fvd.fv.CASES}
    for row in rows.values():
        assert re.fullmatch(r"\d/1", row[2]) and row[3] in ("clean", "allow_scalar", "fails"), row
        assert row[4].startswith(("no sync", "sync: ", "error: ")) and row[5].startswith(("no sync", "sync: ", "error: ")), row
    # a search loop the fixers vectorize: it syncs before fixing; after, `x[best]` with the 0-d
    # `best = xp.argmax(x)` is a gather on CuPy (the strict array) but torch reads a 0-d index
    # back with .item(), so torch-strict still reports a sync, now of that index
    norm_inf = rows["chainrules.reductions.rrule_maximum"]
    assert norm_inf[5].startswith("sync: ScalarIndexingError"), norm_inf
    if device == "strict":
        assert norm_inf[4] == "no sync", norm_inf
    else:
        assert norm_inf[4].startswith("sync: ") and "0-d integer tensor as index" in norm_inf[4], norm_inf
    assert rows["reductions.rrule_sum"][2:5] == ["1/1", "clean", "no sync"]
    if device == "strict":  # the strict array is the reference of this comparison: it must agree with itself
        assert status == 0 and "all agree; no sync where the strict array says clean" in text
    else:
        assert (status == 0) == (f"Summary: {len(_load('fix_validation').CASES)} fixed rules on torch-strict: all agree; no sync" in text)


def test_the_sync_probe_tells_a_sync_from_a_rule_that_does_not_run() -> None:
    backend = gv.make_backend("strict", quick=True)
    case = next(c for c in fvd.fv.CASES if c.id == "reductions.rrule_sum")

    def loop_sum(x: Any) -> Any:
        return sum(x[i] for i in range(x.shape[0])), lambda dy: (dy * (x * 0 + 1),)

    def broken(x: Any) -> Any:
        raise TypeError("no such function here")

    reference = fvd.RULES["sum"]
    rng = np.random.default_rng(0)
    assert fvd.sync_probe(backend, case, reference, rng, 4) == "no sync"
    assert fvd.sync_probe(backend, case, loop_sum, rng, 4).startswith("sync: ScalarIndexingError")
    assert fvd.sync_probe(backend, case, broken, rng, 4) == "error: TypeError: no such function here"


# -- the PyTorch CUDA backend against a fake torch ---------------------------------------------
class _FakeCuda:
    """The ``torch.cuda`` calls TorchCudaBackend makes, logged."""

    def __init__(self, log: list[str], fail_capture: bool = False) -> None:
        self.log, self.mode, self.fail_capture = log, 0, fail_capture
        cuda = self

        class Graph:
            def __init__(self, keep_graph: bool = False) -> None:
                cuda.log.append(f"graph keep={keep_graph}")

            def raw_cuda_graph(self) -> int:
                return 555

            def instantiate(self) -> None:
                cuda.log.append("instantiate")

            def replay(self) -> None:
                cuda.log.append("replay")

        self.CUDAGraph = Graph

    def synchronize(self) -> None:
        self.log.append("sync")

    def Stream(self) -> Any:
        return types.SimpleNamespace(wait_stream=lambda other: None)

    def current_stream(self) -> Any:
        return self.Stream()

    def set_stream(self, stream: Any) -> None:
        self.log.append("set stream")

    def stream(self, stream: Any) -> Any:
        import contextlib

        return contextlib.nullcontext()

    def graph(self, graph: Any) -> Any:
        import contextlib

        @contextlib.contextmanager
        def capturing() -> Any:
            self.log.append("capture begin")
            try:
                yield
            except RuntimeError:  # PyTorch ends the capture on the way out, which fails again
                raise RuntimeError("CUDA error: operation failed due to a previous error during capture")
            self.log.append("capture end")

        return capturing()

    def get_sync_debug_mode(self) -> int:
        return self.mode

    def set_sync_debug_mode(self, mode: Any) -> None:
        self.log.append(f"mode {mode}")
        self.mode = {"default": 0, "warn": 1, "error": 2}.get(mode, mode)


def _fake_torch_backend(log: list[str]) -> Any:
    torch_verify = _load("gpu_verify_torch")
    backend = object.__new__(torch_verify.TorchCudaBackend)
    backend._torch = types.SimpleNamespace(cuda=_FakeCuda(log), Tensor=type("Tensor", (), {}))
    backend._driver = _FakeDriver([0, 0, 0, 2])
    return backend


class _FakeDriver:
    def __init__(self, types_: list[int]) -> None:
        self.types = types_

    def cuGraphGetNodes(self, graph: Any, nodes: Any, num: Any) -> int:
        assert graph.value == 555
        if nodes is not None:
            for k in range(len(self.types)):
                nodes[k] = 1000 + k
        num._obj.value = len(self.types)
        return 0

    def cuGraphNodeGetType(self, node: Any, out: Any) -> int:
        out._obj.value = self.types[node.value - 1000]
        return 0


def test_torch_capture_counts_nodes_replays_and_compares() -> None:
    log: list[str] = []
    backend = _fake_torch_backend(log)
    result = backend.capture(lambda: (np.array([1.0, 2.0]), None), (np.array([1.0, 2.0]), None))
    assert result.ok and result.nodes == {"kernel": 3, "memset": 1, "total": 4} and result.replay_err == 0.0
    assert log == ["sync", "sync", "graph keep=True", "capture begin", "capture end", "instantiate", "replay", "sync"]


def test_torch_capture_reports_the_first_error_of_a_sync() -> None:
    log: list[str] = []
    backend = _fake_torch_backend(log)
    calls = []

    def syncing() -> Any:
        calls.append(1)
        if len(calls) == 2:  # the first call is the warm-up, outside the capture
            raise RuntimeError("CUDA error: operation not permitted when stream is capturing")
        return np.zeros(2)

    result = backend.capture(syncing, np.zeros(2))
    assert not result.ok
    assert result.detail == "raised RuntimeError: CUDA error: operation not permitted when stream is capturing"
    assert log[-3:] == ["capture begin", "set stream", "sync"] and "replay" not in log


def test_torch_guard_turns_the_sync_debug_mode_on_and_back() -> None:
    log: list[str] = []
    backend = _fake_torch_backend(log)
    backend._torch.cuda.mode = 1
    with pytest.raises(ValueError), backend.guard():
        assert backend._torch.cuda.mode == 2
        raise ValueError("a pullback that fails")
    assert log == ["mode error", "mode 1"] and backend._torch.cuda.mode == 1


# -- the wrapper ---------------------------------------------------------------------------------
def _run_wrapper(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(BENCHMARKS / "gpu_run.sh"), "--cpu", "--quick", "--out", str(tmp_path), *options],
        capture_output=True, text=True, timeout=120, check=False, env={**os.environ, "PYTHON": sys.executable},
    )


@pytest.mark.slow
def test_gpu_run_cpu_quick_writes_tables_and_a_summary(tmp_path: Path) -> None:
    done = _run_wrapper(tmp_path, "--stages", "setup,verify-strict,fixval-strict")
    assert done.returncode == 0, done.stdout + done.stderr
    summary = (tmp_path / "summary.md").read_text()
    assert "- backends: strict, torch-strict" in summary
    assert re.search(r"\| setup \| pass \| \d+ \| – \| already importable \|", summary)
    assert re.search(r"\| verify-strict \| pass \| \d+ \| gpu_verify_strict.md \| Summary: 36 rule variants, all agree", summary)
    rules = len(_load("fix_validation").CASES)  # every rule of the fix-validation corpus
    assert re.search(rf"\| fixval-strict \| pass \| \d+ \| fix_validation_strict.md \| Summary: {rules} fixed rules on strict", summary)
    assert "verify-torch-strict" not in summary and "All stages passed." in summary
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fix_validation_strict.md", "gpu_verify_strict.md", "run.log", "summary.md",
    ]


def test_gpu_run_keeps_going_and_says_what_it_skipped(tmp_path: Path) -> None:
    done = _run_wrapper(tmp_path, "--stages", "verify-strict,plugin", "--budget", "5")
    assert done.returncode == 2
    summary = (tmp_path / "summary.md").read_text()
    for stage in ("verify-strict", "plugin"):
        assert f"| {stage} | SKIPPED: no time left of the 5s budget |" in summary
    assert "Some stages errored, timed out or were skipped" in summary
