"""SL103: a while loop stepping an index until an element passes the test, in a jax custom_vjp bwd."""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def first_positive(v):
    return v[jnp.argmax(v > 0)]


def first_positive_fwd(v):
    return first_positive(v), (v,)


def first_positive_bwd(res, g):
    (v,) = res
    i = 0
    while v[i] <= 0:  # expect: SL103 SL101
        i += 1
    count = 0
    while count < 3:  # a host counter: not a finding
        count += 1
    return (jnp.zeros_like(v).at[i].set(g),)


first_positive.defvjp(first_positive_fwd, first_positive_bwd)
