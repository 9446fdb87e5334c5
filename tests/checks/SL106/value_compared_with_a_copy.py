"""SL106: an array indexed by its own comparison with a second computation of it.

``_output`` comes out of a starred unpacking of a call the inference cannot type (an extension
module's kernel), and the mask ``output != _output`` compares it with an array the rule holds:
the read keeps the entries where they differ, a data-dependent size (and a sync), whatever
doubt remains about ``_output`` itself.
"""
import torch
from slayer_ext import Accelerated


class Leaky(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, decay):
        output = x * decay
        _output, *_ = Accelerated.leaky_integrator.fwd(x, decay)
        if torch.norm(output - _output) > 1e-6:  # expect-sl107: SL107
            print(_output[output != _output] * decay)  # expect: SL106
        ctx.save_for_backward(x)
        return output

    @staticmethod
    def backward(ctx, grad):
        return grad, None
