"""chainer FunctionNode.backward and Function.backward_cpu."""
import numpy
from chainer import function_node
from chainer.backends import cuda


class Max(function_node.FunctionNode):
    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        return (x.max(),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        xp = cuda.get_array_module(x)
        i = indexes[0]  # a tuple of ints: not a finding
        for axis in range(x.ndim):  # a loop over axes: not a finding
            pass
        W = xp.zeros((3, 3))
        for r in range(3):
            row = W[r]  # a row of a 2-d array: not a finding
        return (gy * (x == x.max()) + row.sum() + i,)

    def backward_cpu(self, inputs, grad_outputs):
        x = inputs[0]
        gy = grad_outputs[0]
        gx = numpy.zeros_like(x)
        for n in range(x.size):  # expect: SL104
            gx[n] = gy * x[n]  # expect: SL102 SL101
        mask = x > 0
        gx[mask] = 0  # expect: SL106
        return (gx,)
