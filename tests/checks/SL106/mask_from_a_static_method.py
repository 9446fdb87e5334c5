"""SL106: a mask compared from what a static or class method of the module returns
(`Node.rates(x)`, `cls.rates(x)`): the inference follows the method's return as it follows a
module function's, so the comparison is a boolean device array and indexing with it is a
data-dependent selection."""
import torch


class Node:
    @staticmethod
    def rates(data, tau):
        weight = torch.tensor([1.0, 0.5]).to(data.device)
        return (weight * data).sum(dim=1) / weight.sum()

    @classmethod
    def clipped(cls, data):
        return cls.rates(data, 2.0).clamp(min=0)

    class Function(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            rate = Node.rates(x, 2.0)
            inside = (rate > 0) & (rate < 1)
            out = torch.zeros_like(grad)
            out[inside] = grad[inside] / 2  # expect: SL106 SL106
            hot = Node.clipped(x) > 0.5
            return out * hot.sum()
