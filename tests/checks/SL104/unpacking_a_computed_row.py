"""SL104: unpacking a device array the rule computed, one element per target.

``ix, iy, iz = index`` after ``index = (point / pitch).astype(int)`` reads the three entries of
the row one by one on the host. Unpacking a parameter (``gy, = grad_outputs``, a tuple of
cotangents far more often than an array) is left alone.
"""
import numpy as np
from chainer import function


class Voxelize(function.Function):
    def forward_cpu(self, inputs):
        points, values = inputs
        grid = np.zeros((8, 8, 8), dtype=np.float32)
        for i in range(points.shape[0]):  # expect: SL104
            index = (points[i] / self.pitch).astype(int)  # expect: SL101
            ix, iy, iz = index  # expect: SL104
            grid[ix, iy, iz] = values[i]
        return grid,

    def backward_cpu(self, inputs, grad_outputs):
        gy, = grad_outputs
        return gy, None
