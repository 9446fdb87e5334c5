"""The examples of the detection-depth issue, each reported in full (default scope)."""
import numpy
import numpy as np
from chainer import function
from thinc.api import Ops


# 1. the array API's own namespace idiom, and a findfirst written with next()
def rrule_first_nonzero(x):
    xp = x.__array_namespace__()
    y = xp.sum(x)

    def first_nonzero_pullback(dy):
        v = xp.reshape(x, (-1,))
        i = next(j for j in range(v.shape[0]) if v[j] != 0)  # expect: SL103 SL101
        return (v[i] * dy,)  # expect: SL101

    return y, first_nonzero_pullback


# 2. chainer: an element loop over a size, instance attributes, gy tuples, 4 int indices
class Pool(function.Function):
    def forward_cpu(self, inputs):
        x, = inputs
        self.argmax = numpy.empty(x.shape, dtype=numpy.int32)
        return x,

    def backward_cpu(self, inputs, gy):
        x, = inputs
        g = gy[0]
        gx = numpy.zeros_like(x)
        for i in range(g.size):  # expect: SL104
            n, c = divmod(i, g.shape[1])
            j = int(self.argmax[n, c])  # expect: SL105 SL101
            gx[n, c, j] += g[n, c]  # expect: SL102 SL101
        return gx,


# 3. thinc: a forward returning (Y, backprop), and an Ops method named backprop_*
def forward(model, X, is_train):
    Y = model.ops.xp.cumsum(X, axis=0)

    def backprop(dY):
        dX = model.ops.alloc2f(*X.shape)
        for i in range(dY.shape[0]):  # expect: SL104
            dX[i, 0] = dY[i, 0]  # expect: SL102 SL101
        return dX

    return Y, backprop


class MyOps(Ops):
    def backprop_cumsum(self, dY, lengths):
        out = self.xp.zeros_like(dY)
        for k in range(len(lengths)):  # expect: SL104
            out[k] = lengths[k]  # expect: SL101
        return out
