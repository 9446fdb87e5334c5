"""SL106: nonzero, flatnonzero, argwhere, one-argument where and unique, in a chainer FunctionNode backward."""
import chainer
from chainer.backends import cuda


class SparseGrad(chainer.FunctionNode):
    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        return (x * x,)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        xp = cuda.get_array_module(gy)
        a = x.array
        nz = xp.nonzero(a)  # expect: SL106
        flat = xp.flatnonzero(a > 0)  # expect: SL106
        where = xp.where(a > 0)  # expect: SL106
        values = xp.unique(a)  # expect: SL106
        count = xp.count_nonzero(a)  # a count: a fixed-shape reduction, not a finding
        picked = xp.where(a > 0, a, 0)  # three-argument where: not a finding
        return (gy * 2 * picked + 0 * (len(nz) + flat.size + len(where) + values.size + count),)
