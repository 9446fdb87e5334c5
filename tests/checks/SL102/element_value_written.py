"""SL102: writing one element of a device array into an array whose rank is unknown.

``costs[mb] = -loglike`` with ``loglike`` one element: what is written is one value, so the
write picks one element of ``costs`` (a row would take a whole row of values). Writing a
whole array into ``grads[mb]`` is a row write and stays quiet.
"""
import torch


def sequence_cost(log_probs):
    loglike = log_probs[0, 1] + log_probs[1, 0]  # expect: SL101 SL101
    return loglike


class BatchCost(torch.autograd.Function):
    @staticmethod
    def forward(ctx, acts, sequences):
        costs = acts.new_empty(len(sequences))
        grads = acts.new_empty((len(sequences), *acts.shape))
        for mb in range(len(sequences)):  # expect: SL104
            costs[mb] = -sequence_cost(acts)  # expect: SL102
            grads[mb] = acts * 2
        ctx.save_for_backward(grads)
        return costs.sum()

    @staticmethod
    def backward(ctx, grad):
        grads, = ctx.saved_tensors
        return grads.sum(0) * grad, None
