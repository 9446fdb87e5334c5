"""SL104: element loops over range(x.size) and np.ndindex, in a chainer FunctionNode backward."""
import chainer
import numpy
from chainer.backends import cuda


class Relu(chainer.FunctionNode):
    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        return (numpy.maximum(x, 0),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        xp = cuda.get_array_module(gy)
        gx = xp.zeros_like(x.array)
        for n in range(x.size):  # expect: SL104
            gx[n] = gy.array[n] * (x.array[n] > 0)  # expect: SL102 SL101
        for layer in range(3):  # a small structural count: not a finding
            gx = gx * 1.0
        return (gx,)
