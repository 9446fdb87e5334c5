"""NumPy beside a device framework: host data, and the conversions that lead to it.

In array-generic code (``xp = get_array_module(x)``, chainer, thinc, MyGrad) NumPy is the CPU
path of code that also runs on CuPy, so its arrays are device-capable. In a module written for
one device framework (it imports torch, jax, tensorflow, paddle, mindspore, oneflow, megengine
or mxnet and never asks for a generic namespace), NumPy arrays are host data by construction,
and ``np.array(x)`` / ``np.asarray(x)`` of that framework's array copies it to the host
(s2fft's ``np.array(flm)`` before a C call inside a ``custom_vjp``).
"""

from __future__ import annotations

import libcst as cst

from scalarlint.analysis.tree import walk

DEVICE_FRAMEWORKS = frozenset({"torch", "jax", "tensorflow", "paddle", "mindspore", "oneflow", "megengine", "mxnet"})
GENERIC_NAMESPACES = frozenset({"get_array_module", "array_namespace", "get_namespace", "array_module", "xp"})
HOST_COPIES = frozenset({"array", "asarray", "ascontiguousarray", "asanyarray"})
# frameworks whose arrays give NumPy their data through ``__array__`` (any ``np.f(t)`` copies t)
ARRAY_PROTOCOL_FRAMEWORKS = frozenset({"torch", "jax", "tensorflow", "paddle", "mindspore", "oneflow"})


def names_a_generic_namespace(module: cst.Module) -> bool:
    """The module asks for a generic array namespace (``get_array_module``, ``xp``): NumPy there
    is the CPU path of array-generic code, not the host. (Whether the module imports a device
    framework at all is ``imports.imported_roots``' question, asked first.)"""
    return any(isinstance(node, cst.Name) and node.value in GENERIC_NAMESPACES for node in walk(module))

