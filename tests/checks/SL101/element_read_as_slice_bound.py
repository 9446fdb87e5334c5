"""SL101 and SL105: an element read with host ints used as a slice bound.

`grad[:cumsum[0]]` reads one element of `cumsum` (SL101, as `int(cumsum[0])` would) and
slicing needs it on the host (SL105, the wait). A bound that is a name holding an element
(`stop`) is only the wait; a bound read with a device index (`ends[last]`) is a gather, so
only the wait too.
"""
import torch


class Pack(torch.autograd.Function):
    @staticmethod
    def forward(ctx, values, lengths):
        ctx.save_for_backward(values, lengths)
        return values.sum()

    @staticmethod
    def backward(ctx, grad):
        values, lengths = ctx.saved_tensors
        cumsum = torch.cumsum(lengths, dim=0)
        head = grad[:cumsum[0]]  # expect: SL105 SL101
        stop = lengths[1]  # expect: SL101
        middle = grad[cumsum[0]:stop]  # expect: SL105 SL101
        last = torch.argmax(lengths)
        tail = grad[cumsum[last]:]  # expect: SL105
        return head * middle * tail, None
