"""SL101/SL102: a literal index of an array the function reads element by element elsewhere.

``betas[idx(t, u)]`` picks one element of a flattened table (``idx`` computes the offset), so
``betas`` has one axis and ``betas[0]`` is one element as well: a write before the loop and a
read after it. ``log_probs`` is read element by element with two indices, so its
``log_probs[0]`` is a row and stays quiet.
"""
import torch


class FlatIndex:
    def __init__(self, width: int):
        self.width = width

    def __call__(self, t: int, u: int):
        return t * self.width + u


def backward_table(log_probs: torch.Tensor, T: int, U: int, betas: torch.Tensor):
    idx = FlatIndex(U)
    betas[0] = 0  # expect: SL102
    for t in range(T):  # expect: SL104
        for u in range(1, U):  # expect: SL104
            betas[idx(t, u)] = betas[idx(t, u - 1)] + log_probs[t, u]  # expect: SL101 SL101 SL102
    first = log_probs[0]
    return betas[0] + first  # expect: SL101


class TableLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, log_probs, betas):
        ctx.save_for_backward(log_probs, betas)
        return log_probs.sum()

    @staticmethod
    def backward(ctx, grad):
        log_probs, betas = ctx.saved_tensors
        total = backward_table(log_probs, log_probs.shape[0], log_probs.shape[1], betas)
        return grad * total, None
