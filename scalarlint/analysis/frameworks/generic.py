"""Rules found by their structure when no framework module names their base.

- A project's own ``Function``-like base (DeZero, tinygrad and micrograd styles): a class of
  the checked tree that defines both ``forward`` and ``backward`` makes the ``forward`` and
  ``backward`` of its subclasses rules, wherever in the tree they live. ``_backward`` closures
  (micrograd) are rules by name (``*_backward``).
- A class that defines a gradient method (``backward``, ``bprop``, ``grad``, ``L_op``,
  ``pullback``, ``vjp``) beside the forward it differentiates (``forward``, ``construct``,
  ``perform``), whatever its base: the shape of every framework's custom rule, the next
  framework included.
"""

from scalarlint.analysis.frameworks.base import ClassConvention, Framework

FUNCTION_LIKE = ClassConvention(bases=(), rule_methods=("backward",), forward_methods=("forward",))

STRUCTURAL = ClassConvention(
    bases=(),
    rule_methods=("backward", "bprop", "grad", "L_op", "pullback", "vjp", "backward_var"),
    forward_methods=("forward", "construct", "perform"),
)

FRAMEWORK = Framework(
    name="generic",
    function_bases=True,
    array_modules=("xp", "onp"),
    numpy_like_imports={
        "numpy": "np",
        "cupy": "cp",
        "autograd.numpy": "anp",
        "array_api_strict": "array_api_strict",
        "dpnp": "dpnp",
        "mlx.core": "mx",
    },
)
