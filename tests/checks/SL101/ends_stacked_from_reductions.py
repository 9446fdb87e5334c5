"""SL101: entries of a vector stacked from 0-d reductions, in a custom_vjp bwd.

``ends = jnp.stack([jnp.min(x), jnp.max(x)])`` stacks two 0-d values into a vector of two, so
``ends[0]`` and ``ends[1]`` are elements. Stacking two vectors makes a matrix: ``pair[0]`` is
a row.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def spread(x):
    return jnp.max(x) - jnp.min(x)


def spread_fwd(x):
    return spread(x), (x,)


def spread_bwd(res, g):
    (x,) = res
    x = jnp.ravel(x)
    ends = jnp.stack([jnp.min(x), jnp.max(x)])
    low = jnp.where(x == ends[0], -g, 0.0)  # expect: SL101
    high = jnp.where(x == ends[1], g, 0.0)  # expect: SL101
    pair = jnp.stack([low, high])
    return (pair[0] + pair[1],)


spread.defvjp(spread_fwd, spread_bwd)
