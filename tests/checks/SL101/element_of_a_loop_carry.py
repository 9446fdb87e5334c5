"""SL101: an element of an array carried through ``jax.lax.fori_loop``, in a custom_vjp bwd.

A lax loop hands back a value shaped like its initial carry: ``_, _, f_vals`` unpacked from
``fori_loop(0, m, body, (a, b, f_vals_init))`` is the one-axis ``f_vals_init``, so ``f_vals[0]``
is one element; ``total`` carried alone keeps the rank of ``jnp.zeros((m, m))`` and
``total[0]`` is a row.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def bessel_ratio(x):
    return x


def bessel_ratio_fwd(x):
    return x, (x,)


def bessel_ratio_bwd(res, g):
    (x,) = res
    m = 8

    def body(i, state):
        a, b, vals = state
        return b, a + b * g, vals.at[i].set(a)

    f_vals_init = jnp.zeros(m + 1)
    _, _, f_vals = jax.lax.fori_loop(0, m, body, (g, g, f_vals_init))
    norm = f_vals[0] + 2.0 * jnp.sum(f_vals[2::2])  # expect: SL101
    total = jax.lax.fori_loop(0, m, lambda i, t: t + i, jnp.zeros((m, m)))
    return (x * norm + total[0],)


bessel_ratio.defvjp(bessel_ratio_fwd, bessel_ratio_bwd)
