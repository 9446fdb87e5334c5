"""SL101: an element read whose value is kept (bound to a name, returned), in a jax custom_vjp bwd."""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def scale_by_last(x):
    return x * x[-1:]


def scale_by_last_fwd(x):
    return x * x[-1:], (x,)


def scale_by_last_bwd(res, g):
    (x,) = res
    first = res[0]  # the residual tuple: not a finding
    k = x.shape[0] - 1
    last = x[k]  # expect: SL101
    rest = x[:k]  # a slice: not a finding
    return (g * last + jnp.vdot(g, x) * jnp.zeros_like(rest).sum() + first * 0,)


scale_by_last.defvjp(scale_by_last_fwd, scale_by_last_bwd)
