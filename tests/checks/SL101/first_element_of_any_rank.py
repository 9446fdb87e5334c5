"""SL101 and SL102: one int per axis of the array itself, ``x[x.ndim * (0,)]``.

A literal one-int tuple repeated ``x.ndim`` times indexes every axis of ``x`` whatever its
rank: the first element, read or (through JAX's ``.at``) written. A tuple repeated by another
array's ``ndim`` says nothing about ``x``'s axes.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def first_token(x, other):
    return x


def first_token_fwd(x, other):
    return x, (x, other)


def first_token_bwd(res, g):
    x, other = res
    token = x[x.ndim * (0,)]  # expect: SL101
    again = x[(0,) * x.ndim]  # expect: SL101
    unclear = x[other.ndim * (0,)]
    g = g.at[g.ndim * (0,)].set(token + again)  # expect: SL102
    return g * unclear, other


first_token.defvjp(first_token_fwd, first_token_bwd)
