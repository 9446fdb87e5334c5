"""SL106: jax's nonzero without `size=` (a data-dependent shape) next to the fixed-size form, in a custom_vjp bwd."""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def masked_scale(x):
    return x * 2.0


def masked_scale_fwd(x):
    return x * 2.0, (x,)


def masked_scale_bwd(res, g):
    (x,) = res
    (idx,) = jnp.nonzero(x > 0)  # expect: SL106
    (fixed,) = jnp.nonzero(x > 0, size=x.shape[0])  # a fixed size: not a finding
    picked = g[x > 0]  # expect: SL106
    return (2.0 * g + 0 * (idx.size + fixed.sum() + picked.sum()),)


masked_scale.defvjp(masked_scale_fwd, masked_scale_bwd)
