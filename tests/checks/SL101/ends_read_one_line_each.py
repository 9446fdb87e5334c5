"""SL101: the two ends of an interval read one statement each, on adjacent lines.

``lo = interval[0] == -inf`` followed by ``hi = interval[-1] == inf`` reads the first and the
last value of the same array, as ``a, b = interval[0], interval[-1]`` does in one line. Reads
of the two ends further apart prove nothing (``rows[0]`` here, ``rows[-1]`` three lines on).
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def tail_weight(interval, rows):
    return jnp.sum(rows)


def tail_weight_fwd(interval, rows):
    return tail_weight(interval, rows), (interval, rows)


def tail_weight_bwd(res, g):
    interval, rows = res
    unbounded_lo = interval[0] == -jnp.inf  # expect: SL101
    unbounded_hi = interval[-1] == jnp.inf  # expect: SL101
    first = rows[0]
    scale = jnp.where(unbounded_lo | unbounded_hi, 0.0, g)
    shift = scale * 2.0
    last = rows[-1]
    return scale * interval, shift * (first + last)


tail_weight.defvjp(tail_weight_fwd, tail_weight_bwd)
