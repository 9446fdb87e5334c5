"""SL105 in JAX: a traced endpoint of `jnp.linspace` stays on the device; a count does not.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def resample(x, t):
    return x


def resample_fwd(x, t):
    return x, (x, t)


def resample_bwd(res, g):
    x, t = res
    ts = t.reshape(-1)
    dt = ts[1] - ts[0]  # expect: SL101
    grid = jnp.linspace(0.0, dt, 8)
    count = ts[-1]  # expect: SL101
    steps = jnp.linspace(0.0, 1.0, count)  # expect: SL105
    return g * grid.sum() * steps.sum(), None


resample.defvjp(resample_fwd, resample_bwd)
