"""Paddle: ``paddle.autograd.PyLayer`` subclasses, ``forward(ctx, ...)`` and ``backward(ctx,
*grads)``; the forward saves with ``ctx.save_for_backward`` and the backward reads them back
with ``ctx.saved_tensor()`` (a method, not torch's property). ``.numpy()`` and ``.item()`` copy
to the host."""

from scalarlint.analysis.frameworks.base import STAR_ARRAYS, ClassConvention, Framework

FRAMEWORK = Framework(
    name="paddle",
    layer_bases=("paddle.nn.Layer",),
    classes=(
        ClassConvention(
            bases=("paddle.autograd.PyLayer", "paddle.autograd.py_layer.PyLayer", "paddle.autograd.PyLayerContext",
                   "paddle.fluid.dygraph.PyLayer"),
            rule_methods=("backward",),
            forward_methods=("forward",),
            params={"backward": (STAR_ARRAYS,)},
        ),
    ),
    array_modules=("paddle",),
    saved_methods=frozenset({"saved_tensor"}),
    host_methods=frozenset({"numpy"}),
)
