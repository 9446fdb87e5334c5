"""SL105: an array namespace's copy to the host of a value the rule cannot type.

`xp.asnumpy(x)` takes device data by definition, like `cuda.to_cpu(x)`: handed a value the
inference cannot type (`self.store.latest()`), it still moves it to the host, a sync and a
transfer. A value the inference knows is host data (a shape) is left alone.
"""
import cupy as xp

from chainer import function_node


class CopyToDevice(function_node.FunctionNode):
    def forward(self, inputs):
        (x,) = inputs
        return (xp.asarray(x),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        shape = xp.asnumpy(gy.shape)
        latest = xp.asnumpy(self.store.latest())  # expect: SL105
        return (gy * float(latest.sum()) + xp.zeros(tuple(shape)),)
