"""SL105: an adaptive integration loop tested against an end time read from the time grid once,
in a torch Function's backward: each trip asks the device for one bool. It counts steps as it
goes, yet it searches nothing (the end time never moves), so it is no SL103 search."""
import torch


class Adjoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, t_span):
        ctx.save_for_backward(x, t_span)
        return x

    @staticmethod
    def backward(ctx, grad):
        x, t_span = ctx.saved_tensors
        t, T = t_span[:1], t_span[-1]  # expect: SL101
        dt = (T - t) / 10
        steps = 0
        while t < T:  # expect: SL105
            x = x - dt * grad
            t = t + dt
            steps += 1
        return x, None
