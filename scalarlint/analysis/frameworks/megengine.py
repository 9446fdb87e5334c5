"""MegEngine: ``megengine.autograd.Function`` subclasses, ``forward(self, *inputs)`` and
``backward(self, *output_grads)``; state is kept on ``self``."""

from scalarlint.analysis.frameworks.base import STAR_ARRAYS, ClassConvention, Framework

FRAMEWORK = Framework(
    name="megengine",
    layer_bases=("megengine.module.Module",),
    classes=(
        ClassConvention(
            bases=("megengine.autograd.Function", "megengine.core.autodiff.grad.Function", "mge.autograd.Function"),
            rule_methods=("backward",),
            forward_methods=("forward",),
            params={"backward": (STAR_ARRAYS,), "forward": (STAR_ARRAYS,)},
        ),
    ),
    array_modules=("megengine", "megengine.functional"),
    host_methods=frozenset({"numpy"}),
)
