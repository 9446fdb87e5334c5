"""The array backends a rule can be tested on: whether each is here, its namespace, and how
data moves to it and back.

Shared by :mod:`scalarlint.testing` (``check_rule`` compares a backend with NumPy) and the
pytest plugin (the ``xp`` fixture hands a test the namespace). Each library is imported only
when its backend is loaded, so naming a backend that is absent costs nothing but the reason it
is absent. Imports NumPy and the runtime only (never the checker).

Backends:

``numpy``
    NumPy itself, the reference every other backend is compared with.
``strict``
    :class:`~scalarlint.runtime.StrictArray`: a CPU array with GPU semantics (always present).
``cupy``
    CuPy on a CUDA device (needs a GPU).
``torch``
    PyTorch through ``array_api_compat.torch``: on CUDA when PyTorch sees a GPU, else on the
    CPU. ``torch-cuda`` and ``torch-cpu`` name one device explicitly.
``torch-strict``
    PyTorch on the CPU in strict mode: the tensors are plain CPU tensors, and the backend's
    policy (``disallow_scalar(backends=("torch-cpu",))``) refuses scalar access to them as the
    strict array does (``scalarlint.runtime._torch_strict``). No GPU needed.
``jax``
    ``jax.numpy`` on JAX's default device (float32 unless ``jax_enable_x64`` is set).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .runtime import StrictArray, strict, strict_namespace, to_host

__all__ = ["Backend", "BackendUnavailable", "BACKEND_NAMES", "load_backend"]

BACKEND_NAMES = ("numpy", "strict", "cupy", "torch", "torch-strict", "jax")
_ALIASES = ("torch-cpu", "torch-cuda")

# Functions of an array namespace that create arrays from nothing: on a CUDA torch backend
# the xp fixture gives them ``device="cuda"`` so a test's arrays start on the GPU.
_CREATION = frozenset(
    {"asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye", "tensor", "rand", "randn"}
)


class BackendUnavailable(Exception):
    """A requested backend cannot run here (library missing or no GPU).

    Raised by :func:`scalarlint.testing.check_rule` outside pytest. Under pytest the check
    calls ``pytest.skip`` instead, after checking every backend that *is* available, so a
    CPU-only CI run reports the GPU part as skipped rather than silently passed.
    """


@dataclass(frozen=True)
class Backend:
    """One backend, loaded: its namespace and the conversions ``check_rule`` needs."""

    name: str
    description: str  # for reports: "torch 2.13.0 (cpu)"
    type_name: str  # what its arrays are called in failure messages
    namespace: Any
    to_device: Callable[[np.ndarray], Any]
    to_host: Callable[[Any], np.ndarray]
    is_device: Callable[[Any], bool]
    policy: tuple[str, ...]  # the disallow_scalar() hooks that match this backend


class _DeviceNamespace:
    """A namespace whose creation functions default to one device (``torch`` on CUDA)."""

    def __init__(self, namespace: Any, device: str) -> None:
        self._namespace = namespace
        self._device = device

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._namespace, name)
        if name not in _CREATION or not callable(value):
            return value
        device = self._device

        def create(*args: Any, **kwargs: Any) -> Any:
            kwargs.setdefault("device", device)
            return value(*args, **kwargs)

        return create

    def __repr__(self) -> str:
        return f"<{getattr(self._namespace, '__name__', 'namespace')} on {self._device}>"


def _import(module: str, what: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise BackendUnavailable(f"{what} is not installed ({exc})") from None


def _numpy() -> Backend:
    return Backend("numpy", f"numpy {np.__version__}", "numpy.ndarray", np, np.asarray, np.asarray,
                   lambda a: isinstance(a, np.ndarray), ())


def _strict() -> Backend:
    return Backend("strict", "StrictArray (CPU, GPU semantics)", "StrictArray", strict_namespace, strict,
                   to_host, lambda a: isinstance(a, StrictArray), ())


def _cupy() -> Backend:
    cupy = _import("cupy", "cupy: CuPy")
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CUDA driver or runtime missing
        raise BackendUnavailable(f"cupy: no usable CUDA device ({exc})") from None
    if count < 1:
        raise BackendUnavailable("cupy: no CUDA device visible")
    return Backend("cupy", f"cupy {cupy.__version__} (cuda)", "cupy.ndarray", cupy, cupy.asarray, cupy.asnumpy,
                   lambda a: isinstance(a, cupy.ndarray), ("cupy",))


def _torch(device: str | None) -> Backend:
    torch = _import("torch", "torch: PyTorch")
    cuda = bool(torch.cuda.is_available())
    if device == "cuda" and not cuda:
        raise BackendUnavailable("torch: CUDA is not available to PyTorch")
    device = device or ("cuda" if cuda else "cpu")
    compat = importlib.import_module("array_api_compat.torch")
    namespace = _DeviceNamespace(compat, "cuda") if device == "cuda" else compat
    on_device = device == "cuda"
    return Backend(
        "torch" if on_device else "torch-cpu",
        f"torch {torch.__version__} ({device})",
        f"torch.Tensor ({device})",
        namespace,
        # torch.tensor copies (as_tensor would share memory with the caller's NumPy array)
        lambda a: torch.tensor(a, device=device),
        lambda t: t.detach().cpu().numpy(),
        lambda t: isinstance(t, torch.Tensor) and t.is_cuda == on_device,
        ("torch",) if on_device else (),
    )


def _torch_strict() -> Backend:
    torch = _import("torch", "torch: PyTorch")
    if not hasattr(torch.overrides, "TorchFunctionMode"):
        raise BackendUnavailable(f"torch: PyTorch {torch.__version__} has no TorchFunctionMode")
    compat = importlib.import_module("array_api_compat.torch")
    return Backend(
        "torch-strict",
        f"torch {torch.__version__} (cpu, strict)",
        "torch.Tensor (cpu, strict)",
        compat,
        lambda a: torch.tensor(a, device="cpu"),
        to_host,
        lambda t: isinstance(t, torch.Tensor) and not t.is_cuda,
        ("torch-cpu",),
    )


def _jax() -> Backend:
    jax = _import("jax", "jax: JAX")
    jnp = importlib.import_module("jax.numpy")
    platform = jax.default_backend()
    return Backend("jax", f"jax {jax.__version__} ({platform})", "jax.Array", jnp, jnp.asarray, np.asarray,
                   lambda a: isinstance(a, jax.Array), ())


def load_backend(name: str) -> Backend:
    """The backend called ``name``; :class:`BackendUnavailable` says why it cannot run here."""
    loaders: dict[str, Callable[[], Backend]] = {
        "numpy": _numpy,
        "strict": _strict,
        "cupy": _cupy,
        "torch": lambda: _torch(None),
        "torch-cpu": lambda: _torch("cpu"),
        "torch-cuda": lambda: _torch("cuda"),
        "torch-strict": _torch_strict,
        "jax": _jax,
    }
    if name not in loaders:
        raise ValueError(f"unknown backend {name!r}; known: {', '.join(BACKEND_NAMES + _ALIASES)}")
    return loaders[name]()
