"""SL104: the report points at the iterated array, on its own line in a header over several.

`for d, (table, offset) in enumerate(\n zip(tables, offsets)\n):` iterates the device array
`offsets` (the Python list `tables` is fine): the finding is on the line that names it, and a
`noqa` anywhere in the header still silences it.
"""
import torch


class Interp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, values, offsets, tables):
        ctx.save_for_backward(values, offsets)
        ctx.tables = tables
        return values.sum()

    @staticmethod
    def backward(ctx, grad):
        values, offsets = ctx.saved_tensors
        tables = ctx.tables
        out = torch.zeros_like(values)
        for d, (table, offset) in enumerate(
            zip(tables, offsets)  # expect: SL104
        ):
            out = out + table * offset
        for d, (table, offset) in enumerate(  # noqa: SL104
            zip(tables, offsets)
        ):
            out = out + table * offset
        return grad * out, None, None
