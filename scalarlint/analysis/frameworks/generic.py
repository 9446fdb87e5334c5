"""A project's own ``Function``-like base (DeZero, tinygrad and micrograd styles): a class of the
checked tree that defines both ``forward`` and ``backward`` makes the ``forward`` and
``backward`` of its subclasses rules, wherever in the tree they live. ``_backward`` closures
(micrograd) are rules by name (``*_backward``)."""

from scalarlint.analysis.frameworks.base import ClassConvention, Framework

FUNCTION_LIKE = ClassConvention(bases=(), rule_methods=("backward",), forward_methods=("forward",))

FRAMEWORK = Framework(name="generic", function_bases=True)
