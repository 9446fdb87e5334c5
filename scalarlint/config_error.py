"""The one error a configuration raises, in a module of its own so that the modules the
configuration reads values with (``target_version``) can raise it without importing the
configuration back."""

from __future__ import annotations


class ConfigError(ValueError):
    """A configuration that cannot be used; the CLI turns it into exit code 2. ``key``: the
    option at fault, when one is (so a message can point at its line)."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key
