"""SL105: an order of axes that holds a number the forward saved in a tensor.

``perm = [...] + [dim]`` with ``dim`` one element: ``logits.permute(perm)`` asks every entry for
a host int, ``dim`` among them, a sync. An order of literal axes is host data and stays quiet.
"""
import torch


class SampleAlong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits, dim):
        ctx.save_for_backward(logits, torch.tensor(dim))
        return logits

    @staticmethod
    def backward(ctx, grad_output):
        logits, dim = ctx.saved_tensors
        perm = [i for i in range(logits.dim()) if i != dim] + [dim]  # expect: SL105
        s = logits.permute(perm)  # expect: SL105
        order = [1, 0]
        t = logits.permute(order)
        return grad_output * s.sum() * t.sum(), None
