"""SL101: elements of a constant the rule builds from Python numbers.

Every framework has its own way to turn Python data into a tensor on the current device
(`paddle.to_tensor`, `tf.constant`, `tf.convert_to_tensor`, `torch.tensor`);
a flat list of numbers makes one axis and a list of lists two, so a host-int read picks one
element. A tensor made from a name (`paddle.to_tensor(weights)`) keeps an unknown rank, and a
read of a row of a two-axis constant is no element.
"""
import paddle
import tensorflow as tf


class Weighted(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x, weights):
        ctx.weights = weights
        return x * 2.0

    @staticmethod
    def backward(ctx, dy):
        taps = paddle.to_tensor([0.25, 0.5, 0.25])
        scale = taps[1] * dy  # expect: SL101
        given = paddle.to_tensor(ctx.weights)
        rotation = paddle.to_tensor([[0.0, -1.0], [1.0, 0.0]])
        return scale * given[0] * rotation[1], rotation[0, 1] * dy  # expect: SL101


@tf.custom_gradient
def smooth(x):
    def grad(dy):
        kernel = tf.constant([1.0, 2.0, 1.0])
        norm = tf.convert_to_tensor((4.0, 4.0))
        return dy * kernel[0] / norm[-1]  # expect: SL101

    return x * 1.0, grad
