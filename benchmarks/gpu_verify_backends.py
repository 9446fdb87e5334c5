"""The parts of the GPU verification that every backend shares: the benchmark call (``Spec``),
the error measure, the call counter, CUDA graph node counting, and the ``Backend`` base with the
CPU strict backend.

``gpu_verify.py`` (the script, the CuPy backend, the report) and ``gpu_verify_torch.py`` (the
PyTorch backends) both build on this module; neither imports the other for it, so the two
scripts form no circle: the script loads the torch backends only when asked for one.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

def _rng(m: Any, seed: int) -> Any:
    return m.random.default_rng(seed)


def _normal(m: Any, shape: tuple[int, ...], seed: int = 0) -> Any:
    return _rng(m, seed).standard_normal(shape)


Args = tuple[tuple[Any, ...], dict[str, Any]]


@dataclass(frozen=True)
class Spec:
    """One benchmarked rule call.

    ``make(m, n)`` builds the arguments with array module ``m`` (NumPy or CuPy)
    for an input of about ``n`` elements. ``traffic`` is the number of
    n-element float64 arrays an ideal pullback must read plus write (the basis of
    the effective bandwidth); ``None`` for compute-bound or view-only rules.
    ``dense`` rules take an m x m matrix with m = sqrt(n) and are timed at the
    smaller size only.
    """

    label: str
    rule: str
    make: Callable[[Any, int], Args]
    traffic: float | None
    dense: bool = False


def make_cotangent(m: Any, y: Any, seed: int = 7) -> Any:
    """A random ``dy`` shaped like ``y`` (``(dvalue, None)`` for findmax/findmin)."""
    if isinstance(y, tuple):
        return (make_cotangent(m, y[0], seed), None)
    return _normal(m, tuple(y.shape), seed)


def max_rel_err(got: Any, want: Any) -> float:
    """Largest ``|got - want| / max(|want|, tiny)`` over a tree; NaN/inf must match exactly."""
    if want is None:
        if got is not None:
            return math.inf
        return 0.0
    if isinstance(want, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(want):
            return math.inf
        return max((max_rel_err(g, w) for g, w in zip(got, want)), default=0.0)
    g = np.asarray(got, dtype=np.complex128 if np.iscomplexobj(want) else np.float64)
    w = np.asarray(want, dtype=g.dtype)
    if g.shape != w.shape:
        return math.inf
    if g.size == 0:
        return 0.0
    same = (g == w) | (np.isnan(g) & np.isnan(w))
    if not np.all(same | (np.isfinite(g) & np.isfinite(w))):
        return math.inf
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = max(float(np.max(np.abs(np.where(np.isfinite(w), w, 0)), initial=0.0)), 1e-300)
        err = np.where(same, 0.0, np.abs(g - w)) / scale
    return float(np.max(err))


class CallCounter:
    """Counts Python and C function calls made while active (``sys.setprofile``).

    Backend-agnostic: a pullback that loops over elements makes O(n) calls, a
    vectorized one makes the same number of calls at every n.
    """

    def __init__(self) -> None:
        self.count = 0

    def _profile(self, frame: Any, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            self.count += 1

    @contextlib.contextmanager
    def active(self) -> Iterator[CallCounter]:
        # The collector runs finalizers and weakref callbacks of whatever garbage earlier code
        # left: calls the pullback did not make. Collect first, and not while counting.
        gc.collect()
        enabled = gc.isenabled()
        gc.disable()
        previous = sys.getprofile()
        sys.setprofile(self._profile)
        try:
            yield self
        finally:
            sys.setprofile(previous)
            if enabled:
                gc.enable()


def tree_map(value: Any, fn: Callable[[Any], Any]) -> Any:
    if isinstance(value, (tuple, list)):
        return type(value)(tree_map(v, fn) for v in value)
    if isinstance(value, (np.ndarray, np.generic)):
        return fn(value)
    return value


# CUgraphNodeType values from cuda.h (stable across CUDA 10-13)
_NODE_TYPES = {
    0: "kernel",
    1: "memcpy",
    2: "memset",
    3: "host",
    4: "graph",
    5: "empty",
    6: "wait_event",
    7: "event_record",
    10: "mem_alloc",
    11: "mem_free",
    13: "conditional",
}


def load_cuda_driver() -> Any:
    """``libcuda`` through ctypes, or a string saying why not."""
    for name in ("libcuda.so.1", "libcuda.so", "nvcuda.dll"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return "n/a: the CUDA driver library (libcuda) cannot be loaded here"


def count_graph_nodes(graph_handle: int, driver: Any = None) -> dict[str, int] | str:
    """Node counts by type of a ``cudaGraph_t`` (the same handle as a driver ``CUgraph``).

    Uses ``cuGraphGetNodes`` twice (count, then handles) and ``cuGraphNodeGetType``.
    Returns a reason string (``"n/a: ..."``) when the driver is unavailable or a
    call fails, so the report says why instead of crashing.
    """
    driver = load_cuda_driver() if driver is None else driver
    if isinstance(driver, str):
        return driver
    if not graph_handle:
        return "n/a: no graph handle"
    graph = ctypes.c_void_p(graph_handle)
    num = ctypes.c_size_t(0)
    rc = driver.cuGraphGetNodes(graph, None, ctypes.byref(num))
    if rc != 0:
        return f"n/a: cuGraphGetNodes returned CUresult {rc}"
    nodes = (ctypes.c_void_p * max(num.value, 1))()
    rc = driver.cuGraphGetNodes(graph, nodes, ctypes.byref(num))
    if rc != 0:
        return f"n/a: cuGraphGetNodes returned CUresult {rc}"
    kinds: Counter[str] = Counter()
    for k in range(num.value):
        node_type = ctypes.c_int(-1)
        rc = driver.cuGraphNodeGetType(ctypes.c_void_p(nodes[k]), ctypes.byref(node_type))
        kinds[_NODE_TYPES.get(node_type.value, f"type{node_type.value}") if rc == 0 else "unknown"] += 1
    result = dict(kinds)
    result["total"] = num.value
    return result


@dataclass
class Capture:
    ok: bool
    detail: str
    nodes: dict[str, int] | str | None = None
    replay_err: float | None = None


class Backend:
    """What the verifier needs from a device backend."""

    name = "base"
    module: Any = np
    check_sizes: tuple[int, int] = (1_000, 100_000)
    time_sizes: tuple[int, int] = (10_000, 1_000_000)
    capture_sizes: tuple[int, int] = (1_000, 1_000_000)
    loop_n = 10_000
    time_label = "wall"
    graphs = False  # pullbacks are recorded as CUDA graphs (capture, kernel nodes)
    dense_cap = 90_000  # largest matrix (elements) a dense rule is timed with
    sync_label = "the device"  # what a scalar access costs there, for the loop table
    scalar_text = "inside CUDA stream capture (a host sync there is an error);"
    peak_gbps: float | None = None  # the memory bandwidth the effective one is compared with

    def to_device(self, a: np.ndarray) -> Any:
        raise NotImplementedError

    def to_host(self, a: Any) -> np.ndarray:
        raise NotImplementedError

    def make(self, spec: Spec, n: int) -> Args:
        """Arguments of about ``n`` elements, created on the device."""
        args, kwargs = spec.make(np, n)
        return tree_map(args, self.to_device), kwargs

    def cotangent(self, y: Any) -> Any:
        """A random ``dy`` for output ``y``, on the device."""
        return tree_map(make_cotangent(np, y), self.to_device)

    def guard(self) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext()

    def time(self, fn: Callable[[], Any], repeat: int) -> float:
        raise NotImplementedError

    def capture(self, fn: Callable[[], Any], reference: Any) -> Capture:
        return Capture(False, "n/a (no CUDA graphs on this backend)")

    def describe(self) -> str:
        return self.name


class StrictBackend(Backend):
    """The CPU strict array: scalar access raises; timings are CPU wall times."""

    name = "strict"

    def __init__(self, quick: bool = False) -> None:
        from scalarlint.runtime import ScalarIndexingError, disallow_scalar, strict, to_host

        self._strict, self._to_host, self._disallow = strict, to_host, disallow_scalar
        self.error_type = ScalarIndexingError
        if quick:
            self.check_sizes, self.time_sizes, self.loop_n = (50, 500), (200, 2_000), 200

    def to_device(self, a: np.ndarray) -> Any:
        return self._strict(a)

    def to_host(self, a: Any) -> np.ndarray:
        return self._to_host(a)

    def guard(self) -> contextlib.AbstractContextManager[Any]:
        return self._disallow()

    def time(self, fn: Callable[[], Any], repeat: int) -> float:
        fn()
        samples = []
        for _ in range(repeat):
            start = time.perf_counter()
            fn()
            samples.append(time.perf_counter() - start)
        return statistics.median(samples)

    def describe(self) -> str:
        return "strict (scalarlint.runtime.StrictArray on NumPy, CPU)"


def tree_map_device(value: Any, fn: Callable[[Any], Any]) -> Any:
    """Map ``fn`` over the array leaves of a result tree (device arrays included)."""
    if isinstance(value, (tuple, list)):
        return type(value)(tree_map_device(v, fn) for v in value)
    if value is None or isinstance(value, (bool, int, float, complex)):
        return value
    return fn(value)
