"""HIPS autograd style: vjp makers registered with defvjp."""
import autograd.numpy as anp
from autograd.extend import defvjp, primitive


@primitive
def my_max(x):
    return anp.max(x)


@primitive
def my_first(x):
    return x[0]


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
defvjp(my_first, lambda ans, x: lambda g: anp.where(anp.arange(len(x)) == 0, g, 0.0))
defvjp(my_first, lambda ans, x: lambda g: sum(x) * g)  # expect: SL104


def unrelated(x):
    return x[len(x) - 1]  # not reached from any rule: not checked
