"""Code for a subprocess that must run as where scalarlint is not installed: prepended to the
script, its meta-path finder makes every ``import scalarlint...`` fail."""

import textwrap

BLOCK_SCALARLINT = textwrap.dedent(
    """
    import sys

    class _NoScalarlint:
        def find_spec(self, name, path=None, target=None):
            if name == "scalarlint" or name.startswith("scalarlint."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, _NoScalarlint())
    """
)
