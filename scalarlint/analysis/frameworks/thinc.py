"""thinc: a layer's ``forward`` returns ``(Y, backprop)``; ``Ops`` subclasses implement the
gradients of their primitives as ``backprop_*`` methods."""

from scalarlint.analysis.frameworks.base import ClassConvention, Framework

FRAMEWORK = Framework(
    name="thinc",
    classes=(
        ClassConvention(
            bases=("thinc.api.Ops", "thinc.backends.Ops", "thinc.backends.ops.Ops", "Ops"),
            rule_method_prefixes=("backprop_",),
        ),
    ),
    returns_closure_rules=True,
)
