"""SL105: an `if` on one of the arrays a framework hands a rule (`if inputs[0]:` in a
PyTensor `perform`): Python asks the array for one bool, which only one element can give, and
waits for the device to read it. A test of the list's length is no finding."""
import numpy as np
from pytensor.graph.op import Op


class RaiseIf(Op):
    def __init__(self, message):
        self.message = message

    def perform(self, node, inputs, outputs):
        outputs[0][0] = np.array(0.0)
        if inputs[0]:  # expect: SL105
            raise ValueError(self.message)
        if len(inputs) > 1 and not inputs[1]:  # expect: SL105
            outputs[0][0] = np.array(1.0)

    def grad(self, inputs, gradients):
        return [inputs[0] * 0.0]
