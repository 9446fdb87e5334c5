"""SL104: the index arrays of `where`/`nonzero` unpacked in turn.

`(r,), (l,) = jnp.where(mask, size=1)` unpacks the tuple of index arrays and then each array:
reading its entries one by one on the host. Unpacking the tuple alone (`(rows,) =
jnp.nonzero(mask)`) keeps the arrays; residuals unpacked in turn (`(a, b), c = res`) are a
nested tuple of the rule's own making.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def clip_edges(x, mask):
    return x


def clip_edges_fwd(x, mask):
    return x, ((x, mask), x)


def clip_edges_bwd(res, g):
    (x, mask), first = res
    (r,), (l,) = jnp.where(mask, size=1)  # expect: SL104
    (rows,) = jnp.nonzero(mask, size=2)
    return g.at[rows].set(0.0) * x * r * l * first, None


clip_edges.defvjp(clip_edges_fwd, clip_edges_bwd)
