"""The array namespace of StrictArray: NumPy's API, on the strict "device".

Rules written against the array API do ``xp = array_namespace(x)`` and then
call NumPy-style functions on ``xp``. ``StrictArray.__array_namespace__``
returns :data:`strict_namespace`, so those rules run unchanged, and:

* creation functions with no array argument (``zeros``, ``arange``, ``full``,
  ``eye``, ``asarray``, ...) return StrictArrays, as ``cupy.zeros`` returns
  device arrays;
* functions on StrictArrays return StrictArrays (0-d for reductions);
* dtypes, classes and constants (``float64``, ``pi``, ``newaxis``) pass through;
* submodules (``linalg``, ``fft``, ``random``) are wrapped the same way;
* ufuncs keep their methods (``xp.add.at(dx, idx, g)`` scatters in place).

``array_api_compat.array_namespace`` finds it through ``__array_namespace__``
(it asks only for that method and the namespace's ``__name__``).
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any, Callable

import numpy as np

from ._strict import StrictArray, _contains_strict, call_numpy, register_namespace, to_host, wrap

__all__ = ["StrictNamespace", "strict_namespace"]

_PASSTHROUGH_DUNDERS = frozenset({"__array_api_version__", "__array_namespace_info__"})


class _StrictUfunc:
    """A NumPy ufunc whose results land on the strict device.

    With a StrictArray among the arguments NumPy dispatches to
    ``StrictArray.__array_ufunc__`` (so ``at`` works in place on the wrapped
    data); with host inputs only (``xp.exp(1.0)``) the result is moved to the
    device, as ``xp`` means "the device library".
    """

    __slots__ = ("_ufunc",)

    def __init__(self, ufunc: np.ufunc) -> None:
        self._ufunc = ufunc

    def _apply(self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        bound = getattr(self._ufunc, method)
        if _contains_strict(args) or _contains_strict(tuple(kwargs.values())):
            return bound(*args, **kwargs)
        result = bound(*args, **kwargs)
        return None if method == "at" else wrap(result)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._apply("__call__", args, kwargs)

    def reduce(self, *args: Any, **kwargs: Any) -> Any:
        return self._apply("reduce", args, kwargs)

    def accumulate(self, *args: Any, **kwargs: Any) -> Any:
        return self._apply("accumulate", args, kwargs)

    def reduceat(self, *args: Any, **kwargs: Any) -> Any:
        return self._apply("reduceat", args, kwargs)

    def outer(self, *args: Any, **kwargs: Any) -> Any:
        return self._apply("outer", args, kwargs)

    def at(self, *args: Any, **kwargs: Any) -> None:
        self._apply("at", args, kwargs)

    def __getattr__(self, name: str) -> Any:  # nin, nout, identity, __name__, ...
        return getattr(self._ufunc, name)

    def __repr__(self) -> str:
        return f"<strict ufunc {self._ufunc.__name__!r}>"


def _wrap_function(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    @functools.wraps(func)
    def on_device(*args: Any, **kwargs: Any) -> Any:
        return call_numpy(func, name, args, kwargs)

    return on_device


class StrictNamespace:
    """NumPy's namespace (or a submodule of it) with results on the strict device.

    Attributes are adapted on first access and cached on the instance.
    """

    def __init__(self, module: ModuleType, name: str) -> None:
        self.__name__ = name
        self._module = module
        self.ndarray = StrictArray
        if module is np:
            self.asnumpy = to_host  # cupy.asnumpy's spelling of the explicit copy back

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr not in _PASSTHROUGH_DUNDERS:
            raise AttributeError(attr)
        try:
            obj = getattr(self._module, attr)
        except AttributeError:
            raise AttributeError(
                f"{self.__name__} has no attribute {attr!r} (neither has {self._module.__name__})"
            ) from None
        value = _adapt(obj, attr, f"{self.__name__}.{attr}")
        setattr(self, attr, value)
        return value

    def __dir__(self) -> list[str]:
        return sorted(set(dir(self._module)) | set(vars(self)))

    def __repr__(self) -> str:
        return f"<array namespace {self.__name__!r}: {self._module.__name__} on the strict device>"


def _adapt(obj: Any, attr: str, qualified: str) -> Any:
    if isinstance(obj, np.ufunc):
        return _StrictUfunc(obj)
    if isinstance(obj, ModuleType):
        if obj.__name__.startswith("numpy"):
            return StrictNamespace(obj, qualified)
        return obj
    if isinstance(obj, type) or not callable(obj):
        return obj  # dtypes, classes (finfo, errstate), constants
    return _wrap_function(obj, getattr(obj, "__name__", attr))


strict_namespace = StrictNamespace(np, "scalarlint.runtime.strict_namespace")
"""The namespace ``array_api_compat.array_namespace(strict(x))`` returns."""

register_namespace(strict_namespace)
