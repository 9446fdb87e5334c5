"""``python -m scalarlint``: the same command line as the ``scalarlint`` script."""

from scalarlint.cli import main

main()
