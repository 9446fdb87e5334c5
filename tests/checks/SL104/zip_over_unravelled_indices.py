"""SL104: `xp.unravel_index` of a one-axis array of flat indices gives one index array per
axis, each with one axis, and `zip(*idxs)` walks them in lockstep: one element of each per trip,
each a device read. Zipping a tuple of arrays whose rank nothing states is not reported
(`zip(*parts)` of `xp.split`: rows or elements)."""
import chainer
from chainer.backends import cuda


class OuterProducts(chainer.function_node.FunctionNode):
    def forward(self, inputs):
        x1, x2 = inputs
        xp = cuda.get_array_module(x1)
        n, h, w = x1.shape[:-1]
        idxs = xp.unravel_index(xp.arange(n * h * w), (n, h, w))
        output = xp.zeros((n, h, w, x1.shape[-1] * x2.shape[-1]), dtype=x1.dtype)
        for i in zip(*idxs):  # expect: SL104
            output[i] = xp.outer(x1[i], x2[i]).ravel()
        parts = xp.split(x1, 2)
        for pair in zip(*parts):
            output = output + pair[0]
        return (output,)
