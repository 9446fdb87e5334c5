"""SL101: `.item()` takes the one element of a one-element array, so `crow[start + rows].item()`
reads one element of `crow` even where the inference cannot follow the index (`start` and
`rows` summed from a starred parameter's `tuple[int, int]`s). Not through a slice
(`crow[0:1].item()` reads a size-1 view), and not with a device index (`vals[mask].item()`,
`vals[order[0]].item()`: a mask or a gather)."""
import torch


def _block_rows(t, *shapes: tuple[int, int]):
    crow = t.crow_indices()
    vals = t.values()
    start = 0
    pointers = []
    for rows, cols in shapes:
        begin = int(crow[start].item())  # expect: SL101 SL105
        end = int(crow[start + rows].item())  # expect: SL101 SL105
        pointers.append((begin, end, cols))
        start += rows
    head = crow[0:1].item()  # expect: SL105
    mask = vals > 0
    order = torch.argsort(vals)
    picked = vals[mask].item() + vals[order[0]].item()  # expect: SL105 SL105 SL106
    return pointers, head + picked


class BlockSplit(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, shapes):
        ctx.shapes = shapes
        ctx.save_for_backward(t)
        return t

    @staticmethod
    def backward(ctx, grad):
        t, = ctx.saved_tensors
        _block_rows(grad, *ctx.shapes)
        return grad, None
