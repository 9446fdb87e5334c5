"""SL105: NumPy's converter mapped over every leaf of a pytree in a jax custom_vjp.

``tree_map(onp.asarray, tree)`` copies each device array of the tree to the host, one transfer
per leaf. Mapping jax's own converter (``jnp.asarray``) keeps the leaves on the device.
"""
import jax
import jax.numpy as jnp
import numpy as onp
from jax.tree_util import tree_map


@jax.custom_vjp
def host_loss(params):
    return jnp.sum(params)


def host_loss_fwd(params):
    host = tree_map(onp.asarray, params)  # expect: SL105
    return host_loss(params), (host,)


def host_loss_bwd(res, g):
    (host,) = res
    kept = jax.tree.map(jnp.asarray, host)
    return (tree_map(lambda leaf: g * jnp.ones_like(leaf), kept),)


host_loss.defvjp(host_loss_fwd, host_loss_bwd)
