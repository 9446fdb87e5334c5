"""SL105: TF1's custom gradients through ``gradient_override_map``.

``tf.RegisterGradient(name)(grad)`` registers a rule and ``with g.gradient_override_map(...):``
builds the op it replaces the gradient of: the function holding that block is the rule's
forward, so ``tf.py_func`` in it (Python run on host copies of its inputs) is reported. A
function that only registers a gradient without building an op is no forward.
"""
import uuid

import tensorflow as tf


def py_func_with_grad(func, inp, Tout, grad=None):
    if grad is None:
        return tf.py_func(func, inp, Tout)  # expect: SL105
    name = "PyFuncGrad" + str(uuid.uuid4())
    tf.RegisterGradient(name)(grad)
    g = tf.get_default_graph()
    with g.gradient_override_map({"PyFunc": name}):
        return tf.py_func(func, inp, Tout)  # expect: SL105


def register_only(grad):
    name = "Grad" + str(uuid.uuid4())
    tf.RegisterGradient(name)(grad)
    return tf.py_func(len, [name], tf.int64)
