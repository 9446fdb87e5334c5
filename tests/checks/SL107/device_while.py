"""SL107 (opt-in): a `while` loop on a device value, in a torch.autograd.Function."""
import torch


class Halve(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        err = torch.linalg.norm(grad_output)
        while err > 1e-6:  # expect-sl107: SL107
            err = err / 2
        steps = 0
        while steps < 3:  # a host counter: not a finding
            steps += 1
        return 2 * x * grad_output + err * steps
