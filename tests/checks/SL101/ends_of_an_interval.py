"""SL101: literal reads whose rank the function shows in other ways.

``interval[0]`` alone could be the first row of a matrix; read together with ``interval[-1]``
in one statement it is the two ends of a grid or an interval, one value each. ``betas[0]`` in a
function that writes ``betas[idx(t, u)]`` as one element is one element too. ``rows[0]``
read alone, of an array nothing else says anything about, stays quiet.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def integrate(interval, values):
    return jnp.sum(values)


def integrate_fwd(interval, values):
    return integrate(interval, values), (interval, values)


def integrate_bwd(res, g):
    interval, rows = res
    a, b = interval[0], interval[-1]  # expect: SL101 SL101
    span = jnp.abs(interval[-1] - interval[0])  # expect: SL101 SL101
    first = rows[0]
    return g * span * first, g * (b - a)


integrate.defvjp(integrate_fwd, integrate_bwd)
