"""MXNet: ``mx.operator.CustomOp`` (``forward(is_train, req, in_data, out_data, aux)`` and
``backward(req, out_grad, in_data, out_data, in_grad, aux)``, lists of NDArrays beside a list
of write requests) and ``mx.autograd.Function`` (``forward(*inputs)``, ``backward(*grads)``).
``.asnumpy()`` copies a whole NDArray to the host, ``.asscalar()`` one element."""

from scalarlint.analysis.frameworks.base import ARRAYS, CONTAINER, FLAG, STAR_ARRAYS, ClassConvention, Framework

FRAMEWORK = Framework(
    name="mxnet",
    layer_bases=("mxnet.gluon.Block", "mxnet.gluon.HybridBlock"),
    classes=(
        ClassConvention(
            bases=("mxnet.operator.CustomOp", "mx.operator.CustomOp", "operator.CustomOp"),
            rule_methods=("backward",),
            forward_methods=("forward",),
            params={"backward": (CONTAINER, ARRAYS, ARRAYS, ARRAYS, ARRAYS, ARRAYS),
                    "forward": (FLAG, CONTAINER, ARRAYS, ARRAYS, ARRAYS)},
        ),
        ClassConvention(
            bases=("mxnet.autograd.Function", "mx.autograd.Function", "autograd.Function"),
            rule_methods=("backward",),
            forward_methods=("forward",),
            params={"backward": (STAR_ARRAYS,), "forward": (STAR_ARRAYS,)},
        ),
    ),
    array_modules=("mxnet", "mxnet.nd", "mxnet.ndarray", "mxnet.numpy", "nd"),
    host_methods=frozenset({"asnumpy"}),
    element_methods=frozenset({"asscalar"}),
    host_functions=frozenset({"asnumpy"}),
)
