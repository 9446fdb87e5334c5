"""SL104: a ``while`` counter run up to an expression of a data length.

``while steps <= len(t_span) - 1:`` is the ``while`` form of ``for steps in range(...)`` over the
time grid: one trip per entry, reading ``t_span[steps + 1]`` on the host each time. A counter
run up to a literal (``tries < 3``) counts no data.
"""
import torch


class Integrate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, t_span):
        ctx.save_for_backward(x, t_span)
        return x

    @staticmethod
    def backward(ctx, grad):
        x, t_span = ctx.saved_tensors
        steps, tries = 1, 0
        dt = t_span[1] - t_span[0]  # expect: SL101
        while steps <= len(t_span) - 1:  # expect: SL104
            grad = grad - dt * x
            if steps < len(t_span) - 1:
                dt = t_span[steps + 1] - t_span[steps]  # expect: SL101
            steps += 1
        while tries < 3:
            tries += 1
        return grad, None
