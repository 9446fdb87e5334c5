"""SL105: ``.cpu()`` of values the inference cannot type, in a torch Function's backward.

Activations kept on a module and moved back to the CPU one by one are device tensors: only
device data has ``.cpu()``, so each call is a copy to the host (a sync and a transfer). Moving
them to the device (``.cuda()``) waits for nothing on the host and is left alone.
"""
import torch


class OffloadedShard(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, model):
        ctx.model = model
        return x

    @staticmethod
    def backward(ctx, grad):
        model = ctx.model
        kept = [a.cpu() for a in list(model.activations[0])]  # expect: SL105
        model.activations[0] = tuple(kept)
        model.activations[-1] = tuple([a.cuda() for a in list(model.activations[-1])])
        return grad, None
