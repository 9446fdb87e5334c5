"""SL105: a test comparing an element read with an array of unknown rank (`t + dt > t_eval[k]`
with `t` a tensor the solver holds): the read is SL101's, and Python asking the comparison for
one bool waits for the device, SL105's (a bool of a larger array would raise, so the rule runs
only where it is one value); so does an array module's comparison function (`torch.gt`). A
comparison of the array's size is no finding."""
import torch


class Integrate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, t_eval):
        ctx.save_for_backward(x, t_eval)
        return x

    @staticmethod
    def backward(ctx, g):
        x, t_eval = ctx.saved_tensors
        t_eval = t_eval.reshape(-1)
        t, dt = x * 0, ctx.step
        k = 0
        if t + dt > t_eval[k]:  # expect: SL101 SL105
            g = g * 2
        if k < len(t_eval) and t + dt == t_eval[k] or ctx.keep:  # expect: SL101 SL105
            g = g / 2
        if torch.gt(t_eval[k], t + dt):  # expect: SL101 SL105
            g = g + 1
        if t_eval.shape[0] > 1 and dt < ctx.limit:  # sizes and untyped values: not a finding
            g = -g
        return g, None
