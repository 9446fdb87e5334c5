"""SL101: elements read at an index converted to a host int, in a torch.autograd.Function."""
import torch


class MaxAbs(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.abs().max()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        i = int(torch.argmax(x.abs()))
        grad = torch.zeros_like(x)
        grad[i] = grad_output * torch.sign(x[i])  # expect: SL102 SL101
        picked = x[torch.argmax(x)]  # a 0-d device index: a gather, not a finding
        return grad + picked * 0
