"""The frameworks whose conventions the checker knows; one module each."""

from __future__ import annotations

from scalarlint.analysis.frameworks import (
    autograd,
    chainer,
    generic,
    jax,
    megengine,
    mindspore,
    mxnet,
    mygrad,
    oneflow,
    paddle,
    pytensor,
    tensorflow,
    thinc,
    torch,
)
from scalarlint.analysis.frameworks.base import ClassConvention, Framework

FRAMEWORKS: tuple[Framework, ...] = (
    chainer.FRAMEWORK,
    torch.FRAMEWORK,
    autograd.FRAMEWORK,
    jax.FRAMEWORK,
    thinc.FRAMEWORK,
    mygrad.FRAMEWORK,
    tensorflow.FRAMEWORK,
    paddle.FRAMEWORK,
    mxnet.FRAMEWORK,
    oneflow.FRAMEWORK,
    megengine.FRAMEWORK,
    mindspore.FRAMEWORK,
    pytensor.FRAMEWORK,
    generic.FRAMEWORK,
)


def _union(field: str) -> frozenset[str]:
    return frozenset().union(*(getattr(f, field) for f in FRAMEWORKS))


CLASS_CONVENTIONS: tuple[ClassConvention, ...] = tuple(c for f in FRAMEWORKS for c in f.classes)
REGISTRATIONS: frozenset[str] = _union("registrations")
REGISTRATION_METHODS: frozenset[str] = _union("registration_methods")
RULE_DECORATORS: frozenset[str] = _union("rule_decorators")
SAVED_METHODS: frozenset[str] = _union("saved_methods")
HOST_METHODS: frozenset[str] = _union("host_methods")
ELEMENT_METHODS: frozenset[str] = _union("element_methods")
HOST_FUNCTIONS: frozenset[str] = _union("host_functions")
HOST_CALLBACKS: frozenset[str] = _union("host_callbacks")
RULE_CONTEXTS: frozenset[str] = _union("rule_contexts")
# NumPy-like namespaces by import path and their conventional names (``Framework.numpy_like_imports``).
NUMPY_LIKE_IMPORTS: dict[str, str] = {k: v for f in FRAMEWORKS for k, v in f.numpy_like_imports.items()}
# Every name that holds an array namespace: the frameworks' own and both names of each NumPy-like import.
ARRAY_MODULES: tuple[str, ...] = tuple(dict.fromkeys(
    name for f in FRAMEWORKS for name in (*f.array_modules, *(n for module, alias in f.numpy_like_imports.items() for n in (alias, module)))
))
LAYER_BASES: tuple[str, ...] = tuple(b for f in FRAMEWORKS for b in f.layer_bases)
FUNCTION_LIKE = generic.FUNCTION_LIKE
STRUCTURAL = generic.STRUCTURAL
RECEIVERS: dict[str, tuple[str, ...]] = {k: v for f in FRAMEWORKS for k, v in f.receivers.items()}
CONSTRUCTORS: dict[str, int | None] = {k: v for f in FRAMEWORKS for k, v in f.constructors.items()}
# Array modules whose indexing copies a 0-d integer index to the host (``torch``).
SCALAR_INDEX_SYNC_MODULES: frozenset[str] = frozenset(m for f in FRAMEWORKS if f.index_reads_scalar_arrays for m in f.array_modules)
# Array modules whose ``array``/``asarray`` put a host value on the device (``jax.numpy``).
DEVICE_CONVERTING_MODULES: frozenset[str] = frozenset(m for f in FRAMEWORKS if f.converts_onto_device for m in f.array_modules)
RETURNS_CLOSURE_RULES: bool = any(f.returns_closure_rules for f in FRAMEWORKS)
FUNCTION_BASES: bool = any(f.function_bases for f in FRAMEWORKS)

__all__ = [
    "ARRAY_MODULES", "CLASS_CONVENTIONS", "CONSTRUCTORS", "DEVICE_CONVERTING_MODULES", "ELEMENT_METHODS", "FUNCTION_BASES", "FRAMEWORKS", "NUMPY_LIKE_IMPORTS",
    "FUNCTION_LIKE", "HOST_CALLBACKS", "HOST_FUNCTIONS", "HOST_METHODS", "REGISTRATIONS", "RECEIVERS",
    "REGISTRATION_METHODS", "RETURNS_CLOSURE_RULES", "RULE_CONTEXTS", "RULE_DECORATORS", "SAVED_METHODS", "STRUCTURAL",
    "ClassConvention", "Framework",
]
