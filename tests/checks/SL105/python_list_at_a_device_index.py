"""SL105: a Python list or tuple indexed by a device value (a lookup table of enum values read
at a saved tensor): the sequence asks its index for a host int with `__index__`, a sync in every
framework. A dict keyed by a tensor hashes it by identity (no sync), and a host int index is
no finding."""
import torch

NAMES = ["sum", "mean", "max"]


class CameraTypes:
    __types = ["perspective", "orthographic", "fisheye"]
    lookup = {"perspective": 0}

    @staticmethod
    def of(index: torch.Tensor) -> str:
        return CameraTypes.__types[index]  # expect: SL105

    @staticmethod
    def first() -> str:
        return CameraTypes.__types[0]


class Reduce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, mode):
        ctx.save_for_backward(x, mode)
        return x.sum()

    @staticmethod
    def backward(ctx, grad):
        x, mode = ctx.saved_tensors
        scales = (1.0, 1.0 / x.numel(), 1.0)
        name = NAMES[mode]  # expect: SL105
        scale = scales[mode]  # expect: SL105
        seen = {mode: name}
        kind = CameraTypes.of(mode)
        return grad * scale * torch.ones_like(x), None
