"""The frameworks whose conventions the checker knows; one module each."""

from __future__ import annotations

from scalarlint.analysis.frameworks import autograd, chainer, generic, jax, mygrad, thinc, torch
from scalarlint.analysis.frameworks.base import ClassConvention, Framework

FRAMEWORKS: tuple[Framework, ...] = (
    chainer.FRAMEWORK,
    torch.FRAMEWORK,
    autograd.FRAMEWORK,
    jax.FRAMEWORK,
    thinc.FRAMEWORK,
    mygrad.FRAMEWORK,
    generic.FRAMEWORK,
)

CLASS_CONVENTIONS: tuple[ClassConvention, ...] = tuple(c for f in FRAMEWORKS for c in f.classes)
REGISTRATIONS: frozenset[str] = frozenset().union(*(f.registrations for f in FRAMEWORKS))
REGISTRATION_METHODS: frozenset[str] = frozenset().union(*(f.registration_methods for f in FRAMEWORKS))
FUNCTION_LIKE = generic.FUNCTION_LIKE
RECEIVERS: dict[str, tuple[str, ...]] = {k: v for f in FRAMEWORKS for k, v in f.receivers.items()}
CONSTRUCTORS: dict[str, int | None] = {k: v for f in FRAMEWORKS for k, v in f.constructors.items()}
RETURNS_CLOSURE_RULES: bool = any(f.returns_closure_rules for f in FRAMEWORKS)
FUNCTION_BASES: bool = any(f.function_bases for f in FRAMEWORKS)

__all__ = ["CLASS_CONVENTIONS", "CONSTRUCTORS", "FUNCTION_BASES", "RETURNS_CLOSURE_RULES", "FRAMEWORKS", "FUNCTION_LIKE", "REGISTRATIONS", "RECEIVERS", "REGISTRATION_METHODS", "ClassConvention", "Framework"]
