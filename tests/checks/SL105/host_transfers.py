"""SL105: whole-array transfers to the host (`.tolist()`, `.cpu()`), in a torch.autograd.Function."""
import torch


class Sum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()

    @staticmethod
    def backward(ctx, grad_output):
        total = 0.0
        for v in grad_output.tolist():  # expect: SL105
            total += v
        host = grad_output.cpu()  # expect: SL105
        shape = list(grad_output.shape)  # shape bookkeeping: not a finding
        return grad_output * total + host.sum() * len(shape)
