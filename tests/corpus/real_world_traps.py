"""False positives met on HIPS/autograd and chainer/chainer, rewritten as small cases.

Each line here was once reported; none of them reads one element of a device array.
"""
import numpy as onp
import numpy as np
from autograd.extend import defvjp, defvjp_argnum
from chainer import function_node


def grad_sequence_extend_right(argnum, ans, args, kwargs):
    seq = args[0]
    return lambda g: g[: len(seq)] if argnum == 0 else g[argnum - 1]  # g is a list of cotangents


def grad_einsum(argnum, ans, operands_, kwargs):
    def vjp(g):
        operands = list(operands_)  # the primitive's positional arguments: a tuple
        return g * len(operands)

    return vjp


def make_rfft_factors(axes, normshape):
    N = 1.0
    for n in normshape:  # a helper's parameter that is a shape
        N = N * n
    return N


def dot_adjoint_0(B, G, A_meta, B_meta):
    _, A_ndim, A_dtype, _ = A_meta
    _, B_ndim, _, _ = B_meta
    contract_num = max(0, B_ndim - (A_ndim != 0))  # max of two host ints
    return onp.tensordot(G, B, contract_num)


def grad_broadcast_to(ans, x, new_shape):
    old_shape = onp.shape(x)
    axes = tuple(onp.where(onp.logical_and(onp.array(old_shape) == 1, onp.array(new_shape) > 1))[0])  # shapes
    return lambda g: onp.sum(g, axis=axes, keepdims=True) + make_rfft_factors(axes, old_shape)


defvjp(onp.sum, grad_sequence_extend_right, dot_adjoint_0, grad_broadcast_to)
defvjp_argnum(onp.einsum, grad_einsum)


class SpatialSampler(function_node.FunctionNode):
    def backward(self, indices, grad_outputs):
        x, grid = self.get_retained_inputs()
        (gy,) = grad_outputs
        B, C, H, W = x.shape
        v0 = np.floor(grid[:, 1]).astype(np.int32)
        rows = np.concatenate([v0[b] for b in range(B)])  # v0[b] is a slab of a batch
        out = [gy * i for i in indices]  # indices: a tuple of ints
        return tuple(out) + (rows,)

    def backward_cpu(self, inputs, gy):
        rois, roi_indices = inputs[1:]
        n_rois = rois.shape[0]
        for i_roi in range(n_rois):  # expect: SL104
            ymin, xmin, ymax, xmax = rois[i_roi]  # expect: SL104
        return gy


class LinkTestCase:
    def test_backward(self, x):
        def forward(inputs, ps):
            for p in ps:  # a test named *_backward is not an AD rule
                pass
            return x[len(x) - 1]

        return forward
