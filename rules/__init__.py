"""Reference AD rule set (installed as ``scalarlint.rules``)."""

RULES: dict = {}
