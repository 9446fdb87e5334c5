"""scalarlint: keep automatic-differentiation rules GPU-compatible.

This package root stays import-light on purpose: rule authors import
``scalarlint.runtime`` in their own code, and that must not pull in the
checker's dependencies (libcst, astroid, click).
"""

# The one place the version is written: the wheel's metadata reads it from here
# ([tool.setuptools.dynamic] in pyproject.toml), and so do ``--version`` and the cache key.
# A literal, not importlib.metadata: reading the installed metadata would cost every
# ``import scalarlint.runtime`` a scan of sys.path, and a source checkout has none.
__version__ = "0.1.0"
