"""``StrictArray``: a CPU array that behaves like a GPU array where it matters.

It wraps a NumPy ndarray and copies CuPy's *semantics*: operations that run
as kernels on the device (slicing, gathers, ufuncs, reductions to 0-d arrays,
NumPy functions) work and keep the type; operations that need the host to see
a value (element access with host integers, iteration, ``float()``,
``bool()``, data-dependent shapes) raise :class:`ScalarIndexingError` unless
they run inside ``allow_scalar()``. A rule that passes on a StrictArray does
no per-element host work on CuPy or PyTorch either (the role JLArrays plays
in Julia), and it needs no GPU to find out.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Iterator

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from ._context import run_with_scalar_allowed, scalar_allowed
from ._errors import scalar_error
from ._host_access import HostAccess
from ._report import refuse
from ._indexing import prepare_key
from ._rules import DATA_SCALAR_FUNCTIONS, check_data_dependent, check_host_params

# The strict array's array-API namespace. ``_namespace`` builds it from this module's wrappers
# and registers it on import (the package imports it before anyone can hold a StrictArray), so
# the imports run one way: ``_namespace`` -> ``_strict``.
_NAMESPACE: list[Any] = [None]


def register_namespace(namespace: Any) -> None:
    """What ``StrictArray.__array_namespace__`` returns (called once, by ``_namespace``)."""
    _NAMESPACE[0] = namespace

__all__ = ["StrictArray", "strict", "to_host", "call_numpy", "unwrap", "wrap"]

_PYTHON_SCALARS = (int, float, complex, bool)

STRICT_DEVICE = "strict"
"""The array API ``device`` of every StrictArray; creation functions accept it."""


class StrictArray(NDArrayOperatorsMixin, HostAccess):
    """A NumPy-backed array with GPU (CuPy) semantics for scalar access.

    Build one with :func:`strict`; get values back with :func:`to_host`.
    Arithmetic, comparisons (StrictArray of bool), ``@``, ufuncs (including
    ``np.add.at`` in place), NumPy functions and reductions return
    StrictArrays; a reduction returns a 0-d StrictArray, as CuPy returns a 0-d
    device array. ``len()``, ``.shape`` and the other metadata are host
    values and always allowed. ``repr``/``str`` always work so that failing
    tests can print.
    """

    __slots__ = ("_data",)

    def __init__(self, data: np.ndarray) -> None:
        if not isinstance(data, np.ndarray):
            raise TypeError(
                f"StrictArray wraps a numpy.ndarray, got {type(data).__name__}; "
                "use scalarlint.runtime.strict(x) to convert"
            )
        self._data = data

    # -- metadata: host values, always allowed ---------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._data.shape

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def size(self) -> int:
        return self._data.size

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._data.dtype

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def device(self) -> str:
        """The array API device: a marker string, never the host."""
        return STRICT_DEVICE

    def to_device(self, device: Any, /, *, stream: Any = None) -> StrictArray:
        """Array API ``to_device``: only the strict device itself is accepted."""
        if isinstance(device, str) and device == STRICT_DEVICE:
            return self
        raise ValueError(
            f"StrictArray lives on device 'strict'; use to_host(x) to get a numpy array (got {device!r})"
        )

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of unsized object")
        return self._data.shape[0]

    # -- views and shape -------------------------------------------------------
    @property
    def T(self) -> StrictArray:  # noqa: N802 - NumPy's name
        return StrictArray(self._data.T)

    @property
    def mT(self) -> StrictArray:  # noqa: N802 - NumPy's name
        return StrictArray(self._data.mT)

    @property
    def real(self) -> StrictArray:
        return StrictArray(self._data.real)

    @property
    def imag(self) -> StrictArray:
        return StrictArray(self._data.imag)

    def reshape(self, *shape: Any, **kwargs: Any) -> StrictArray:
        target = shape[0] if len(shape) == 1 else shape
        return call_numpy(np.reshape, "reshape", (self, target), kwargs)

    def transpose(self, *axes: Any) -> StrictArray:
        target = axes[0] if len(axes) == 1 else (axes or None)
        return call_numpy(np.transpose, "transpose", (self, target), {})

    def astype(self, dtype: Any, copy: bool = True, **kwargs: Any) -> StrictArray:
        return StrictArray(self._data.astype(dtype, copy=copy, **kwargs))

    def copy(self) -> StrictArray:
        return StrictArray(self._data.copy())

    def flatten(self) -> StrictArray:
        return StrictArray(self._data.flatten())

    def view(self, dtype: Any = None) -> StrictArray:
        """Reinterpret the bytes (``dtype``); refuses ``np.ndarray`` and subclasses.

        ``x.view(np.ndarray)`` is NumPy's way to strip a subclass; on a
        StrictArray it would be a silent trip to the host, so it raises.
        """
        if isinstance(dtype, type) and issubclass(dtype, np.ndarray):
            raise TypeError("StrictArray.view(np.ndarray) would leave the device; use to_host(x)")
        return StrictArray(self._data if dtype is None else self._data.view(dtype))

    def sort(self, axis: int = -1, **kwargs: Any) -> None:
        check_host_params("sort", (self, axis), kwargs, StrictArray)
        self._data.sort(axis=axis, **kwargs)

    def fill(self, value: Any) -> None:
        self._data.fill(unwrap(value))

    def __copy__(self) -> StrictArray:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> StrictArray:
        return self.copy()

    # -- indexing --------------------------------------------------------------
    def __getitem__(self, key: Any) -> StrictArray:
        prepared = prepare_key(key, self._data.shape, StrictArray, write=False)
        return wrap(self._data[prepared])

    def __setitem__(self, key: Any, value: Any) -> None:
        prepared = prepare_key(key, self._data.shape, StrictArray, write=True)
        self._data[prepared] = unwrap(value)

    # -- iteration and membership (host conversions: ``HostAccess``) ---------
    def __iter__(self) -> Iterator[StrictArray]:
        if not scalar_allowed():
            refuse(scalar_error("iteration (for/list/zip/sum/max/sorted)", self._data.shape, "iteration"))
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return iter([wrap(item) for item in self._data])

    def __reversed__(self) -> Iterator[StrictArray]:
        return reversed(list(self.__iter__()))

    def __contains__(self, value: Any) -> bool:
        self._require_scalar("`in` (membership test)")
        return unwrap(value) in self._data

    def __repr__(self) -> str:
        body = np.array2string(self._data, separator=", ", prefix="StrictArray(")
        return f"StrictArray({body}, dtype={self._data.dtype})"

    def __str__(self) -> str:
        return str(self._data)

    # -- NumPy protocols -------------------------------------------------------
    def __array_namespace__(self, api_version: str | None = None) -> Any:
        if api_version is not None and not isinstance(api_version, str):
            raise TypeError(f"api_version must be a string or None, got {api_version!r}")
        return _NAMESPACE[0]

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        for obj in (*inputs, *kwargs.get("out", ())):
            if obj is not None and obj is not Ellipsis and not isinstance(obj, _UFUNC_OPERANDS):
                return NotImplemented  # a foreign array type: let it decide
        return _apply_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(
        self, func: Callable[..., Any], types: tuple[type, ...], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        if not all(issubclass(t, (StrictArray, np.ndarray)) for t in types):
            return NotImplemented
        return call_numpy(func, func.__name__, args, kwargs)


# What may appear among ufunc operands (``at`` indices included) before we
# decide; anything else is another array library's business.
_UFUNC_OPERANDS = (StrictArray, np.ndarray, np.generic, *_PYTHON_SCALARS, tuple, list, slice)


def _make_method(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: StrictArray, *args: Any, **kwargs: Any) -> Any:
        return call_numpy(func, name, (self, *args), kwargs)

    method.__name__ = name
    method.__qualname__ = f"StrictArray.{name}"
    method.__doc__ = f"``np.{name}(x, ...)`` on the device; see numpy.ndarray.{name}."
    return method


for _name in (
    "sum", "prod", "mean", "std", "var", "max", "min", "argmax", "argmin",
    "cumsum", "cumprod", "any", "all", "clip", "round", "conj", "conjugate",
    "ravel", "squeeze", "swapaxes", "take", "repeat", "argsort", "diagonal",
    "trace", "dot", "searchsorted", "nonzero", "compress", "choose",
):
    setattr(StrictArray, _name, _make_method(_name, getattr(np, _name)))
del _name


def _host_mix_error(obj: Any, where: str) -> TypeError:
    if isinstance(obj, np.ndarray):
        kind = f"host numpy array of shape {obj.shape}"
    else:
        kind = f"Python {type(obj).__name__}"
    return TypeError(
        f"{where} mixes a StrictArray with a {kind}. CuPy raises TypeError "
        "('Unsupported type') here: move the operand to the device first "
        "(xp.asarray(...) with xp = array_namespace(x), or strict(...))."
    )


def _check_device_operand(obj: Any, where: str) -> Any:
    """Unwrap an operand, refusing host arrays that CuPy would refuse."""
    if isinstance(obj, StrictArray):
        return obj._data
    if (isinstance(obj, np.ndarray) and obj.ndim > 0) or isinstance(obj, (list, tuple)):
        raise _host_mix_error(obj, where)
    return obj


def _apply_ufunc(ufunc: np.ufunc, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    where = f"np.{ufunc.__name__}" + ("" if method == "__call__" else f".{method}")
    if method == "at":
        target, indices, *rest = inputs
        if not isinstance(target, StrictArray):
            raise _host_mix_error(target, where)
        key = prepare_key(indices, target.shape, StrictArray, write=True)
        values = [_check_device_operand(v, where) for v in rest]
        run_with_scalar_allowed(ufunc.at, target._data, key, *values)
        return None
    if method in ("reduce", "accumulate", "reduceat"):
        checked = [_check_device_operand(inputs[0], where), *(unwrap(v) for v in inputs[1:])]
    else:
        checked = [_check_device_operand(v, where) for v in inputs]
    outs = kwargs.get("out")
    if outs is not None:
        checked_outs = tuple(None if o is None else _check_device_operand(o, where) for o in outs)
        kwargs = {**kwargs, "out": checked_outs}
    if "where" in kwargs:
        kwargs = {**kwargs, "where": unwrap(kwargs["where"])}
    if "axis" in kwargs:
        check_host_params(where, (), {"axis": kwargs["axis"]}, StrictArray)
    result = run_with_scalar_allowed(getattr(ufunc, method), *checked, **kwargs)
    results = result if isinstance(result, tuple) else (result,)
    final = tuple(
        outs[k] if outs is not None and outs[k] is not None else wrap(r) for k, r in enumerate(results)
    )
    return final if isinstance(result, tuple) else final[0]


def unwrap(value: Any) -> Any:
    """Replace StrictArrays by their data, through tuples and lists."""
    if isinstance(value, StrictArray):
        return value._data
    if isinstance(value, (tuple, list)):
        items = [unwrap(v) for v in value]
        if hasattr(value, "_fields"):  # namedtuple
            return type(value)(*items)
        return type(value)(items)
    return value


def wrap(value: Any, name: str = "") -> Any:
    """Move NumPy results to the device: arrays and NumPy scalars become StrictArrays.

    A NumPy scalar becomes a 0-d StrictArray, as CuPy returns 0-d device
    arrays where NumPy returns scalars. Python ints pass through (they are
    shapes and sizes); Python bools from the data comparisons in
    ``DATA_SCALAR_FUNCTIONS`` become 0-d arrays.
    """
    if isinstance(value, np.ndarray):
        return StrictArray(value if type(value) is np.ndarray else value.view(np.ndarray))
    if isinstance(value, np.generic):
        return StrictArray(np.asarray(value))
    if isinstance(value, (tuple, list)):
        items = [wrap(v, name) for v in value]
        if hasattr(value, "_fields"):  # namedtuple results: SlogdetResult, EighResult, ...
            return type(value)(*items)
        return type(value)(items)
    if name in DATA_SCALAR_FUNCTIONS and isinstance(value, _PYTHON_SCALARS):
        return StrictArray(np.asarray(value))
    return value


def _contains_strict(value: Any) -> bool:
    if isinstance(value, StrictArray):
        return True
    if isinstance(value, (tuple, list)):
        return any(_contains_strict(v) for v in value)
    return False


def call_numpy(func: Callable[..., Any], name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run a NumPy function "on the device": check, unwrap, run, re-wrap.

    The checks are the ones a GPU imposes on the *caller* (data-dependent
    output sizes, device scalars in host-integer parameters); NumPy's own
    implementation then runs with scalar access allowed, since on a GPU it
    would be device code.
    """
    check_data_dependent(name, args, kwargs)
    check_host_params(name, args, kwargs, StrictArray)
    if "device" in kwargs and isinstance(kwargs["device"], str) and kwargs["device"] == STRICT_DEVICE:
        # `xp.zeros(n, device=x.device)`, the array API idiom: NumPy only knows "cpu".
        kwargs = {**kwargs, "device": None}
    result = run_with_scalar_allowed(func, *unwrap(args), **{k: unwrap(v) for k, v in kwargs.items()})
    out = kwargs.get("out")
    if out is not None and _contains_strict(out):
        return out
    return wrap(result, name)


def strict(x: Any) -> StrictArray:
    """Copy ``x`` to the strict "device" (like ``cupy.asarray(x)``).

    A StrictArray is returned as is; anything else goes through
    ``np.asarray`` and is copied, so later writes on either side stay
    separate, as they would between host and GPU memory.
    """
    if isinstance(x, StrictArray):
        return x
    return StrictArray(np.array(x, copy=True))


def to_host(x: Any) -> np.ndarray:
    """Copy ``x`` back to a host ``numpy.ndarray``; always allowed.

    The explicit, intended way out (``cupy.asnumpy``, ``tensor.cpu()``).
    NumPy arrays, CuPy arrays, PyTorch tensors (detached; strict CPU tensors included)
    and Python scalars are accepted too, so tests can call it on whatever a
    rule returned.
    """
    if isinstance(x, StrictArray):
        return x._data.copy()
    if type(x).__module__.startswith("cupy") and hasattr(x, "get"):
        return x.get()  # CuPy refuses np.array(x): the copy is asked for by name
    if type(x).__module__.startswith("torch") and "torch" in sys.modules:
        from ._torch_strict import to_host_tensor

        return to_host_tensor(x)
    return np.array(x, copy=True)
