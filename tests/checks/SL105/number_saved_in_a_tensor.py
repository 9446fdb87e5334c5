"""SL105: a number the forward saved in a 0-d tensor, read back on the host in the backward.

``save_for_backward`` keeps tensors only, so a forward that needs a setting in its backward
wraps it (``torch.tensor(axis)``) or is handed one already wrapped. Testing it, converting it or
giving it as an axis reads its one element back: a sync each time. The saved array ``scores``
and a reduction of it are not such numbers.
"""
import torch


class PickAlong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, scores, axis):
        ctx.save_for_backward(scores, torch.tensor(axis))
        return scores.amax(dim=axis)

    @staticmethod
    def backward(ctx, grad):
        scores, axis = ctx.saved_tensors
        if axis == -1:  # expect: SL105
            picked = scores.softmax(-1)
        else:
            axis = axis if axis >= 0 else scores.dim() + axis  # expect: SL105
            order = [k for k in range(scores.dim()) if k != axis]  # expect: SL105
            picked = scores.permute(order + [axis]).softmax(-1)  # expect: SL105
        total = scores.sum()
        out = grad.unsqueeze(axis) * picked / total  # expect: SL105
        return out, None


class SumAlong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, axis):
        ctx.save_for_backward(w, axis)
        return w.sum(axis)

    @staticmethod
    def backward(ctx, g):
        w, axis = ctx.saved_tensors
        return g * w.sum(axis.item()), None  # expect: SL105


class Normalize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, eps=1e-6):
        norm = x.norm()
        ctx.save_for_backward(x, norm)
        return x / (norm + eps)

    @staticmethod
    def backward(ctx, g):
        x, norm = ctx.saved_tensors
        if norm == 0:  # a reduction's result saved: SL107's one sync, not an element
            return g, None
        return (g - x * (g * x).sum() / norm**2) / norm, None
