"""SL104: unpacking a name the inference holds for a one-axis device array: a row a loop
takes from a matrix, or a parameter a `vectorize` signature gives one core axis
(`(q),(q)->(q)`: the four elements of a quaternion). Each target is one element read on the
host. A parameter with no rank evidence may be a tuple, and a `()` core part is a 0-d value:
neither is a finding."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import chainer


@partial(jnp.vectorize, signature="(q),(q)->(q)")
def quaternion_multiply(lhs, rhs):
    wl, xl, yl, zl = lhs  # expect: SL104
    wr, xr, yr, zr = rhs  # expect: SL104
    return jnp.array([wl * wr - xl * xr - yl * yr - zl * zr, wl * xr + xl * wr, wl * yr + yl * wr, wl * zr + zl * wr])


@partial(jnp.vectorize, signature="(),()->()")
def pair(a, b):
    return a * b


@jax.custom_jvp
def rotate(q, v):
    return quaternion_multiply(q, v)


@rotate.defjvp
def rotate_jvp(primals, tangents):
    q, v = primals
    dq, dv = tangents
    bounds = pair(q, v)
    return rotate(q, v), quaternion_multiply(dq, v) + quaternion_multiply(q, dv)


class Interpolate(chainer.Function):
    def forward_cpu(self, inputs):
        points, grid = inputs
        n, _ = points.shape
        out = np.zeros((n,), dtype=np.float32)
        for i, point in enumerate(points):  # expect: SL104
            ix, iy, iz = point  # expect: SL104
            out[i] = ix + iy + iz
        return (out,)

    def backward_cpu(self, inputs, grad_outputs):
        gy, = grad_outputs
        return None, None
