"""SL105: an array element given as an endpoint or a count of `linspace`/`arange`.

These constructors take Python numbers: `torch.linspace(0, dt, 10)` with `dt` the difference
of two elements reads it back to the host before allocating, as does `arange` with an element
as its end. Python numbers (`len(t_span)`) are fine; in JAX a traced endpoint is fine too
(`jnp.linspace(0.0, dt, 8)` builds the grid on the device), but not a traced count.
"""
import torch


class Shoot(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, t_span, steps):
        ctx.save_for_backward(x, t_span)
        return x

    @staticmethod
    def backward(ctx, grad):
        x, t_span = ctx.saved_tensors
        dt = t_span[1] - t_span[0]  # expect: SL101
        fine = torch.linspace(0, dt, 10)  # expect: SL105
        ends = torch.linspace(0.0, 1.0, steps=len(t_span))
        ticks = torch.arange(0, t_span[-1])  # expect: SL105 SL101
        return grad * fine.sum() * ends.sum() * ticks.sum(), None, None
