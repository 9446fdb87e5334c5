"""False positives met while deepening detection on real code (chainer, MyGrad, autograd),
each kept as a regression case, next to the true findings that share their shape."""
import numpy
import numpy as np
from chainer import backend, function_node
from numba import njit


class Conv(function_node.FunctionNode):
    """MyGrad/chainer-style settings stored on self from host data (a stride per axis)."""

    def forward(self, inputs):
        x, w = inputs
        stride = np.asarray((1, 1), dtype=int)  # Python data: host bookkeeping
        self.stride = stride
        self.padding = np.array((0, 0))
        return x,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        pads = tuple(slice(p, -p if p else None) for p in self.padding)  # settings, not device data
        return [gy[pads] * s for s in self.stride]


class Split(function_node.FunctionNode):
    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        ys = xp.split(x, 3)  # a list of arrays
        shapes = [y.shape for y in ys]  # iterating a list, not an array
        lengths = numpy.empty(len(ys), dtype=numpy.int32)  # NumPy bookkeeping in xp code
        lengths[0] = 0  # a host offset table, not a device element
        first = xp.broadcast_arrays(x, x)[0]  # indexing a list of arrays
        return tuple(ys) + (first,) + tuple(shapes)

    def backward(self, indexes, grad_outputs):
        xp = backend.get_array_module(*grad_outputs)
        a = grad_outputs[0]
        ws = []
        for ai in a:  # a batch of matrices: one slab per trip
            w, v = xp.linalg.eigh(ai)
            ws.append(w)
        axis = tuple(_argone(grad_outputs[0].shape))  # a shape passed to a helper
        return xp.stack(ws), axis


def _argone(iterable):
    result = []
    for i, x in enumerate(iterable):
        if x == 1:  # an element of a shape tuple, on the host already
            result.append(i)
    return result


class Sparse(function_node.FunctionNode):
    def backward(self, indexes, grad_outputs):
        g, = grad_outputs
        A_row = self.get_retained_inputs()[0]
        nb = g.shape[0]
        counts = []
        for i in range(nb):  # a batch loop: A_row[i] is a row picked by another array's size
            counts.append(len(numpy.where(A_row[i] >= 0)[0]))  # expect: SL106
        return g, counts


def grad_einsum_vjp(ans, x, subscript):
    def vjp(g):
        if subscript[0] == Ellipsis:  # a subscript string, compared with Ellipsis
            return g
        return g.sum()

    return vjp


def rrule_gru(s, z):
    _gru_layer(s, z)
    return s, None


@njit
def _gru_layer(s, z):
    for n in range(len(s) - 1):  # compiled by numba: no Python round trips
        z[n] += s[n]


def sum(x, axis=None):  # DeZero defines its own sum; calls to it iterate nothing
    return x


def batchnorm_backward(gy, xc):
    gbeta = sum(gy, axis=0)
    ggamma = sum(xc * gy, axis=0)
    return gbeta, ggamma


def forward(model, X, Ys, callbacks, is_train):
    widths = [Y.shape[1] for Y in Ys]

    def backprop(d_output):
        start = widths[0]
        for bwd, width in zip(callbacks[1:], widths[1:]):  # callbacks: a list of functions
            bwd(d_output[:, start : start + width])
            start += width
        return d_output

    return X, backprop


_Node = function_node.FunctionNode  # an alias of the framework's base, followed like an import


class Aliased(_Node):
    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        xp = backend.get_array_module(gy)
        out = xp.zeros((3,))
        out[0] = 1  # expect: SL102
        return out * gy,


def _tail_impl(x, dy):
    dx = np.zeros_like(x)
    dx[len(x) - 1] = dy  # expect: SL102
    return dx


tail_helper = _tail_impl  # a helper reached through an alias


def rrule_tail(x):
    def tail_pullback(dy):
        return (tail_helper(x, dy),)

    return x, tail_pullback
