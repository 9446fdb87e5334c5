"""SL105: the settings a jax `fwd` keeps in its residuals stay host values in the `bwd` when
the residual tuple is bound to a name first (`res = (x, L, sampling); return y, res`): the
`bwd` indexing a Python list with one of them is no sync. An array kept there is still an
array: its element in a test is a finding."""
import jax
import jax.numpy as jnp
import numpy as np

SAMPLINGS = ["MW", "MWSS", "DH", "GL"]


@jax.custom_vjp
def transform(x, L: int, sampling: int = 0):
    return jnp.asarray(x) * L


def transform_fwd(x, L: int, sampling: int = 0):
    res = (x, L, sampling)
    return transform(x, L, sampling), res


def transform_bwd(res, g):
    x, L, sampling = res
    method = SAMPLINGS[sampling]
    if x[0] > 0:  # expect: SL101 SL105
        g = g * 2
    return (g * L, None, None) if method else (g, None, None)


transform.defvjp(transform_fwd, transform_bwd)
