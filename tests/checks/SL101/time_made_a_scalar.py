"""SL101: a time value rebound to its first entry under a test that it has axes.

``if len(t.shape) > 0: t = t[0]`` makes ``t`` a scalar: the author holds it as one value per
entry, so the read is one element (a sync once ``t`` is used on the host). Under the same test,
``rows[0]`` read into another name could be a row and stays quiet.
"""
import torch


class Adjoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, t, rows):
        ctx.save_for_backward(x, t, rows)
        return x

    @staticmethod
    def backward(ctx, grad):
        x, t, rows = ctx.saved_tensors

        def dynamics(t, a):
            if len(t.shape) > 0:
                t = t[0]  # expect: SL101
            if rows.ndim > 0:
                first = rows[0]
                a = a + first
            return a * t

        return dynamics(t, grad * x), None, None
