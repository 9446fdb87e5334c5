"""SL104: a loop over an array expression whose elements become ints, in a torch backward."""
import torch


class SplitSizes(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, sizes):
        ctx.save_for_backward(sizes)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        (sizes,) = ctx.saved_tensors
        shape = [grad.shape[0]]
        for size in sizes.flip(0):  # expect: SL104
            shape.append(int(size))  # expect: SL105
        return grad.reshape(shape) * 2, None
