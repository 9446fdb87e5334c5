"""A tiny array-API shim for machines without ``array_api_compat``.

Used only when ``import array_api_compat`` fails (for instance a GPU box with
CuPy and NumPy but no network to install it). It adapts NumPy or CuPy's own
module to the handful of array-API spellings the rules use; any other array
type must bring its own ``__array_namespace__`` (PyTorch needs array-api-compat).

What it adds or adapts, and only when the module lacks it:

- ``concat`` -> ``concatenate``, ``permute_dims`` -> ``transpose``,
  ``matrix_transpose`` -> ``swapaxes(x, -1, -2)``, ``astype(x, dtype)`` ->
  ``x.astype(dtype)``, ``isdtype``, ``bool`` -> ``bool_``;
  ``linalg.trace`` -> ``trace(axis1=-2, axis2=-1)``;
- ``sort``/``argsort``: the standard's ``stable=True`` becomes NumPy's
  ``kind="stable"`` (CuPy's sorts are always stable and take no ``stable``);
- creation functions drop ``device=`` (arrays are made on the current CuPy
  device: wrap multi-GPU code in ``with cupy.cuda.Device(i):``).

Nothing here reads array data: it renames functions and keyword arguments.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

_CREATION = ("arange", "asarray", "eye", "full", "zeros", "ones", "empty", "linspace")
_DTYPE_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


def _module_for(x: Any) -> ModuleType | None:
    """NumPy or CuPy, by the array's type; ``None`` for anything else."""
    root = type(x).__module__.split(".")[0]
    if root in ("numpy", "cupy"):
        return importlib.import_module(root)
    return None


def _isdtype(dtype: Any, kind: str | tuple[Any, ...]) -> bool:
    """The standard's ``isdtype`` for NumPy-style dtypes (host metadata only)."""
    import numpy

    if isinstance(kind, tuple):
        return any(_isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        return numpy.dtype(dtype).kind in _DTYPE_KINDS[kind]
    return numpy.dtype(dtype) == numpy.dtype(kind)


def _drop_device(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def creation(*args: Any, device: Any = None, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return creation


def _stable_sort(func: Callable[..., Any], is_cupy: bool) -> Callable[..., Any]:
    @functools.wraps(func)
    def sort(x: Any, axis: int = -1, stable: bool = True, descending: bool = False) -> Any:
        if descending:
            raise NotImplementedError("the shim does not support descending sorts")
        if is_cupy:
            return func(x, axis=axis)  # CuPy's sorts are always stable
        return func(x, axis=axis, kind="stable" if stable else None)

    return sort


class _LinalgShim:
    """``module.linalg`` plus the standard's ``trace`` over the last two axes."""

    def __init__(self, module: ModuleType) -> None:
        self._module = module
        self._linalg = module.linalg

    def trace(self, x: Any, offset: int = 0) -> Any:
        native = getattr(self._linalg, "trace", None)
        if native is not None:
            return native(x, offset=offset)
        return self._module.trace(x, offset=offset, axis1=-2, axis2=-1)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._linalg, name)


class ModuleShim:
    """A NumPy-like module seen through the array-API names the rules use."""

    def __init__(self, module: ModuleType) -> None:
        self._module = module
        self.__name__ = f"scalarlint.rules._shim({module.__name__})"
        self.linalg = _LinalgShim(module)
        is_cupy = module.__name__.split(".")[0] == "cupy"
        for name in _CREATION:
            if hasattr(module, name):
                setattr(self, name, _drop_device(getattr(module, name)))
        self.sort = _stable_sort(module.sort, is_cupy)
        self.argsort = _stable_sort(module.argsort, is_cupy)
        fallbacks: dict[str, Any] = {
            "concat": getattr(module, "concatenate", None),
            "permute_dims": getattr(module, "transpose", None),
            "matrix_transpose": lambda x: module.swapaxes(x, -1, -2),
            "astype": lambda x, dtype, copy=True: x.astype(dtype, copy=copy),
            "isdtype": _isdtype,
            "bool": getattr(module, "bool_", None),
        }
        for name, value in fallbacks.items():
            if not hasattr(module, name) and value is not None:
                setattr(self, name, value)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)

    def __repr__(self) -> str:
        return f"<{self.__name__}>"


@functools.lru_cache(maxsize=None)
def _shim_for(module: ModuleType) -> ModuleShim:
    return ModuleShim(module)


def namespace(*xs: Any) -> Any:
    """The namespace for ``xs`` without array_api_compat (scalars and ``None`` skipped)."""
    found: list[Any] = []
    for x in xs:
        if x is None or isinstance(x, (bool, int, float, complex)):
            continue
        module = _module_for(x)
        if module is not None:
            ns: Any = _shim_for(module)
        elif hasattr(x, "__array_namespace__"):
            ns = x.__array_namespace__()
        else:
            raise TypeError(
                f"{type(x).__name__} is not supported without array-api-compat "
                "(pip install array-api-compat; PyTorch needs it)"
            )
        if all(ns is not other for other in found):
            found.append(ns)
    if len(found) != 1:
        raise TypeError(f"expected arrays from exactly one library, got {len(found)}")
    return found[0]
