"""Patterns the checker missed on real AD code before the detection work, rewritten from
scratch (no code copied): each line marked here was a false negative on chainer, thinc or
MyGrad."""
from typing import cast

import numpy
import six
from chainer import function, function_node
from chainer.backends import cuda
from thinc.api import Ops


class RoiPool(function.Function):
    """Element loops over an output's size, with indices from divmod and int(), and an index
    table set in forward_cpu and read in backward_cpu."""

    def forward_cpu(self, inputs):
        data, boxes, box_batch = inputs
        self.table = numpy.full(data.shape, -1, dtype=numpy.int32)
        return data,

    def forward_gpu(self, inputs):
        data, boxes, box_batch = inputs
        self.table = cuda.cupy.empty(data.shape, dtype=numpy.int32)
        return data,

    def backward_cpu(self, inputs, grads):
        data, boxes, box_batch = inputs
        top = grads[0]
        out = numpy.zeros(data.shape, dtype=top.dtype)
        width = top.shape[3]
        for k in six.moves.range(top.size):  # expect: SL104
            col = k % width
            row = int(k / width) % top.shape[2]
            n = int(k / width / top.shape[2])
            batch = int(box_batch[n])  # expect: SL105 SL101
            start = boxes[n, 0] * 0.5  # expect: SL101
            stop = boxes[n, 2] * 0.5  # expect: SL101
            size = max(stop - start, 1.0)  # expect: SL105
            steps = int(numpy.ceil(size))  # expect: SL105
            best = self.table[n, 0, row, col]  # expect: SL101
            if best != -1:  # expect: SL105
                out[batch, 0, row, col] += top[n, 0, row, col] * steps  # expect: SL102 SL101
        return out, None, None


class Pooling(Ops):
    def pool_max(self, X: "Floats2d", lengths: "Ints1d"):
        which = self.alloc2i(lengths.shape[0], X.shape[1])
        out = cast("Floats2d", self.alloc2f(lengths.shape[0], X.shape[1]))
        start = 0
        for i, length in enumerate(lengths):  # expect: SL104
            if length <= 0:  # expect: SL105
                raise ValueError("empty sequence")
            which[i] = X[start : start + length].argmax(axis=0)  # expect: SL105
            out[i] = X[start : start + length].max(axis=0)  # expect: SL105
            start += length
        out[0, 0] = 0  # expect: SL102
        return out, which

    def backprop_pool_max(self, d_out, which, lengths):
        dX = self.alloc2f(int(lengths.sum()), d_out.shape[1])
        return dX


class TreeSoftmax(function.Function):
    """Elements of an iterated label array used as indices, then as slice bounds in a helper."""

    def __init__(self, offsets):
        self.offsets = numpy.asarray(offsets)

    def backward_cpu(self, inputs, grads):
        x, t, W = inputs
        gx = numpy.empty_like(x)
        for i, (xi, ti) in enumerate(six.moves.zip(x, t)):  # expect: SL104
            gx[i] = self._one(xi, ti, W)
        return gx, None, None

    def _one(self, xi, ti, W):
        lo = self.offsets[ti]
        hi = self.offsets[ti + 1]
        return W[lo:hi].sum(axis=0) * xi  # expect: SL105


class Sampling(function_node.FunctionNode):
    def forward_cpu(self, inputs):
        x, gloss = inputs
        keep = gloss > 0
        gx = numpy.zeros_like(x)
        for i in numpy.arange(len(keep))[keep]:  # expect: SL104 SL106
            gx[i] = x[i] * 2
        return gx,


class Align(function.Function):
    """A sampling grid sized from the data, or by a setting: still a loop over the data."""

    def __init__(self, ratio=None):
        self.ratio = ratio

    def backward_cpu(self, inputs, grads):
        data, boxes = inputs
        top = grads[0]
        out = numpy.zeros(data.shape, dtype=top.dtype)
        for n in range(boxes.shape[0]):  # expect: SL104
            height = max(boxes[n, 2] - boxes[n, 0], 1.0)  # expect: SL101 SL105
            grid = int(numpy.ceil(height)) if self.ratio is None else self.ratio  # expect: SL105
            for iy in range(grid):  # expect: SL104
                out[0, 0, iy, n] += top[n, 0, 0, 0]  # expect: SL102 SL101
        return out, None


class RoiScatter(function.Function):
    """A value read with another array's index is an element when it is used as one."""

    def backward_cpu(self, inputs, grads):
        data, boxes, box_batch = inputs
        out = numpy.zeros(data.shape, dtype=grads[0].dtype)
        for r in range(boxes.shape[0]):  # expect: SL104
            b = box_batch[r]  # expect: SL101
            out[int(b)] += grads[0][r]  # expect: SL105
        return out, None, None
