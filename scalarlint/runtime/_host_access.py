"""The ways a StrictArray's values reach the host, each refused outside ``allow_scalar()``.

On a GPU, ``bool(x)``, ``int(x)``, ``float(x)``, ``x.item()``, ``x.tolist()`` or
``f"{x:.3f}"`` copy a value to the host and wait for the device (a sync). ``HostAccess``
gathers these conversions so that one place says which are refused, and with which message;
``StrictArray`` inherits it. Implicit conversion to a host ndarray (``__array__``) is refused
even inside ``allow_scalar()``, as CuPy refuses it.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ._context import scalar_allowed
from ._errors import ScalarIndexingError, scalar_error
from ._report import refuse

__all__ = ["HostAccess"]


class HostAccess:
    """Host conversions of an array whose device data is the ndarray ``_data``."""

    __slots__ = ()
    _data: np.ndarray

    def _require_scalar(self, operation: str) -> None:
        if not scalar_allowed():
            refuse(scalar_error(operation, self._data.shape, "conversion"))

    def __bool__(self) -> bool:
        self._require_scalar("bool() (an `if`, `while`, `and`/`or` on an array)")
        return bool(self._data)

    def __int__(self) -> int:
        self._require_scalar("int()")
        return int(self._data)

    def __float__(self) -> float:
        self._require_scalar("float()")
        return float(self._data)

    def __complex__(self) -> complex:
        self._require_scalar("complex()")
        return complex(self._data)

    def __index__(self) -> int:
        self._require_scalar("int() via __index__ (a device scalar used as a host integer)")
        return operator.index(self._data)

    def item(self, *args: Any) -> Any:
        self._require_scalar(".item()")
        return self._data.item(*args)

    def tolist(self) -> Any:
        self._require_scalar(".tolist()")
        return self._data.tolist()

    def __format__(self, spec: str) -> str:
        # An empty spec is str(x) (f"{x}" in an error message): kept working
        # like repr. A format spec (f"{x:.3f}") converts the value: a sync.
        if not spec:
            return str(self)
        self._require_scalar(f"format() with spec {spec!r}")
        return format(self._data, spec)

    @property
    def flat(self) -> Any:
        """NumPy's flat iterator over *host* values; only inside ``allow_scalar()``."""
        if not scalar_allowed():
            refuse(scalar_error(".flat (element-wise access)", self._data.shape, "iteration"))
        return self._data.flat

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # CuPy refuses implicit conversion too (TypeError, "use .get()"); this
        # is what keeps np.asarray(x) and np.array(x) from being escape hatches.
        # Refused even inside allow_scalar(); in record mode recorded, then converted.
        refuse(ScalarIndexingError(
            f"Implicit conversion of a StrictArray of shape {self._data.shape} to a "
            "host numpy array (np.asarray/np.array/np.testing on the array) is "
            "disallowed: on a GPU it is a device-to-host copy and sync. Call "
            "scalarlint.runtime.to_host(x) explicitly (CuPy: x.get(), "
            "PyTorch: x.cpu()), or pass the array to NumPy functions, which keep it "
            "on the device.",
            operation="__array__",
            shape=self._data.shape,
            kind="conversion",
        ))
        return self._data if dtype is None else self._data.astype(dtype)
