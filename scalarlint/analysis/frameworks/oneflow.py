"""OneFlow: ``oneflow.autograd.Function``, the same shape as PyTorch's (``ctx.saved_tensors``,
``backward(ctx, *grads)``)."""

from scalarlint.analysis.frameworks.base import STAR_ARRAYS, ClassConvention, Framework

FRAMEWORK = Framework(
    name="oneflow",
    layer_bases=("oneflow.nn.Module",),
    classes=(
        ClassConvention(
            bases=("oneflow.autograd.Function", "flow.autograd.Function"),
            rule_methods=("backward",),
            forward_methods=("forward",),
            params={"backward": (STAR_ARRAYS,)},
        ),
    ),
    array_modules=("oneflow",),
    host_methods=frozenset({"numpy"}),
)
