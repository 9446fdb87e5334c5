"""SL105: a value a loop carries from one pass to the next (`prev = cur` at the end of the body,
read by a test at its top). Before the first pass it is a literal; from the second pass on it is
the element read the pass before, so the test waits for the device every pass but the first.
A name rebound before its use in the same pass is not carried (`Rebound`)."""
import torch


class Segments(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lengths):
        ctx.save_for_backward(x, lengths)
        return x

    @staticmethod
    def backward(ctx, g):
        x, lengths = ctx.saved_tensors
        out = torch.zeros_like(g)
        prev = 0
        for t in range(len(lengths)):  # expect: SL104
            if prev != 0:  # expect: SL105
                out = out + g
            cur = lengths[t]  # expect: SL101
            prev = cur
        return out, None


class Rebound(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lengths):
        ctx.save_for_backward(x, lengths)
        return x

    @staticmethod
    def backward(ctx, g):
        x, lengths = ctx.saved_tensors
        scale = 0
        for _ in range(3):
            scale = 2
            if scale != 0:
                g = g * scale
            scale = lengths.sum()
        return g, None


class Blocks(torch.autograd.Function):
    """`offset += rows` with `rows` a value nobody can type: on the first pass `offset` is still
    the literal it starts as, an index on the host, so the read it picks is one element."""

    @staticmethod
    def forward(ctx, x, pointers):
        ctx.save_for_backward(pointers)
        return x

    @staticmethod
    def backward(ctx, g):
        pointers, = ctx.saved_tensors
        offset = 0
        for rows in ctx.block_rows:
            start = int(pointers[offset])  # expect: SL101 SL105
            g = g * start
            offset += rows
        return g, None
