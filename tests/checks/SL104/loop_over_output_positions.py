"""SL104: loops bounded by settings whose variable indexes single elements.

``self.outh`` is a setting the inference cannot call a data size, but a loop whose variable is
one of the indices of the element it reads or writes runs once per element along that axis.
A loop over a literal count (three kernel taps) and a loop whose variable only picks rows are
not element loops.
"""
import numpy as np
from chainer import function


class PositionPooling(function.Function):
    def __init__(self, outh, outw, taps):
        self.outh = outh
        self.outw = outw
        self.taps = taps

    def forward_cpu(self, inputs):
        x, = inputs
        return x[:, :, : self.outh, : self.outw],

    def backward_cpu(self, inputs, gy):
        x, = inputs
        gx = np.zeros_like(x)
        for outh in range(self.outh):  # expect: SL104
            for outw in range(self.outw):  # expect: SL104
                gx[0, 0, outh, outw] = gy[0][0, 0, outh, outw]  # expect: SL101 SL102
        for k in range(3):
            gx[0, 0, k, 0] += 1  # expect: SL102
        for t in range(self.taps):
            gx[t] += gy[0][t]
        return gx,
