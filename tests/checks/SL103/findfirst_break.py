"""SL103: findfirst written as a loop that breaks at the first match, in an autograd defvjp vjp maker."""
import autograd.numpy as anp
from autograd.extend import defvjp, primitive


@primitive
def my_max(x):
    return anp.max(x)


def make_grad_max(ans, x):
    def vjp(g):
        out = anp.zeros_like(x)
        for i in range(len(x)):  # expect: SL103
            if x[i] == ans:  # expect: SL101
                out[i] = g  # expect: SL102
                break
        return out

    return vjp


defvjp(my_max, make_grad_max)
