"""SL101: element reads inside a loop over the data, in an autograd defvjp vjp maker."""
import autograd.numpy as anp
from autograd.extend import defvjp, primitive


@primitive
def clipped_sum(x):
    return anp.sum(anp.clip(x, -1.0, 1.0))


def make_grad_clipped_sum(ans, x):
    def vjp(g):
        out = anp.zeros_like(x)
        for i in range(len(x)):  # expect: SL104
            if abs(x[i]) < 1.0:  # expect: SL101 SL105
                out[i] = g  # expect: SL102
        for axis in range(x.ndim):  # a loop over axes: not a finding
            pass
        return out

    return vjp


defvjp(clipped_sum, make_grad_clipped_sum)
