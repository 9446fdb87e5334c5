"""JAX: ``f.defvjp(fwd, bwd)`` and ``@f.defjvp`` on ``jax.custom_vjp``/``custom_jvp`` functions;
a custom ``Primitive``'s rules registered with ``ad.deflinear(p, transpose)``, ``ad.defjvp(p, ...)``
and its forward with ``p.def_impl(impl)`` (the Python that runs when the primitive is applied).
Arrays reach the host through ``jax.device_get`` and ``np.asarray``; ``jax.pure_callback`` and
``io_callback`` run Python on host copies of their arguments (a sync each call), and so do the
older ``host_callback.id_tap`` / ``id_print``."""

from scalarlint.analysis.frameworks.base import Framework

FRAMEWORK = Framework(
    name="jax",
    layer_bases=("flax.linen.Module", "flax.nnx.Module", "haiku.Module", "equinox.Module"),
    registration_methods=frozenset({"defvjp", "defjvp", "defjvps", "defvjps", "deflinear", "deflinear2",
                                    "defbilinear", "defjvp2", "def_impl"}),
    array_modules=("jnp", "jax.numpy", "lax", "jax.lax"),
    host_functions=frozenset({"device_get"}),
    host_callbacks=frozenset({"pure_callback", "io_callback", "id_tap", "id_print"}),
    converts_onto_device=True,
    numpy_like_imports={"jax.numpy": "jnp"},
)
