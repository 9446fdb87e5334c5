"""SL105: a parameter named like a number (`b`, `n`, `i`) that the function treats as an array
(`b.asnumpy()`: only an array has that method) is the array it is, not a setting: the copy to
the host is a sync (MindSpore's `construct` paired with a `bprop`). A number's own `.item()`
proves nothing and stays silent."""
import mindspore as ms
import mindspore.nn as nn
import numpy as np


class HostSolve(nn.Cell):
    def construct(self, a, b):
        a = a.asnumpy()  # expect: SL105
        b = b.asnumpy()  # expect: SL105
        return ms.Tensor(np.linalg.solve(a, b))

    def bprop(self, a, b, out, dout):
        return dout, dout


class Scale(nn.Cell):
    def construct(self, x, n):
        return x * n.item()

    def bprop(self, x, n, out, dout):
        return dout, dout
