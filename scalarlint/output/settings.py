"""``--show-settings``: the configuration a run will use, and where it came from.

Printed as the ``[tool.scalarlint]`` keys a user would write (kebab-case, TOML values), with
the enabled checks resolved from ``select``/``ignore``, so a surprising result can be traced to
a setting.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from scalarlint.config import Config

def _toml(value: object) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # per-file-ignores
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value) + " }"
    if isinstance(value, tuple):
        return "[" + ", ".join(json.dumps(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def render_settings(config: Config, source: Path | None) -> str:
    lines = [
        f"# settings from {source}" if source else "# no configuration file found: the defaults",
        f"# paths are relative to {config.root}; lists are the effective ones (extend-* merged in)",
        "[tool.scalarlint]",
    ]
    for field in dataclasses.fields(config):
        if field.name != "root":
            lines.append(f"{field.name.replace('_', '-')} = {_toml(getattr(config, field.name))}")
    lines.append(f"# enabled checks: {', '.join(sorted(config.enabled_codes())) or 'none'}")
    return "\n".join(lines) + "\n"
