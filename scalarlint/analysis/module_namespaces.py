"""What the libraries a module uses decide about its calls and indices, worked out once per
module and only when a check first asks: whether NumPy is the host there (a module written for
one device framework), whether its indexing reads a 0-d index back to the host (torch), and
which library a call's head names."""

from __future__ import annotations

from typing import Mapping

import libcst as cst
from libcst.metadata import Scope

from scalarlint.analysis.frameworks import DEVICE_CONVERTING_MODULES, SCALAR_INDEX_SYNC_MODULES
from scalarlint.analysis.host_numpy import ARRAY_PROTOCOL_FRAMEWORKS, DEVICE_FRAMEWORKS, names_a_generic_namespace
from scalarlint.analysis.imports import call_head, dotted_head, imported_roots, qualified_names


class ModuleNamespaces:
    def __init__(self, module: cst.Module | None, scopes: Mapping[cst.CSTNode, Scope | None]) -> None:
        self._module = module
        self._scopes = scopes
        self._device_module: bool | None = None
        self._roots: frozenset[str] | None = None

    def _head_names(self, call: cst.Call) -> frozenset[str]:
        head = call_head(call)
        return qualified_names(head, self._scopes.get(head))

    def numpy_call(self, call: cst.Call) -> bool:
        """``np.f(...)``, ``numpy.f(...)``: the code names NumPy itself (not a generic ``xp``)."""
        return "numpy" in self._head_names(call)

    def host_numpy_call(self, call: cst.Call) -> bool:
        """A NumPy call in a module written for one device framework (``host_numpy``)."""
        return self._is_device_module() and self.numpy_call(call)

    def host_numpy_function(self, function: cst.BaseExpression) -> bool:
        """``onp.asarray`` handed over as a function (``tree_map(onp.asarray, tree)``), in a
        module written for one device framework: NumPy's function, run on the host."""
        head = dotted_head(function)
        return isinstance(function, cst.Attribute) and self._is_device_module() and "numpy" in qualified_names(head, self._scopes.get(head))

    def _is_device_module(self) -> bool:
        if self._device_module is None:
            # the imports first (read once for every question): most modules import no device
            # framework, and then the whole-module walk for a generic namespace is not needed
            device = bool(self._imported_roots() & DEVICE_FRAMEWORKS)
            self._device_module = device and self._module is not None and not names_a_generic_namespace(self._module)
        return self._device_module

    def device_namespace_call(self, call: cst.Call) -> bool:
        """``torch.f(...)``, ``jnp.f(...)``, ``tf.f(...)``: a device framework's namespace, whose
        functions return its arrays even for Python numbers (NumPy's return host scalars)."""
        return any(name.split(".", 1)[0] in DEVICE_FRAMEWORKS for name in self._head_names(call))

    def converts_onto_device(self, call: cst.Call) -> bool:
        """``jnp.array(result)``: a namespace whose conversion puts a host value on the device
        (``frameworks.DEVICE_CONVERTING_MODULES``)."""
        return not DEVICE_CONVERTING_MODULES.isdisjoint(self._head_names(call))

    def index_reads_host(self) -> bool:
        """The module imports a framework whose indexing copies a 0-d integer index to the host
        (``frameworks.SCALAR_INDEX_SYNC_MODULES``: torch)."""
        return bool(self._imported_roots() & SCALAR_INDEX_SYNC_MODULES)

    def _imported_roots(self) -> frozenset[str]:
        """The top-level packages the module imports, read once (a walk of the whole module)."""
        if self._roots is None:
            self._roots = imported_roots(self._module) if self._module is not None else frozenset()
        return self._roots

    def numpy_reads_tensors(self, call: cst.Call) -> bool:
        """A NumPy call in a module written for a framework whose tensors hand NumPy their data
        (``__array__``: torch, TensorFlow, JAX, Paddle, ...): ``np.conj(t)`` copies ``t`` to the host.
        Not MXNet, whose NumPy code runs on ``.asnumpy()`` copies."""
        if not self.host_numpy_call(call):
            return False
        roots = self._imported_roots()
        return bool(roots & ARRAY_PROTOCOL_FRAMEWORKS) and "mxnet" not in roots
