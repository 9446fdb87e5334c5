"""Theano, Aesara and PyTensor ``Op`` subclasses: ``perform(node, inputs, output_storage)``
computes on arrays (GPU arrays under a GPU backend) and writes results into storage cells
(``output_storage[0][0] = z``: a Python list, not an array); ``grad(inputs, output_grads)``,
``L_op`` and ``R_op`` build the symbolic gradient, where ``x[i]`` is still one element of a
device tensor. An op that declares its input types (``itypes = [pt.dvector, pt.dmatrix]``) gives
``perform``'s arrays their ranks."""

from scalarlint.analysis.frameworks.base import ARRAYS, CONTAINER, OBJECT, ClassConvention, Framework

FRAMEWORK = Framework(
    name="pytensor",
    classes=(
        ClassConvention(
            bases=("pytensor.graph.op.Op", "pytensor.graph.Op", "pytensor.link.c.op.COp", "pytensor.tensor.Op",
                   "aesara.graph.op.Op", "aesara.graph.Op", "theano.Op", "theano.gof.Op", "theano.graph.op.Op",
                   "pytensor.compile.ops.FromFunctionOp", "pytensor.graph.basic.Apply", "Op", "COp"),
            rule_methods=("grad", "L_op", "R_op", "pullback", "pushforward"),
            forward_methods=("perform",),
            params={"perform": (OBJECT, ARRAYS, CONTAINER), "grad": (ARRAYS, ARRAYS),
                    "L_op": (ARRAYS, ARRAYS, ARRAYS), "R_op": (ARRAYS, ARRAYS)},
            needs_rule_method=True,
            call_methods=("perform",),
            declared_inputs={"perform": ("itypes", 1)},
            type_ranks={"scalar": 0, "vector": 1, "row": 2, "col": 2, "matrix": 2, "tensor3": 3, "tensor4": 4,
                        "tensor5": 5, "tensor6": 6, "tensor7": 7},
        ),
    ),
    array_modules=("pytensor.tensor", "aesara.tensor", "theano.tensor"),
)
