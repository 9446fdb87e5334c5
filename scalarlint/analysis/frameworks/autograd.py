"""HIPS autograd: ``defvjp(primitive, maker, ...)`` and friends; every maker (a function or a
lambda, possibly returning a lambda) is a rule."""

from scalarlint.analysis.frameworks.base import Framework

FRAMEWORK = Framework(
    name="autograd",
    registrations=frozenset({"defvjp", "defjvp", "defvjp_argnum", "defjvp_argnum", "defvjps", "defjvps"}),
)
