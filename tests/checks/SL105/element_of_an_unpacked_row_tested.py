"""SL105: an element of a row unpacked into names, used as an index and tested on the host.

`ix, iy, iz = index` unpacks a row the loop computed (SL104): each name is one element of the
device array. `owner[ix, iy, iz]` then reads one element (indexed by device values: a gather,
not SL101), and testing it in `if` waits for the device.
"""
import numpy as np
from chainer import function


class Voxelize(function.Function):
    def forward_cpu(self, inputs):
        points, values = inputs
        owner = np.full((8, 8, 8), -1, dtype=np.int32)
        for i in range(points.shape[0]):  # expect: SL104
            index = (points[i] / self.pitch).astype(int)  # expect: SL101
            ix, iy, iz = index  # expect: SL104
            if owner[ix, iy, iz] < 0:  # expect: SL105
                owner[ix, iy, iz] = i
        return owner,

    def backward_cpu(self, inputs, grad_outputs):
        gy, = grad_outputs
        return gy, None
