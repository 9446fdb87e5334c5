"""SL105: a comprehension whose items are elements of a device array (`{c for c in path}`)
is a Python container of 0-d device values: iterating it yields elements, and testing one on
the host waits for the device. A comprehension of host numbers is no finding."""
import numpy as np
import chainer
from chainer.backends import cuda


class LabelProbability(chainer.Function):
    def forward(self, inputs):
        path, prob = inputs
        xp = cuda.get_array_module(prob)
        out = xp.zeros_like(prob)
        for b in range(path.shape[0]):
            row = path[b, :]
            chars = {c for c in row}  # expect: SL104
            for c in chars:
                if c == -1:  # expect: SL105
                    continue
                out[b] += prob[b] * (row == c)
            widths = [w for w in range(3)]
            for w in widths:
                if w == 1:
                    out[b] *= 2
        return (out,)

    def backward(self, inputs, grad_outputs):
        return grad_outputs[0], None
