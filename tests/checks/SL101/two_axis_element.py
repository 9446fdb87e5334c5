"""SL101: an element of a matrix read with an int on every axis, in a chainer FunctionNode."""
import chainer
from chainer.backends import cuda


class Trace(chainer.FunctionNode):
    def forward(self, inputs):
        (a,) = inputs
        xp = cuda.get_array_module(a)
        return (xp.trace(a),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        xp = cuda.get_array_module(gy)
        n = 3
        ga = xp.eye(n) * gy
        corner = ga[0, n - 1]  # expect: SL101
        row = ga[0]  # a row of a rank-2 array: not a finding
        col = ga[:, 0]  # a column slice: not a finding
        return (ga + row.sum() + col.sum() + corner,)
