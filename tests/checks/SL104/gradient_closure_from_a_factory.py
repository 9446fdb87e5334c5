"""SL104 and SL101: the gradient closure a custom_gradient rule obtains from a factory.

The rule calls ``_make_gradient(...)``, a function of the module that builds and returns the
closure ``weight_gradient``, and hands that closure back as its gradient: the closure runs on
the cotangents (``upstream`` is a device array, read here one element at a time), even where
what the rule passes the factory (``prepare(weights)``) is nothing the checker can type. A factory whose product is not named
as a gradient (``_make_printer``) is a helper's business, not a rule.
"""
import tensorflow as tf

from .inputs import prepare


def _make_gradient(weights):
    def weight_gradient(upstream):
        d = len(weights)
        rows = []
        for i in range(d):  # expect: SL104
            basis = tf.zeros_like(weights)
            cotangent = upstream[i, i]  # expect: SL101
            rows.append(cotangent * basis[i, i])  # expect: SL101
        return tf.stack(rows)

    return weight_gradient


def _make_printer(weights, n):
    def show(values):
        for i in range(n):
            print(values[i])

    return show


@tf.custom_gradient
def weighted(weights):
    n = weights.shape[0]
    prepared = prepare(weights)
    grad = _make_gradient(prepared)
    _make_printer(weights, n)
    return weights * 2.0, grad
