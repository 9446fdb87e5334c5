"""SL105: Python's ``math`` functions of device values.

``math.exp`` takes a Python float: handed a tensor it calls ``__float__``, which copies the
value to the host and waits for the device (and works only for one element). A log-sum-exp
helper of two elements of a probability table is the usual shape. Shapes, settings and
parameters read through an index (a tuple of strides) are host numbers and stay quiet.
"""
import math

import torch


def log_sum_exp(a: torch.Tensor, b: torch.Tensor):
    if torch.isinf(a):  # expect: SL105
        return b
    if a > b:  # expect: SL105
        return math.log1p(math.exp(b - a)) + a  # expect: SL105
    return math.log1p(math.exp(a - b)) + b  # expect: SL105


def window(x, stride):
    rows = math.floor((x.shape[-1] - 1) / stride[0] + 1)
    return rows * math.sqrt(x.shape[0])


class LogAddBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, stride):
        ctx.save_for_backward(a, b)
        ctx.stride = stride
        return torch.logaddexp(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        total = log_sum_exp(a, b)
        return grad * window(a, ctx.stride) / total, None, None
