"""scalarlint's runtime: scalar-access scopes and a strict array for tests.

Import-light on purpose (NumPy only; PyTorch or JAX only when the user imported it): rule authors import it in library code,
so it must not pull in the checker (libcst, astroid, click).

* :func:`allow_scalar` - declare intended single-element access (GPUArrays'
  ``@allowscalar``); a context manager and decorator, per thread and task.
* :func:`disallow_scalar` - the opposite policy (``CUDA.allowscalar(false)``),
  which also arms PyTorch's and CuPy's own sync detectors and JAX's
  device-to-host transfer guard where present (JAX's is inert on its CPU
  backend, where no copy to the host happens) and,
  with PyTorch imported, makes CPU tensors strict (the strict array's
  semantics through a ``torch.overrides.TorchFunctionMode``; torch is never
  imported here unless the user has imported it or asks for it).
* :class:`StrictArray`, :func:`strict`, :func:`to_host` - a CPU array with GPU
  semantics: what would sync or run per element on CuPy raises
  :class:`ScalarIndexingError` here, so laptops and CI catch it.
* :func:`index_add` - a scatter-add that sums repeated indices, on NumPy,
  the strict array, CuPy, PyTorch, JAX and any array-API library.
* :data:`strict_namespace` - what ``array_api_compat.array_namespace(x)``
  returns for a StrictArray: the NumPy API, with results on the strict device.

Known escape hatches (ways a value reaches the host without an error). The
static checker flags the public ones inside rules:

* :func:`to_host` - the intended, explicit way; always allowed.
* ``x._data`` - the wrapped ndarray; private, for scalarlint itself.
* ``x.flat`` - NumPy's host iterator, but only inside ``allow_scalar()``
  (outside it raises). ``x.view(np.ndarray)`` raises; ``np.asarray(x)``,
  ``np.array(x)`` and ``np.testing`` helpers raise (``__array__`` refuses,
  as CuPy's does), so they are not escape hatches here, but they are on
  plain NumPy input, which is why the checker still reports them.
* NumPy functions that return Python values rather than arrays
  (``np.ndim``, ``np.shape``, ``np.iscomplexobj``) return them as host
  values; they are metadata on a GPU too. ``np.allclose``,
  ``np.array_equal`` and ``np.array_equiv`` return 0-d StrictArrays, as on
  CuPy.
* A 0-d StrictArray passed to a host-integer parameter (shape, axis, count)
  of a NumPy function is detected for the common functions only
  (``scalarlint.runtime._rules``); elsewhere it is unwrapped silently.
* Ufuncs refuse host ndarrays mixed with StrictArrays (CuPy raises
  ``TypeError`` there); NumPy functions accept them (CuPy is inconsistent).
"""

from __future__ import annotations

from ._context import allow_scalar, scalar_allowed
from ._errors import ScalarIndexingError
from ._namespace import StrictNamespace, strict_namespace
from ._policy import disallow_scalar
from ._scatter import index_add
from ._strict import StrictArray, strict, to_host

__all__ = [
    "ScalarIndexingError",
    "StrictArray",
    "StrictNamespace",
    "allow_scalar",
    "disallow_scalar",
    "index_add",
    "scalar_allowed",
    "strict",
    "strict_namespace",
    "to_host",
]
