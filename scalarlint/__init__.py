"""scalarlint: keep automatic-differentiation rules GPU-compatible.

This package root stays import-light on purpose: rule authors import
``scalarlint.runtime`` in their own code, and that must not pull in the
checker's dependencies (libcst, astroid, click).
"""

__version__ = "0.1.0"
