"""torch.autograd.Function backward methods."""
import torch
from torch.autograd import Function


class NormInf(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.abs().max()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        x0 = ctx.saved_tensors[0]  # a tuple of saved tensors: not a finding
        idx = int(torch.argmax(x.abs()))
        grad = torch.zeros_like(x)
        grad[idx] = torch.sign(x[idx]) * grad_output  # expect: SL102 SL101
        if ctx.needs_input_grad[0]:  # a tuple of bools: not a finding
            pass
        shape = x.shape[0]  # shape bookkeeping: not a finding
        return grad + x0 * 0 + shape


class Gather(torch.autograd.Function):
    @staticmethod
    def backward(ctx, *grad_outputs):
        g = grad_outputs[0]
        (idx,) = ctx.saved_tensors
        out = torch.zeros(10)
        out[idx] = g  # an index tensor: a scatter, not a finding
        total = 0
        for v in g.tolist():  # expect: SL105
            total += v
        return out, None


class NotARule:
    def backward(self, x):
        return x[0] + x[1]  # not an autograd Function: not checked
