"""MindSpore: a ``Cell`` with a ``bprop(self, *inputs, out, dout)`` method defines its own
gradient (its ``construct`` is the forward); ``@bprop_getters.register(P.Op)`` registers a
function returning the ``bprop`` closure of a primitive. Only cells that define ``bprop`` are
rules: every cell has a ``construct``."""

from scalarlint.analysis.frameworks.base import ClassConvention, Framework

FRAMEWORK = Framework(
    name="mindspore",
    layer_bases=("mindspore.nn.Cell",),
    classes=(
        ClassConvention(
            bases=("mindspore.nn.Cell", "nn.Cell", "mindspore.nn.cell.Cell", "ms.nn.Cell"),
            rule_methods=("bprop",),
            forward_methods=("construct",),
            needs_rule_method=True,
        ),
    ),
    rule_decorators=frozenset({"bprop_getters.register", "bprop_getter.register", "get_bprop_fn",
                               "_bprop_getters.register", "bprop_getters_register"}),
    array_modules=("mindspore", "mindspore.ops", "mindspore.numpy"),
    host_methods=frozenset({"asnumpy"}),
)
