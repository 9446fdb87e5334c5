"""thinc: a layer's ``forward`` returns ``(Y, backprop)``; ``Ops`` subclasses implement the
gradients of their primitives as ``backprop_*`` methods, and ``reduce_max`` is the forward of
``backprop_reduce_max``. Layers reach the backend through ``model.ops``."""

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
    receivers={"ops": ("thinc.backends.ops.Ops",)},  # model.ops.reduce_max(...), self.ops.alloc2f(...)
    constructors={
        **{f"alloc{n}{t}": n for n in range(1, 5) for t in ("f", "i")},
        **{f"asarray{n}{t}": n for n in range(1, 5) for t in ("f", "i")},
        **{f"reshape{n}{t}": n for n in range(1, 5) for t in ("f", "i")},
        "alloc": None, "allocf": None, "alloci": None, "asarray": None, "reshape": None,
    },
)
