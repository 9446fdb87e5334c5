"""SL105: Keras 3's `keras.ops.convert_to_numpy(x)` returns a NumPy copy of a tensor of any
backend: inside a rule (here a helper a `keras.ops.custom_gradient` rule calls) it is a
whole-array transfer to the host. The device branch (`ops.round`) is no finding."""
import numpy as np
from keras import ops


def quantize(inputs, to_numpy=False):
    if to_numpy:
        inputs = ops.convert_to_numpy(inputs)  # expect: SL105
        return np.round(inputs)
    return ops.round(inputs)


@ops.custom_gradient
def fake_quant(x):
    def grad(*args, upstream=None):
        (upstream,) = args
        return upstream

    return quantize(x, to_numpy=True), grad
