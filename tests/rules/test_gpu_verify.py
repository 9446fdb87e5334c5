"""The CPU-independent parts of ``benchmarks/gpu_verify.py``.

No GPU here, so: the script imports without CuPy, the strict run works end to
end, the ChainRules-style scalar loops compute the same cotangents as the rules
(so the timing comparison on a GPU compares like with like) and raise on the
strict array, graph-node counting degrades to an explained ``n/a``, and the
CuPy capture logic is exercised against a fake CuPy that records the calls.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scalarlint.rules import RULES
from scalarlint.runtime import ScalarIndexingError, disallow_scalar, strict

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "gpu_verify.py"


def _load_script() -> types.ModuleType:
    name = "_scalarlint_gpu_verify"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, SCRIPT)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


gv = _load_script()


def test_every_rule_has_a_benchmark_spec() -> None:
    assert {s.rule for s in gv.SPECS} == set(RULES)
    assert len({s.label for s in gv.SPECS}) == len(gv.SPECS)


@pytest.mark.parametrize("spec", gv.SPECS, ids=[s.label for s in gv.SPECS])
def test_spec_inputs_build_and_run_on_numpy(spec: Any) -> None:
    args, kwargs = spec.make(np, 64)
    y, pullback = RULES[spec.rule](*args, **kwargs)
    cts = pullback(gv.make_cotangent(np, y))
    assert len(cts) == len(args)


def _loop_case(label: str, n: int = 50) -> tuple[Any, Any, Any]:
    loop = next(lp for lp in gv.LOOPS if lp.label == label)
    spec = next(s for s in gv.SPECS if s.label == loop.spec_label)
    args, kwargs = gv._worst_case_norm_inf(np, n) if spec.label == "norm p=inf" else spec.make(np, n)
    y, pullback = RULES[spec.rule](*args, **kwargs)
    dy = gv.make_cotangent(np, y)
    dy_value = dy[0] if isinstance(dy, tuple) else dy
    value = y[0] if isinstance(y, tuple) else y
    return loop, loop.loop_args(args, value, dy_value), pullback(dy)[0]


@pytest.mark.parametrize("label", [lp.label for lp in gv.LOOPS])
def test_scalar_loops_compute_the_rules_cotangent(label: str) -> None:
    loop, loop_args, want = _loop_case(label)
    np.testing.assert_allclose(loop.loop(*loop_args), want, rtol=1e-14)


@pytest.mark.parametrize("label", [lp.label for lp in gv.LOOPS])
def test_scalar_loops_raise_on_the_strict_array(label: str) -> None:
    loop, loop_args, _ = _loop_case(label)
    strict_args = tuple(strict(np.asarray(a)) if isinstance(a, (np.ndarray, np.generic)) else a for a in loop_args)
    with disallow_scalar(), pytest.raises(ScalarIndexingError):
        loop.loop(*strict_args)


def test_max_rel_err_treats_nan_and_structure() -> None:
    assert gv.max_rel_err(np.array([1.0, np.nan]), np.array([1.0, np.nan])) == 0.0
    assert gv.max_rel_err(np.array([1.0, 2.0]), np.array([1.0, np.nan])) == np.inf
    assert gv.max_rel_err((np.ones(2), None), (np.ones(2), None)) == 0.0
    assert gv.max_rel_err((np.ones(2), np.ones(1)), (np.ones(2), None)) == np.inf
    assert gv.max_rel_err(np.array([1.0, 2.0 + 1e-9]), np.array([1.0, 2.0])) == pytest.approx(5e-10)


def test_call_counter_sees_per_element_work() -> None:
    def loop(n: int) -> None:
        for _ in range(n):
            abs(-1)

    counts = []
    for n in (10, 100):
        counter = gv.CallCounter()
        with counter.active():
            loop(n)
        counts.append(counter.count)
    assert counts[1] - counts[0] == 90


def test_node_count_without_driver_explains_why() -> None:
    assert gv.count_graph_nodes(1234, driver="n/a: no libcuda").startswith("n/a")
    loaded = gv.load_cuda_driver()
    if isinstance(loaded, str):  # the usual case on a CPU machine
        assert "libcuda" in loaded


class _FakeDriver:
    """Emulates cuGraphGetNodes/cuGraphNodeGetType through ctypes byref objects."""

    def __init__(self, types_: list[int]) -> None:
        self.types = types_

    def cuGraphGetNodes(self, graph: Any, nodes: Any, num: Any) -> int:  # noqa: N802 - CUDA's name
        count = num._obj
        if nodes is not None:
            for k in range(len(self.types)):
                nodes[k] = 1000 + k
        count.value = len(self.types)
        return 0

    def cuGraphNodeGetType(self, node: Any, out: Any) -> int:  # noqa: N802 - CUDA's name
        out._obj.value = self.types[node.value - 1000]
        return 0


def test_node_count_by_type_with_a_fake_driver() -> None:
    counts = gv.count_graph_nodes(42, driver=_FakeDriver([0, 0, 2, 0, 5]))
    assert counts == {"kernel": 3, "memset": 1, "empty": 1, "total": 5}
    assert gv._format_nodes(counts) == "3 (+1 empty, 1 memset)"
    assert gv.count_graph_nodes(0, driver=_FakeDriver([])) == "n/a: no graph handle"


class _FakeStream:
    def __init__(self, log: list[str], non_blocking: bool = False) -> None:
        self.log, self.ptr = log, 77

    def __enter__(self) -> _FakeStream:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def begin_capture(self) -> None:
        self.log.append("begin")

    def synchronize(self) -> None:
        self.log.append("sync")


def _fake_cupy_backend(log: list[str]) -> Any:
    runtime = types.SimpleNamespace(
        streamEndCapture=lambda ptr: log.append("end") or 555,
        graphInstantiate=lambda g: log.append(f"instantiate {g}") or 666,
        graphLaunch=lambda e, ptr: log.append(f"launch {e}"),
        graphExecDestroy=lambda e: log.append(f"exec-destroy {e}"),
        graphDestroy=lambda g: log.append(f"destroy {g}"),
    )
    cuda = types.SimpleNamespace(Stream=lambda non_blocking=False: _FakeStream(log, non_blocking), runtime=runtime)
    fake = types.SimpleNamespace(cuda=cuda, asnumpy=np.asarray)
    backend = object.__new__(gv.CupyBackend)
    backend._cupy = fake
    backend.module = fake
    backend._driver = _FakeDriver([0, 0])
    return backend


def test_cupy_capture_counts_replays_and_cleans_up() -> None:
    log: list[str] = []
    backend = _fake_cupy_backend(log)
    result = backend.capture(lambda: (np.array([1.0, 2.0]), None), (np.array([1.0, 2.0]), None))
    assert result.ok and result.nodes == {"kernel": 2, "total": 2} and result.replay_err == 0.0
    assert log == ["begin", "end", "instantiate 555", "launch 666", "sync", "exec-destroy 666", "destroy 555"]


def test_cupy_capture_reports_a_sync_and_ends_the_capture() -> None:
    log: list[str] = []
    backend = _fake_cupy_backend(log)

    def syncing_pullback() -> Any:
        raise RuntimeError("cudaErrorStreamCaptureUnsupported: operation not permitted when stream is capturing")

    result = backend.capture(syncing_pullback, None)
    assert not result.ok and "StreamCaptureUnsupported" in result.detail
    assert log == ["begin", "end", "destroy 555"]


def test_cupy_backend_unavailable_is_a_clear_exit() -> None:
    try:
        import cupy  # noqa: F401
    except ImportError:
        with pytest.raises(SystemExit, match="cupy backend is unavailable"):
            gv.make_backend("cupy", quick=True)
    else:  # pragma: no cover - only on a machine with CuPy
        pytest.skip("CuPy is installed here")


def test_strict_quick_run_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.md"
    assert gv.main(["--backend", "strict", "--quick", "--out", str(out)]) == 0
    text = out.read_text()
    for spec in gv.SPECS:
        assert f"`{spec.label}`" in text
    assert text.count("(constant)") == len(gv.SPECS)
    assert text.count("| yes: Scalar indexing is disallowed") == len(gv.LOOPS)
    assert "all agree with NumPy with no scalar access" in text


def test_script_runs_from_a_bare_checkout_without_scalarlint_installed(tmp_path: Path) -> None:
    """The GPU-box path: no installed scalarlint, no array-api-compat; the shim serves."""
    import subprocess

    code = (
        "import sys; sys.modules['scalarlint'] = None; sys.modules['array_api_compat'] = None\n"
        f"import runpy; ns = runpy.run_path({str(SCRIPT)!r}, run_name='not_main')\n"
        "import numpy as np\n"
        "y, pb = ns['RULES']['norm'](np.array([3.0, -4.0, 4.0, 1.0]), p=np.inf)\n"
        "(dx,) = pb(np.float64(2.0))\n"
        "assert dx.tolist() == [0.0, 0.0, 2.0, 0.0], dx\n"
        "import rules._portable as portable; assert portable._compat is None\n"
        "assert type(portable.namespace(dx)).__name__ == 'ModuleShim'\n"
        "print(type(ns['RULES']['sum'].__module__), sorted(ns['RULES']) == sorted({s.rule for s in ns['SPECS']}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("True")
