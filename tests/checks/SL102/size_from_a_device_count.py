"""SL102: an array built with a size the device counted (`torch.empty(packs.sum())`: torch reads
the 0-d count back as one size) has one axis, so `segments[k] = r` writes one element. Building
it with a reduction's result is one sync, SL107's (opt-in)."""
import torch


class LoadBalance(torch.autograd.Function):
    @staticmethod
    def forward(ctx, sizes, seg_max):
        ctx.save_for_backward(sizes)
        return sizes

    @staticmethod
    def backward(ctx, grad):
        (sizes,) = ctx.saved_tensors
        packs = sizes // 4 + 1
        segments = torch.zeros(packs.sum(), dtype=sizes.dtype)  # one sync on a reduction: SL107's
        segments[0] = 1  # expect: SL102
        return grad * segments.sum(), None
