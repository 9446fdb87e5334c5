"""JAX: ``f.defvjp(fwd, bwd)`` and ``@f.defjvp`` on ``jax.custom_vjp``/``custom_jvp`` functions."""

from scalarlint.analysis.frameworks.base import Framework

FRAMEWORK = Framework(
    name="jax",
    registration_methods=frozenset({"defvjp", "defjvp", "defjvps", "defvjps"}),
)
