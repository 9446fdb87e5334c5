"""SL105: a backend object's converter to NumPy handed a device array.

Code written for several backends converts through the backend (`which_backend(t).numpy(t)`):
the tensor goes to the host, a sync and a transfer. `x.numpy()` (the array's own method) is
reported the same; a backend converting a Python value moves nothing.
"""
import tensorflow as tf


def which_backend(t):
    return t.backend


@tf.custom_gradient
def clip_gradient(x):
    def grad(dy):
        host = which_backend(dy).numpy(dy)  # expect: SL105
        scale = which_backend(dy).numpy(0.5)
        same = dy.numpy()  # expect: SL105
        return dy * host.mean() * scale * same.mean()

    return tf.identity(x), grad
