"""SL106: a boolean mask on a later axis (`w[:, keep]`, `x[..., live]`) selects a
data-dependent number of columns, as a mask on the first axis selects rows: a sync. An integer
index array there is a gather, a slice with an int is no mask, and a mask into a host copy
(`.cpu().numpy()`) selects on the host, where the size is already known."""
import torch


class GroupedWeights(torch.autograd.Function):
    @staticmethod
    def forward(ctx, weight, order):
        ctx.save_for_backward(weight, order)
        return weight.sum(0)

    @staticmethod
    def backward(ctx, grad):
        weight, order = ctx.saved_tensors
        keep = (weight != 0).any(0)
        kept = weight[:, keep]  # expect: SL106
        live = weight.abs() > 1e-6
        tail = weight[..., live]  # expect: SL106
        ranks = torch.argsort(weight.sum(0))
        picked = weight[:, ranks]
        first = weight[:, 0]
        host = weight.detach().cpu().numpy()  # expect: SL105
        host[host[:, 0] > 0, :] = 0.0
        return grad * kept.sum() + tail.sum() + picked.sum() + first.sum(), None
