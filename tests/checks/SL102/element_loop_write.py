"""SL102: element writes in a loop over every element, in a chainer FunctionNode backward."""
import chainer
from chainer.backends import cuda


class Scale(chainer.FunctionNode):
    def forward(self, inputs):
        x, w = inputs
        self.retain_inputs((0, 1))
        return (x * w,)

    def backward(self, indexes, grad_outputs):
        x, w = self.get_retained_inputs()
        (gy,) = grad_outputs
        xp = cuda.get_array_module(gy)
        gx = xp.zeros_like(x.array)
        for i in range(len(gx)):  # expect: SL104
            gx[i] = gy.array[i] * w.array[i]  # expect: SL102 SL101
        gw = gy.array * x.array  # elementwise: not a finding
        return gx, gw
