"""chainer: ``Function`` and ``FunctionNode`` subclasses.

``backward``, ``backward_cpu`` and ``backward_gpu`` are the rules; the ``forward*`` methods run on
the same arrays and store what the backward reads (``self.argmax = xp.empty(...)``), and a
``FunctionNode`` often computes a gradient in the forward of a helper node. Inputs, outputs and
cotangents arrive as tuples of arrays; ``FunctionNode.backward`` gets a tuple of input indexes.
``cuda.to_cpu(x)`` (``chainer.backend.to_cpu``) copies a CuPy array to the host.
"""

from scalarlint.analysis.frameworks.base import ARRAYS, INDEXES, ClassConvention, Framework

FRAMEWORK = Framework(
    name="chainer",
    classes=(
        ClassConvention(
            bases=("chainer.Function", "chainer.function.Function", "function.Function"),
            rule_methods=("backward", "backward_cpu", "backward_gpu"),
            forward_methods=("forward", "forward_cpu", "forward_gpu"),
            params={"backward": (ARRAYS, ARRAYS), "backward_cpu": (ARRAYS, ARRAYS), "backward_gpu": (ARRAYS, ARRAYS),
                    "forward": (ARRAYS,), "forward_cpu": (ARRAYS,), "forward_gpu": (ARRAYS,)},
        ),
        ClassConvention(
            bases=("chainer.FunctionNode", "chainer.function_node.FunctionNode", "function_node.FunctionNode"),
            rule_methods=("backward", "backward_cpu", "backward_gpu"),
            forward_methods=("forward", "forward_cpu", "forward_gpu", "forward_chainerx"),
            params={"backward": (INDEXES, ARRAYS), "forward": (ARRAYS,), "forward_cpu": (ARRAYS,),
                    "forward_gpu": (ARRAYS,), "forward_chainerx": (ARRAYS,)},
        ),
    ),
    host_functions=frozenset({"to_cpu"}),
)
