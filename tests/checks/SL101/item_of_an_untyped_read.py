"""SL101: `.item()` of a read of a value the rule cannot type.

Only an array of one element answers `.item()`, so `offsets[k].item()` with a host-int `k`
reads one element of `offsets`, whatever the rule knows about `offsets`: SL105 reports the wait,
SL101 the read. A list of 0-d tensors built in the rule is typed as the list it is (also a
list repeated by a count the forward was given, `[None] * count`), and a string key
(`info["param"]`) is no element index.
"""
import torch


class Segments(torch.autograd.Function):
    @staticmethod
    def forward(ctx, values, layout, count):
        ctx.save_for_backward(values)
        ctx.layout = layout
        sums = [None] * count
        for k in range(count):
            sums[k] = values[k::count].sum()
        ctx.sums = [sums[k].item() for k in range(count)]  # expect: SL105
        return values.sum()

    @staticmethod
    def backward(ctx, grad):
        (values,) = ctx.saved_tensors
        offsets = ctx.layout.offsets()
        start = offsets[0].item()  # expect: SL105 SL101
        parts = [values[:1], values[1:2]]
        first = parts[0].item()  # expect: SL105
        scale = ctx.layout.info["scale"].item()  # expect: SL105
        return grad * values[start:] * first * scale, None, None
