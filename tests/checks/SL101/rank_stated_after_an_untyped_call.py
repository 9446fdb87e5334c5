"""SL101: a literal read of a value the inference cannot follow, under a stated rank.

``x, t_span = solver.sync(x, t_span)`` rebinds ``t_span`` to what a call returns, which the
inference cannot type; ``elif len(t_span.shape) == 1:`` says it is an array of one axis, so
``t_span[0]`` inside that branch is one element. Outside the branch nothing is stated.
"""
import torch


def odeint(f, x, t_span, solver):
    x, t_span = solver.sync(x, t_span)
    if len(t_span.shape) > 1:
        raise NotImplementedError("one time grid for all samples")
    elif len(t_span.shape) == 1:
        t = t_span[0]  # expect: SL101
        return f(t, x)
    return f(t_span[0], x)


class Flow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, t_span, f, solver):
        ctx.save_for_backward(x, t_span)
        ctx.f, ctx.solver = f, solver
        return x

    @staticmethod
    def backward(ctx, grad):
        x, t_span = ctx.saved_tensors
        return odeint(ctx.f, grad, t_span, ctx.solver), None, None, None
