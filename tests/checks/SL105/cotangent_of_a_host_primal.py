"""SL105: the cotangent of a custom gradient is the framework's tensor even where the forward
computed its primal on a NumPy copy (`_tensor = np.array(tensor)`, returned with `grad`):
TensorFlow hands `grad` a tensor, so `np.array(dy)` copies it to the host."""
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def setitem(tensor, value, *, key):
    _tensor = np.array(tensor)  # expect: SL105
    _tensor[key] = np.array(value)  # expect: SL105

    def grad(dy):
        dL_dtensor = np.array(dy)  # expect: SL105
        dL_dtensor[key] = 0.0
        return dL_dtensor, None

    return _tensor, grad
