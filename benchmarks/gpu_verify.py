#!/usr/bin/env python
"""Verify the reference rule set on a device backend and write a Markdown table.

For every rule in ``scalarlint.rules.RULES`` (several variants for ``norm``):

1. **Agreement**: forward and pullback on the backend equal the NumPy results
   (max relative error reported), at two sizes.
2. **No scalar access**: on ``strict`` the pullback runs inside
   ``disallow_scalar()`` (any scalar read/write, iteration or host conversion
   raises ``ScalarIndexingError``); on ``cupy`` the pullback is recorded with
   CUDA stream capture, where any host synchronization is an error, and the
   captured graph is replayed and compared with the eager result.
3. **Work does not grow with n**: the number of Python-level calls made by the
   pullback (``sys.setprofile``) at two sizes, and on ``cupy`` the number of
   kernel nodes in the captured graph at n = 1e3 and 1e6. A per-element loop
   shows up as a count proportional to n.
4. **Timing**: the pullback at two large sizes (cupy: ``cupyx.profiler.benchmark``
   GPU time at n = 1e6 and 1e8; strict: wall time at 1e4 and 1e6 on the CPU)
   with the effective memory bandwidth of an ideal pullback (the bytes it must
   read and write divided by the time) where the rule is bandwidth-bound.
5. **Scalar loops**: ChainRules-style pullbacks (``findlast`` loop plus a
   one-element write for ``norm(x, Inf)``, a ``findmax`` scan for ``maximum``,
   a per-index ``+=`` loop for ``getindex``) at n = 1e4 next to the vectorized
   rule. On ``strict`` they must raise ``ScalarIndexingError``; on ``cupy`` they
   are timed to show what a sync per element costs.

Usage::

    python benchmarks/gpu_verify.py --backend strict --out benchmarks/results/gpu_verify_strict.md
    python benchmarks/gpu_verify.py --backend cupy   --out gpu_verify_cupy.md
    python benchmarks/gpu_verify.py --backend torch  --out gpu_verify_torch.md   # gpu_verify_torch.py
    python benchmarks/gpu_verify.py --backend torch-strict --quick               # no GPU needed

``benchmarks/gpu_run.sh`` runs the cupy and torch ones with the rest of the GPU checks in one
call (docs/gpu-verification.md).

Running it on a GPU machine (CuPy + NumPy, no network, no install)
------------------------------------------------------------------
Copy the repository (or just ``rules/`` and ``benchmarks/``) and run the second
command from its root. Nothing needs installing: when ``scalarlint`` is not
installed the script puts the repository root on ``sys.path`` and imports the
top-level ``rules`` package directly; when ``array_api_compat`` is missing the
rules fall back to their built-in shim (``rules/_shim.py``) over CuPy's own
namespace. To use array-api-compat instead, carry its wheel
(``pip download array-api-compat`` on a networked machine, then
``pip install --no-index array_api_compat-*.whl`` on the GPU box). Kernel
nodes are counted through the CUDA driver (``libcuda.so.1``, always present
with the NVIDIA driver) because CuPy's ``Graph`` object keeps only the
instantiated executable graph; where the driver cannot be loaded the column
says ``n/a`` and why. The whole run takes well under 5 minutes on one GPU
(``--quick`` for a smoke run with tiny sizes).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
# Scripts beside this one (``fix_validation_device.py``) import it as ``gpu_verify``: the alias
# gives them this very module when it runs as a script or is loaded by path.
sys.modules.setdefault("gpu_verify", sys.modules[__name__])

# The parts every backend shares live in ``gpu_verify_backends.py``: the torch backends
# (``gpu_verify_torch.py``, loaded only when asked for) build on them, not on this script.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_verify_backends import (  # noqa: E402
    Args,
    Backend,
    CallCounter,
    Capture,
    Spec,
    StrictBackend,
    _normal,
    _rng,
    count_graph_nodes,
    load_cuda_driver,
    make_cotangent,
    max_rel_err,
    tree_map,
    tree_map_device,
)


def import_rules() -> dict[str, Callable[..., Any]]:
    """``scalarlint.rules.RULES``, or the repository's ``rules`` package when not installed."""
    try:
        from scalarlint.rules import RULES
    except ImportError:
        sys.path.insert(0, str(REPO_ROOT))
        from rules import RULES  # type: ignore[no-redef]
    return RULES


RULES = import_rules()


# -- benchmark inputs ---------------------------------------------------------------


def _near_one(m: Any, n: int, seed: int = 0) -> Any:
    """Factors whose product stays O(1) for any n (log-normal with sd 0.5/sqrt(n))."""
    return m.exp(_normal(m, (n,), seed) * (0.5 / math.sqrt(max(n, 1))))


def _with_zero_at(m: Any, x: Any, position: int) -> Any:
    """``x`` with one element set to 0, via a mask (no scalar write)."""
    return m.where(m.arange(x.shape[0]) == position, 0.0, x)


def _side(n: int) -> int:
    """Matrix side for a dense rule whose input has about n elements."""
    return max(2, math.isqrt(n))


def _symmetric_matrix(m: Any, side: int) -> Any:
    a = _normal(m, (side, side))
    return a + a.T


def _spd_matrix(m: Any, side: int) -> Any:
    a = _normal(m, (side, side))
    return a @ a.T + side * m.eye(side)


def _x(m: Any, n: int) -> Any:
    return _normal(m, (n,))


SPECS: list[Spec] = [
    Spec("sum", "sum", lambda m, n: ((_x(m, n),), {}), 1),
    Spec("mean", "mean", lambda m, n: ((_x(m, n),), {}), 1),
    Spec("prod (one zero)", "prod", lambda m, n: ((_with_zero_at(m, _near_one(m, n), n // 3),), {}), 2),
    Spec("cumsum", "cumsum", lambda m, n: ((_x(m, n),), {}), 2),
    Spec("cumprod (one zero)", "cumprod", lambda m, n: ((_with_zero_at(m, _near_one(m, n), n // 2),), {}), 3),
    Spec("maximum", "maximum", lambda m, n: ((_x(m, n),), {}), 2),
    Spec("minimum", "minimum", lambda m, n: ((_x(m, n),), {}), 2),
    Spec("findmax", "findmax", lambda m, n: ((_x(m, n),), {}), 2),
    Spec("findmin", "findmin", lambda m, n: ((_x(m, n),), {}), 2),
    Spec("norm p=2", "norm", lambda m, n: ((_x(m, n),), {"p": 2}), 2),
    Spec("norm p=1", "norm", lambda m, n: ((_x(m, n),), {"p": 1}), 2),
    Spec("norm p=inf", "norm", lambda m, n: ((_x(m, n),), {"p": math.inf}), 2),
    Spec("norm p=-inf", "norm", lambda m, n: ((_x(m, n),), {"p": -math.inf}), 2),
    Spec("norm p=0", "norm", lambda m, n: ((_x(m, n),), {"p": 0}), 1),
    Spec("norm p=3", "norm", lambda m, n: ((_x(m, n),), {"p": 3}), 2),
    Spec("normalize", "normalize", lambda m, n: ((_x(m, n),), {}), 3),
    Spec(
        "getindex (repeats)",
        "getindex",
        lambda m, n: ((_x(m, n), (_rng(m, 1).random(n) * n).astype(m.int64)), {}),
        4,
    ),
    Spec(
        "take axis=1 (repeats)",
        "take",
        lambda m, n: ((_normal(m, (max(1, n // 16), 16)), m.asarray([0, 3, 3, 15, 7, 7, 7, 1])), {"axis": 1}),
        1.5,
    ),
    Spec("sort", "sort", lambda m, n: ((_x(m, n),), {}), 4),
    Spec("logsumexp", "logsumexp", lambda m, n: ((_x(m, n),), {}), 2),
    Spec("softmax rows", "softmax", lambda m, n: ((_normal(m, (max(1, n // 1000), min(n, 1000))),), {"axis": -1}), 3),
    Spec("trace", "trace", lambda m, n: ((_normal(m, (_side(n), _side(n))),), {}), 1, dense=True),
    Spec(
        "det",
        "det",
        lambda m, n: ((m.eye(_side(n)) + 0.3 * _normal(m, (_side(n), _side(n))) / math.sqrt(_side(n)),), {}),
        None,
        dense=True,
    ),
    Spec(
        "logdet",
        "logdet",
        lambda m, n: ((m.eye(_side(n)) + 0.3 * _normal(m, (_side(n), _side(n))) / math.sqrt(_side(n)),), {}),
        None,
        dense=True,
    ),
    Spec("concatenate", "concatenate", lambda m, n: (([_normal(m, (n // 2,)), _normal(m, (n - n // 2,), 1)],), {}), None),
    Spec("repeat x4", "repeat", lambda m, n: ((_normal(m, (max(1, n // 4),)), 4), {}), 1.25),
    Spec("clip", "clip", lambda m, n: ((_x(m, n), -0.5, 0.5), {}), 3),
    Spec("abs", "abs", lambda m, n: ((_x(m, n),), {}), 3),
    Spec("where", "where", lambda m, n: ((_x(m, n) > 0, _normal(m, (n,), 1), _normal(m, (n,), 2)), {}), 3.125),
    Spec(
        "matmul",
        "matmul",
        lambda m, n: ((_normal(m, (_side(n), _side(n))), _normal(m, (_side(n), _side(n)), 1)), {}),
        None,
        dense=True,
    ),
    Spec("median", "median", lambda m, n: ((_x(m, n),), {}), 3),
    Spec("evalpoly degree 7", "evalpoly", lambda m, n: ((_x(m, n), _normal(m, (8,), 1)), {}), None),
    Spec("cholesky", "cholesky", lambda m, n: ((_spd_matrix(m, _side(n)),), {}), None, dense=True),
    Spec("svdvals", "svdvals", lambda m, n: ((_normal(m, (_side(n), _side(n))),), {}), None, dense=True),
    Spec("eigvalsh", "eigvalsh", lambda m, n: ((_symmetric_matrix(m, _side(n)),), {}), None, dense=True),
    Spec("hermitian_part", "hermitian_part", lambda m, n: ((_normal(m, (_side(n), _side(n))),), {}), 3, dense=True),
]


# -- ChainRules-style scalar loops (the baselines the rules replace) ----------------
# Deliberately NOT named like rules (rrule_*, *_pullback, *_back): they exist to
# be slow and to raise on the strict array, not to be linted as rules.


def scalar_loop_norm_inf(x: Any, y: Any, dy: Any) -> Any:
    """ChainRules' ``_normInf_back``: ``findlast`` over ``abs.(x) .== y`` and one write."""
    dx = x * 0
    for i in range(x.shape[0] - 1, -1, -1):
        if abs(x[i]) == y:  # one device -> host sync per element
            dx[i] = ((x[i] > 0) * 1.0 - (x[i] < 0) * 1.0) * dy
            break
    return dx


def scalar_loop_maximum(x: Any, dy: Any) -> Any:
    """A ``findmax``-style scan for the first maximum, then a one-element write."""
    best, where = x[0], 0
    for i in range(1, x.shape[0]):
        if x[i] > best:  # one sync per element
            best, where = x[i], i
    dx = x * 0
    dx[where] = dy
    return dx


def scalar_loop_getindex(x: Any, idx: Any, dy: Any) -> Any:
    """``for k in eachindex(idx): dx[idx[k]] += dy[k]``: several launches per element."""
    dx = x * 0
    for k in range(idx.shape[0]):
        dx[idx[k]] += dy[k]
    return dx


@dataclass(frozen=True)
class LoopSpec:
    label: str
    spec_label: str
    loop: Callable[..., Any]
    loop_args: Callable[[tuple[Any, ...], Any, Any], tuple[Any, ...]]  # (args, y, dy) -> loop arguments


def _worst_case_norm_inf(m: Any, n: int) -> Args:
    # the maximum magnitude at index 0: findlast scans all n elements
    x = _x(m, n)
    return (m.where(m.arange(n) == 0, 100.0, x),), {"p": math.inf}


LOOPS: list[LoopSpec] = [
    LoopSpec("norm p=inf: findlast loop", "norm p=inf", scalar_loop_norm_inf, lambda a, y, dy: (a[0], y, dy)),
    LoopSpec("maximum: findmax scan", "maximum", scalar_loop_maximum, lambda a, y, dy: (a[0], dy)),
    LoopSpec("getindex: += loop", "getindex (repeats)", scalar_loop_getindex, lambda a, y, dy: (a[0], a[1], dy)),
]


# -- measurements -------------------------------------------------------------------


# -- CUDA graph node counting --------------------------------------------------------


# -- backends --------------------------------------------------------------------------


class CupyBackend(Backend):
    """CuPy on a CUDA GPU: stream capture, graph node counts, GPU timings."""

    name = "cupy"
    time_sizes = (1_000_000, 100_000_000)
    time_label = "GPU"
    graphs = True
    dense_cap = 1_000_000
    sync_label = "CuPy"

    def __init__(self, quick: bool = False) -> None:
        import cupy
        import cupyx.profiler

        if cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no CUDA device")
        self.module = cupy
        self._cupy = cupy
        self._benchmark = cupyx.profiler.benchmark
        self._driver = load_cuda_driver()
        self.error_type = Exception
        if quick:
            self.check_sizes, self.time_sizes, self.capture_sizes, self.loop_n = (50, 500), (1_000, 10_000), (100, 10_000), 200

    def to_device(self, a: np.ndarray) -> Any:
        return self._cupy.asarray(a)

    def to_host(self, a: Any) -> np.ndarray:
        return self._cupy.asnumpy(a)

    def make(self, spec: Spec, n: int) -> Args:
        return spec.make(self._cupy, n)  # generated on the device: no 800 MB uploads

    def cotangent(self, y: Any) -> Any:
        return make_cotangent(self._cupy, y)

    def time(self, fn: Callable[[], Any], repeat: int) -> float:
        result = self._benchmark(fn, (), n_repeat=repeat, n_warmup=2)
        return float(np.mean(result.gpu_times[0]))

    def capture(self, fn: Callable[[], Any], reference: Any) -> Capture:
        """Record ``fn`` with stream capture, count nodes, replay, compare with ``reference``.

        ``Stream.begin_capture()`` starts capture in relaxed mode (so the memory
        pool may still grow); any synchronization inside ``fn`` invalidates the
        capture and raises. The graph is ended with ``runtime.streamEndCapture``
        to keep the raw ``cudaGraph_t`` (``Stream.end_capture()`` would destroy
        it after instantiation), then instantiated and launched right away,
        before any other allocation can reuse the temporaries it writes.
        """
        cupy = self._cupy
        runtime = cupy.cuda.runtime
        stream = cupy.cuda.Stream(non_blocking=True)
        graph = 0
        with stream:
            stream.begin_capture()
            try:
                out = fn()
            except Exception as exc:  # a sync (or anything else) during capture
                with contextlib.suppress(Exception):
                    graph = runtime.streamEndCapture(stream.ptr)
                if graph:
                    with contextlib.suppress(Exception):
                        runtime.graphDestroy(graph)
                return Capture(False, f"raised {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
            try:
                graph = runtime.streamEndCapture(stream.ptr)
            except Exception as exc:
                return Capture(False, f"capture invalidated: {type(exc).__name__}: {str(exc)[:120]}")
        nodes = count_graph_nodes(graph, self._driver)
        try:
            executable = runtime.graphInstantiate(graph)
            runtime.graphLaunch(executable, stream.ptr)
            stream.synchronize()
            replayed = tree_map_device(out, self.to_host)
            runtime.graphExecDestroy(executable)
        finally:
            runtime.graphDestroy(graph)
        return Capture(True, "captured", nodes, max_rel_err(replayed, reference))

    def describe(self) -> str:
        cupy = self._cupy
        props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        runtime = cupy.cuda.runtime
        versions = f"CUDA runtime {_cuda_version(runtime.runtimeGetVersion())}, driver API {_cuda_version(runtime.driverGetVersion())}"
        return f"cupy {cupy.__version__} on {name} ({props['totalGlobalMem'] / 2**30:.0f} GiB), {versions}"


def _cuda_version(number: int) -> str:
    """CUDA's integer version (12080) as text (12.8)."""
    return f"{number // 1000}.{number % 1000 // 10}"


# -- the verification run ----------------------------------------------------------------


@dataclass
class Row:
    label: str
    agree: list[float] = field(default_factory=list)
    scalar: str = "ok"
    calls: list[int] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    capture: str = ""
    times: list[float | None] = field(default_factory=list)
    bandwidth: float | None = None
    notes: list[str] = field(default_factory=list)


def _run_rule(spec: Spec, args: tuple[Any, ...], kwargs: dict[str, Any], dy_maker: Callable[[Any], Any]) -> tuple[Any, Callable[[], Any], Any]:
    y, pullback = RULES[spec.rule](*args, **kwargs)
    dy = dy_maker(y)
    return y, (lambda: pullback(dy)), dy


def verify_spec(backend: Backend, spec: Spec) -> Row:
    row = Row(spec.label)
    # 1 + 2: agreement with NumPy, under the scalar guard
    for n in backend.check_sizes:
        n_eff = n if not spec.dense else min(n, 40_000)
        args_np, kwargs = spec.make(np, n_eff)
        with np.errstate(all="ignore"):
            y_ref, pb_ref, dy_np = _run_rule(spec, args_np, kwargs, lambda y: make_cotangent(np, y))
            ct_ref = pb_ref()
        dev_args = tree_map(args_np, backend.to_device)
        dev_dy = tree_map(dy_np, backend.to_device)
        try:
            with backend.guard():
                y_dev, pullback = RULES[spec.rule](*dev_args, **kwargs)
                ct_dev = pullback(dev_dy)
        except Exception as exc:  # ScalarIndexingError on strict
            row.scalar = f"RAISED {type(exc).__name__}: {str(exc).splitlines()[0][:80]}"
            return row
        got = (tree_map_device(y_dev, backend.to_host), tree_map_device(ct_dev, backend.to_host))
        row.agree.append(max_rel_err(got, (y_ref, ct_ref)))
    # 3: host calls at both check sizes
    for n in backend.check_sizes:
        n_eff = n if not spec.dense else min(n, 40_000)
        args, kwargs = backend.make(spec, n_eff)
        _, call, _ = _run_rule(spec, args, kwargs, backend.cotangent)
        call()  # warm caches (kernel compilation, namespace lookups)
        counter = CallCounter()
        with counter.active():
            call()
        row.calls.append(counter.count)
    # 3 (GPU): stream capture and graph nodes
    if backend.graphs:
        captures = []
        for n in backend.capture_sizes:
            n_eff = n if not spec.dense else min(n, 1_000_000)
            args, kwargs = backend.make(spec, n_eff)
            _, call, _ = _run_rule(spec, args, kwargs, backend.cotangent)
            eager = tree_map_device(call(), backend.to_host)
            cap = backend.capture(call, eager)
            captures.append(cap)
            if not cap.ok:
                row.scalar = f"capture failed at n={n_eff:.0e}: {cap.detail}"
                break
            if cap.replay_err is not None and cap.replay_err > 1e-12:
                row.notes.append(f"graph replay differs from eager by {cap.replay_err:.1e} at n={n_eff:.0e}")
        row.nodes = [_format_nodes(c.nodes) for c in captures if c.ok]
    # 4: timing
    sizes = backend.time_sizes[:1] if spec.dense else backend.time_sizes
    for n in backend.time_sizes:
        if n not in sizes:
            row.times.append(None)
            continue
        n_eff = n if not spec.dense else min(n, backend.dense_cap)
        args, kwargs = backend.make(spec, n_eff)
        _, call, _ = _run_rule(spec, args, kwargs, backend.cotangent)
        repeat = 10 if n_eff <= 10_000_000 else 5
        seconds = backend.time(call, repeat)
        row.times.append(seconds)
        if spec.traffic is not None and n_eff == n:
            row.bandwidth = spec.traffic * n * 8 / seconds / 1e9
    return row


def _format_nodes(nodes: Any) -> str:
    if isinstance(nodes, str) or nodes is None:
        return str(nodes)
    extra = {k: v for k, v in nodes.items() if k not in ("total", "kernel")}
    tail = "" if not extra else " (+" + ", ".join(f"{v} {k}" for k, v in sorted(extra.items())) + ")"
    return f"{nodes.get('kernel', 0)}{tail}"


@dataclass
class LoopRow:
    label: str
    vectorized: float | None = None
    loop: float | None = None
    strict_raises: str = ""
    agree: float | None = None


def verify_loop(backend: Backend, loop: LoopSpec) -> LoopRow:
    spec = next(s for s in SPECS if s.label == loop.spec_label)
    n = backend.loop_n
    row = LoopRow(loop.label)
    if loop.spec_label == "norm p=inf":
        args_np, kwargs = _worst_case_norm_inf(np, n)
    else:
        args_np, kwargs = spec.make(np, n)
    args = tree_map(args_np, backend.to_device)
    y, pullback = RULES[spec.rule](*args, **kwargs)
    seed = backend.cotangent(y)
    dy_value = seed[0] if isinstance(seed, tuple) else seed
    loop_args = loop.loop_args(args, y if not isinstance(y, tuple) else y[0], dy_value)
    if isinstance(backend, StrictBackend):
        try:
            with backend.guard():
                loop.loop(*loop_args)
            row.strict_raises = "NO (did not raise)"
        except backend.error_type as exc:
            row.strict_raises = f"yes: {str(exc).splitlines()[0][:70]}"
        from scalarlint.runtime import allow_scalar

        def run_loop() -> Any:
            with allow_scalar():
                return loop.loop(*loop_args)
    else:

        def run_loop() -> Any:
            return loop.loop(*loop_args)

    reference = backend.to_host(pullback(seed)[0])
    row.agree = max_rel_err(backend.to_host(run_loop()), reference)
    row.vectorized = backend.time(lambda: pullback(seed), 10)
    row.loop = backend.time(run_loop, 2)
    return row


# -- report -------------------------------------------------------------------------------


def _fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def _fmt_n(n: int) -> str:
    exponent = round(math.log10(n))
    return f"1e{exponent}" if 10**exponent == n else f"{n}"


def _growth(values: list[Any]) -> str:
    if len(values) < 2:
        return "-"
    return f"{values[0]} / {values[1]}" + (" (constant)" if values[0] == values[1] else "")


def _fmt_bandwidth(gbps: float | None, peak: float | None) -> str:
    if gbps is None:
        return "-"
    return f"{gbps:.1f} GB/s" + ("" if not peak else f" ({100 * gbps / peak:.0f}% of {peak / 1000:.1f} TB/s)")


def render(
    backend: Backend,
    rows: list[Row],
    loops: list[LoopRow],
    command: str,
    elapsed: float,
    partial: tuple[int, int] | None = None,
) -> str:
    import numpy

    try:
        import array_api_compat

        compat = f"array-api-compat {array_api_compat.__version__}"
    except ImportError:
        compat = "array-api-compat missing: rules use their built-in shim"
    lines = [
        f"# GPU verification of the reference rules: backend `{backend.name}`",
        "",
        f"- command: `{command}`",
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {os.cpu_count()} CPUs (`nproc`), `{platform.machine()}` (`uname -m`), "
        f"Python {platform.python_version()}, NumPy {numpy.__version__}, {compat}",
        f"- backend: {backend.describe()}",
        f"- total run time: {elapsed:.1f} s",
        *(
            [f"- **partial**: {partial[0]} of {partial[1]} rule variants done (the run stopped or is still going)"]
            if partial
            else []
        ),
        *([f"- peak memory bandwidth compared with: {backend.peak_gbps / 1000:.1f} TB/s"] if backend.peak_gbps else []),
        "",
        "Columns: *agrees* is the max error relative to the largest NumPy value, over the",
        f"outputs and cotangents, at n = {_fmt_n(backend.check_sizes[0])} and {_fmt_n(backend.check_sizes[1])};",
        "*scalar access* is `ok` when the pullback ran " + (
            "inside `disallow_scalar()` without a `ScalarIndexingError`;"
            if isinstance(backend, StrictBackend)
            else backend.scalar_text
        ),
        "*host calls* counts Python/C calls made by one pullback at both sizes (constant = no",
        "per-element host work)"
        + (
            "; *kernel nodes* are the captured graph's kernel nodes at "
            f"n = {_fmt_n(backend.capture_sizes[0])} / {_fmt_n(backend.capture_sizes[1])} (other node "
            "types in parentheses; a difference of a few nodes can come from CuPy picking another "
            "reduction strategy by size, per-element work would scale with n)"
            if backend.graphs
            else ""
        )
        + f"; times are {backend.time_label} time per pullback; *eff. BW* is the traffic of an ideal",
        "pullback (inputs it must read + outputs it must write, float64) divided by the time at",
        "the larger size. Dense rules (trace, det, logdet, matmul) use an m x m matrix with",
        "m = sqrt(n), capped, and are timed at the smaller size only.",
        "",
    ]
    t0, t1 = (_fmt_n(n) for n in backend.time_sizes)
    header = ["rule", "agrees (max rel err)", "scalar access", "host calls"]
    if backend.graphs:
        header.append("kernel nodes")
    header += [f"pullback n={t0}", f"pullback n={t1}", "eff. BW"]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for r in rows:
        cells = [
            f"`{r.label}`",
            " / ".join(f"{e:.1e}" for e in r.agree) or "-",
            r.scalar,
            _growth(r.calls),
        ]
        if backend.graphs:
            cells.append(_growth(r.nodes))
        cells += [_fmt_time(t) for t in (r.times + [None, None])[:2]]
        cells.append(_fmt_bandwidth(r.bandwidth, backend.peak_gbps))
        lines.append("| " + " | ".join(cells) + " |")
    notes = [f"- `{r.label}`: {note}" for r in rows for note in r.notes]
    if notes:
        lines += ["", "Notes:", *notes]
    lines += [
        "",
        f"## Scalar loops (ChainRules style) at n = {_fmt_n(backend.loop_n)}",
        "",
        "The pullbacks the rules replace, written as CPU code would be: a search loop with one",
        "comparison per element and a one-element write. They compute the same cotangent"
        + (
            "; on the strict array they must raise `ScalarIndexingError` under `disallow_scalar()`"
            " (timed here inside `allow_scalar()`, i.e. as plain CPU loops)."
            if isinstance(backend, StrictBackend)
            else f"; on {backend.sync_label} every comparison is a device-to-host sync."
        ),
        "",
    ]
    header = ["loop", "same result (max rel err)", "vectorized rule", "scalar loop", "slowdown"]
    if isinstance(backend, StrictBackend):
        header.insert(2, "raises on strict")
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for lr in loops:
        slow = "-" if not (lr.loop and lr.vectorized) else f"{lr.loop / lr.vectorized:.0f}x"
        cells = [lr.label, "-" if lr.agree is None else f"{lr.agree:.1e}", _fmt_time(lr.vectorized), _fmt_time(lr.loop), slow]
        if isinstance(backend, StrictBackend):
            cells.insert(2, lr.strict_raises)
        lines.append("| " + " | ".join(cells) + " |")
    ok = all(r.scalar == "ok" for r in rows) and all(max(r.agree, default=0) < 1e-8 for r in rows)
    constant = all(len(set(r.calls)) == 1 for r in rows)
    summary = (
        f"Summary: {len(rows)} rule variants, "
        + ("all agree with NumPy with no scalar access" if ok else "FAILURES above")
        + ("; host calls constant in n for all" if constant else "; host calls vary with n for some (see table)")
    )
    if backend.graphs:
        nodes_constant = all(len(r.nodes) == 2 and r.nodes[0] == r.nodes[1] for r in rows)
        c0, c1 = (_fmt_n(n) for n in backend.capture_sizes)
        summary += (
            f"; kernel nodes constant from n = {c0} to {c1} for all"
            if nodes_constant
            else "; kernel node counts differ with n for some (see table)"
        )
    lines += ["", summary + ".", ""]
    return "\n".join(lines)


def _first_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:80]}"


def _verify_loop_or_error(backend: Backend, loop: LoopSpec) -> LoopRow:
    try:
        return verify_loop(backend, loop)
    except Exception as exc:
        return LoopRow(f"{loop.label} (ERROR {_first_line(exc)})")


def make_backend(name: str, quick: bool) -> Backend:
    if name == "strict":
        return StrictBackend(quick)
    if name in ("torch", "torch-strict"):
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import gpu_verify_torch

        return gpu_verify_torch.make_backend(name, quick)
    if name == "cupy":
        try:
            return CupyBackend(quick)
        except Exception as exc:  # ImportError, CUDARuntimeError, no device
            raise SystemExit(f"gpu_verify: the cupy backend is unavailable here: {type(exc).__name__}: {exc}") from None
    raise SystemExit(f"gpu_verify: unknown backend {name!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("strict", "cupy", "torch", "torch-strict"), required=True)
    parser.add_argument("--out", type=Path, help="write the Markdown report here (default: stdout only)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke run for tests")
    parser.add_argument("--only", nargs="*", help="rule labels to run (default: all)")
    parser.add_argument(
        "--peak-bandwidth", type=float, metavar="GB/S", help="show the effective bandwidth as a share of this peak"
    )
    options = parser.parse_args(argv)
    backend = make_backend(options.backend, options.quick)
    backend.peak_gbps = options.peak_bandwidth
    start = time.perf_counter()
    specs = [s for s in SPECS if not options.only or s.label in options.only or s.rule in options.only]
    command = "python benchmarks/gpu_verify.py " + " ".join(argv if argv is not None else sys.argv[1:])
    rows = []
    for spec in specs:
        try:
            row = verify_spec(backend, spec)
        except Exception as exc:  # one rule's failure must not cost the others' results (one GPU run)
            row = Row(spec.label, scalar=f"ERROR {_first_line(exc)}")
        rows.append(row)
        print(f"{spec.label:24s} agree={row.agree} scalar={row.scalar} calls={row.calls} nodes={row.nodes} "
              f"times={[_fmt_time(t) for t in row.times]}", file=sys.stderr, flush=True)
        if options.out is not None:  # what a run stopped by a time limit leaves behind
            partial = render(backend, rows, [], command, time.perf_counter() - start, (len(rows), len(specs)))
            options.out.parent.mkdir(parents=True, exist_ok=True)
            options.out.write_text(partial)
    loops = [_verify_loop_or_error(backend, loop) for loop in LOOPS if any(s.label == loop.spec_label for s in specs)]
    report = render(backend, rows, loops, command, time.perf_counter() - start)
    print(report)
    if options.out is not None:
        options.out.parent.mkdir(parents=True, exist_ok=True)
        options.out.write_text(report)
    failed = any(r.scalar != "ok" or max(r.agree, default=0) > 1e-8 for r in rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
