"""SL104 (not SL103): a loop writing its index into an array element is filling a table.

``owner[b, v] = i`` under a test of the element keeps, per cell, the last point that won it:
one trip per point, each reading elements on the host. It searches for nothing, so it is an
element loop, and its test is SL105's sync. ``last = i`` under the same test is a search.
"""
import numpy as np
from chainer import function


class Voxelize(function.Function):
    def forward_cpu(self, inputs):
        points, cells = inputs
        owner = np.full(8, -1, dtype=np.int32)
        for i in range(points.shape[0]):  # expect: SL104
            cell = cells[i]  # expect: SL101
            if owner[cell] < 0:  # expect: SL105
                owner[cell] = i
        last = -1
        for j in range(points.shape[0]):  # expect: SL103
            if points[j] > 0:  # expect: SL101
                last = j
        self.owner = owner
        return points[last:],
