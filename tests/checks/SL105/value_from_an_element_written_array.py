"""SL105: a value computed from an element of an array the function fills one element at a time.

`betas[flat_index(t, u, U)] = ...` writes single elements, so `betas[0]` reads one (SL101) and `loglike`
holds it: testing `diff`, computed from it, waits for the device. A value read from an array
the function never writes element by element (`totals[0]`, of unknown rank) may be a row, and
testing what is computed from it is one sync on a reduction (SL107's, opt-in).
"""
import torch


def flat_index(t, u, width):
    return t * width + u


def backward_pass(log_probs: torch.Tensor, betas: torch.Tensor, totals: torch.Tensor, T: int, U: int):
    for t in range(T):  # expect: SL104
        for u in range(U):  # expect: SL104
            betas[flat_index(t, u, U)] = log_probs[flat_index(t, u, U)]  # expect: SL101 SL102
    loglike = betas[0]  # expect: SL101
    diff = (loglike - log_probs.sum()).abs()
    if diff > 0.1:  # expect: SL105
        print("mismatch")
    first = totals[0]
    gap = (first - log_probs.sum()).abs()
    if gap.sum() > 0.1:
        print("mismatch")
    return loglike


class Transducer(torch.autograd.Function):
    @staticmethod
    def forward(ctx, log_probs, betas, totals):
        ctx.save_for_backward(log_probs, betas, totals)
        return log_probs.sum()

    @staticmethod
    def backward(ctx, grad):
        log_probs, betas, totals = ctx.saved_tensors
        loglike = backward_pass(log_probs, betas, totals, log_probs.shape[0], log_probs.shape[1])
        return grad * loglike, None, None
