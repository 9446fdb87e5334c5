"""The PyTorch backends of ``benchmarks/gpu_verify.py``: ``--backend torch`` and ``--backend torch-strict``.

``torch`` (CUDA) checks what ``--backend cupy`` checks, with PyTorch's own tools:

* every agreement run (forward and pullback) is inside ``torch.cuda.set_sync_debug_mode("error")``,
  where a synchronizing call PyTorch knows of (``.item()``, ``.cpu()``, ``nonzero``, boolean
  masks, ``if tensor:``) raises;
* the pullback is recorded as a CUDA graph (``torch.cuda.graph``), where any host sync
  invalidates the capture, the graph's kernel nodes are counted through the driver
  (``CUDAGraph(keep_graph=True).raw_cuda_graph()``, where this PyTorch has it), and the graph is
  replayed and compared with the eager result;
* times are GPU times from CUDA events around each call.

Inputs at the large sizes are generated on the GPU with CuPy and handed over through DLPack
when CuPy is there (no 800 MB uploads); otherwise they are made with NumPy and copied.

``torch-strict`` runs the same stages on PyTorch CPU tensors inside
``disallow_scalar(backends=("torch-cpu",))`` (``scalarlint.runtime._torch_strict``): scalar
access raises as on the strict array. It needs no GPU, so ``benchmarks/gpu_run.sh --cpu`` and
the tests run this module's code paths here.
"""

from __future__ import annotations

import contextlib
import statistics
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import gpu_verify_backends as gv


def _map_leaves(value: Any, is_leaf: Callable[[Any], bool], fn: Callable[[Any], Any]) -> Any:
    if isinstance(value, (tuple, list)):
        return type(value)(_map_leaves(v, is_leaf, fn) for v in value)
    return fn(value) if is_leaf(value) else value


class TorchCudaBackend(gv.Backend):
    """PyTorch on a CUDA GPU: sync debug mode, CUDA graph capture, GPU times."""

    name = "torch"
    time_sizes = (1_000_000, 100_000_000)
    time_label = "GPU"
    graphs = True
    dense_cap = 1_000_000
    sync_label = "PyTorch CUDA"
    scalar_text = (
        'inside `torch.cuda.set_sync_debug_mode("error")` (a sync PyTorch knows of raises) and, at the '
        "capture sizes, inside CUDA graph capture (any host sync invalidates it);"
    )

    def __init__(self, quick: bool = False) -> None:
        import torch

        if not torch.cuda.is_available():
            raise RuntimeError(f"PyTorch {torch.__version__} sees no CUDA device")
        self._torch = torch
        self.module = torch
        self._driver = gv.load_cuda_driver()
        self.error_type = Exception
        try:
            import cupy

            self._cupy: Any = cupy if cupy.cuda.runtime.getDeviceCount() > 0 else None
        except Exception:  # no CuPy: inputs are made with NumPy and copied
            self._cupy = None
        if quick:
            self.check_sizes, self.time_sizes, self.capture_sizes, self.loop_n = (50, 500), (1_000, 10_000), (100, 10_000), 200

    def to_device(self, a: np.ndarray) -> Any:
        return self._torch.tensor(a, device="cuda")

    def to_host(self, a: Any) -> np.ndarray:
        if isinstance(a, self._torch.Tensor):
            return a.detach().cpu().numpy()
        return np.asarray(a)

    def make(self, spec: gv.Spec, n: int) -> gv.Args:
        if self._cupy is None:
            return super().make(spec, n)
        cupy, torch = self._cupy, self._torch
        args, kwargs = spec.make(cupy, n)
        moved = _map_leaves(args, lambda a: isinstance(a, cupy.ndarray), torch.from_dlpack)
        cupy.cuda.Device().synchronize()  # CuPy's stream is not PyTorch's: finish writing first
        return moved, kwargs

    def cotangent(self, y: Any) -> Any:
        if isinstance(y, tuple):
            return (self.cotangent(y[0]), None)
        generator = self._torch.Generator(device="cuda").manual_seed(7)
        return self._torch.randn(tuple(y.shape), dtype=y.dtype, device="cuda", generator=generator)

    @contextlib.contextmanager
    def guard(self) -> Iterator[None]:
        cuda = self._torch.cuda
        previous = cuda.get_sync_debug_mode()
        cuda.set_sync_debug_mode("error")
        try:
            yield
        finally:
            cuda.set_sync_debug_mode(previous)

    def time(self, fn: Callable[[], Any], repeat: int) -> float:
        cuda = self._torch.cuda
        for _ in range(2):
            fn()
        samples = []
        for _ in range(repeat):
            start, end = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            samples.append(start.elapsed_time(end) / 1e3)
        return statistics.fmean(samples)

    def capture(self, fn: Callable[[], Any], reference: Any) -> gv.Capture:
        """Record ``fn`` as a CUDA graph, count its nodes, replay it, compare with ``reference``."""
        torch = self._torch
        torch.cuda.synchronize()
        side = torch.cuda.Stream()  # warm-up on a side stream, as PyTorch's graph docs ask
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            fn()
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        try:
            graph, keeps = torch.cuda.CUDAGraph(keep_graph=True), True
        except TypeError:  # a PyTorch without keep_graph: no raw graph to count nodes in
            graph, keeps = torch.cuda.CUDAGraph(), False
        stream = torch.cuda.current_stream()
        try:
            with torch.cuda.graph(graph):
                out = fn()
        except Exception as exc:  # a sync (or anything else) during capture
            # a capture that fails to end leaves its side stream current: go back to ours
            with contextlib.suppress(Exception):
                torch.cuda.set_stream(stream)
                torch.cuda.synchronize()
            return gv.Capture(False, f"raised {_first_error(exc)}")
        nodes: Any = "n/a: this PyTorch has no CUDAGraph(keep_graph=True)"
        if keeps:
            nodes = gv.count_graph_nodes(int(graph.raw_cuda_graph()), self._driver)
            graph.instantiate()
        graph.replay()
        torch.cuda.synchronize()
        replayed = gv.tree_map_device(out, self.to_host)
        del graph
        return gv.Capture(True, "captured", nodes, gv.max_rel_err(replayed, reference))

    def describe(self) -> str:
        torch = self._torch
        props = torch.cuda.get_device_properties(0)
        driver = self._driver_version()
        return (
            f"torch {torch.__version__} (CUDA {torch.version.cuda}) on {props.name} "
            f"({props.total_memory / 2**30:.0f} GiB){driver}"
            + ("" if self._cupy is None else f"; large inputs made with cupy {self._cupy.__version__} via DLPack")
        )

    def _driver_version(self) -> str:
        import ctypes

        if isinstance(self._driver, str):
            return ""
        version = ctypes.c_int(0)
        if self._driver.cuDriverGetVersion(ctypes.byref(version)) != 0:
            return ""
        return f", driver API {version.value // 1000}.{version.value % 1000 // 10}"


def _first_error(exc: BaseException) -> str:
    """The first error of a chain (a failed capture raises again when it is closed)."""
    first = exc
    while first.__context__ is not None and first.__context__ is not first:
        first = first.__context__
    text = str(first).splitlines()[0][:120] if str(first) else ""
    return f"{type(first).__name__}: {text}"


class TorchStrictBackend(gv.StrictBackend):
    """PyTorch CPU tensors under the strict policy: scalar access raises; CPU wall times."""

    name = "torch-strict"

    def __init__(self, quick: bool = False) -> None:
        super().__init__(quick)
        import torch

        from scalarlint.runtime import disallow_scalar

        if not hasattr(torch.overrides, "TorchFunctionMode"):
            raise RuntimeError(f"PyTorch {torch.__version__} has no TorchFunctionMode")
        self._torch = torch
        self.module = torch
        self._policy = lambda: disallow_scalar(backends=("torch-cpu",))

    def to_device(self, a: np.ndarray) -> Any:
        return self._torch.tensor(a)

    def to_host(self, a: Any) -> np.ndarray:
        if isinstance(a, self._torch.Tensor):
            return a.detach().numpy()
        return np.asarray(a)

    def guard(self) -> contextlib.AbstractContextManager[Any]:
        return self._policy()

    def describe(self) -> str:
        return f"torch-strict (PyTorch {self._torch.__version__} CPU tensors under disallow_scalar(backends=('torch-cpu',)))"


def make_backend(name: str, quick: bool) -> gv.Backend:
    classes = {"torch": TorchCudaBackend, "torch-strict": TorchStrictBackend}
    try:
        return classes[name](quick)
    except Exception as exc:  # ImportError, no CUDA device
        raise SystemExit(f"gpu_verify: the {name} backend is unavailable here: {type(exc).__name__}: {exc}") from None
