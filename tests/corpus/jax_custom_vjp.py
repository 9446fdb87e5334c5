"""jax.custom_vjp: the bwd function gets residuals (a tuple) and the cotangent."""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def clip_norm(x):
    return x / jnp.linalg.norm(x)


def clip_norm_fwd(x):
    n = jnp.linalg.norm(x)
    return x / n, (x, n)


def clip_norm_bwd(res, g):
    x, n = res
    first = res[0]  # residual tuple: not a finding
    k = x.shape[0]
    top = g[k - 1]  # expect: SL101
    if n == 0:  # SL107 is opt-in: not reported by default
        return (g,)
    return (g / n - x * jnp.vdot(x, g) / n**3 + first * 0 + top,)


clip_norm.defvjp(clip_norm_fwd, clip_norm_bwd)
