"""The generated pages' sources: every setting documented and accepted, fixer docstrings
converted faithfully."""

from __future__ import annotations

import sys

from site_build import REPO

from scalarlint.config import ConfigError, config_from_table
from scalarlint.settings_reference import (
    OPTION_HELP,
    reference_markdown,
    setting_keys,
    undocumented,
)

sys.path.insert(0, str(REPO / "docs"))
from docstring_md import docstring_markdown, summary_and_body


def test_every_setting_is_documented() -> None:
    assert undocumented() == []
    assert set(OPTION_HELP) == set(setting_keys()), "OPTION_HELP documents a setting Config does not have"


def test_every_documented_setting_is_one_the_configuration_accepts() -> None:
    """The reference must not list a key that ``[tool.scalarlint]`` rejects as unknown."""
    for key in setting_keys():
        try:
            config_from_table({key: object()}, ".")
        except ConfigError as exc:
            assert "unknown option" not in str(exc), key


def test_reference_shows_defaults_from_config() -> None:
    text = reference_markdown()
    assert 'scope = "rules"' in text and "cache-max-mb = 256" in text and "per-file-ignores = {}" in text
    assert "| `extend-select` | `select` |" in text


def test_docstring_sections_and_literal_blocks() -> None:
    doc = (
        "Summary with ``code``\non two lines.\n\n"
        "What it rewrites\n    A loop::\n\n        for i in range(n):\n            x[i] = 0\n\n"
        "    after the block.\n\nApplicability\n    Safe.\n"
    )
    summary, body = summary_and_body(doc)
    assert summary == "Summary with ``code`` on two lines."
    assert docstring_markdown(body) == (
        "## What it rewrites\n\nA loop:\n\n```python\nfor i in range(n):\n    x[i] = 0\n```\n\n"
        "after the block.\n\n## Applicability\n\nSafe.\n"
    )
