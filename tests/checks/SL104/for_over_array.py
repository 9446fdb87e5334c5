"""SL104: iterating an array in Python (for, enumerate, comprehensions, unpacking), in a torch.autograd.Function."""
import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        doubled = torch.stack([2 * v for v in x])  # expect: SL104
        for k, v in enumerate(grad_output):  # expect: SL104
            doubled = doubled * 1.0
        parts = [*grad_output]  # expect: SL104
        for t in ctx.saved_tensors:  # a tuple of saved tensors: not a finding
            doubled = doubled + 0 * t
        for axis in range(x.dim()):  # a loop over axes: not a finding
            doubled = doubled + 0 * axis
        return doubled * grad_output + 0 * len(parts)
