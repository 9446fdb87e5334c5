"""MyGrad: ``Operation`` subclasses compute gradients in ``backward_var(grad, index)``; their
``__call__`` is the forward whose saved arrays the backward reads."""

from scalarlint.analysis.frameworks.base import ARRAY, INT, ClassConvention, Framework

FRAMEWORK = Framework(
    name="mygrad",
    classes=(
        ClassConvention(
            bases=("mygrad.operation_base.Operation", "mygrad.Operation", "operation_base.Operation"),
            rule_methods=("backward_var",),
            forward_methods=("__call__",),
            params={"backward_var": (ARRAY, INT)},
        ),
    ),
)
