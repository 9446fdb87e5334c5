"""The configuration reference, generated from ``Config`` itself.

The documentation site's configuration page is built from this module (docs/gen_pages.py), so a
setting added to ``Config`` without a line here fails the docs build instead of going
undocumented, and a default changed in ``Config`` changes the page with it: the page cannot
drift from the code the way a hand-written table does.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from scalarlint.config import Config
from scalarlint.config_table import EXTEND_KEYS

# Fields that are state of a run, not settings a user writes.
INTERNAL_FIELDS = frozenset({"root", "allow_scalar_import_configured"})

# Settings written as a TOML table rather than an array.
TABLE_SETTINGS = frozenset({"per-file-ignores"})

# One line per setting (kebab-case, as written in [tool.scalarlint]); the default comes from Config.
OPTION_HELP: dict[str, str] = {
    "select": "Checks to run: full codes (`SL101`), prefixes (`SL1`) or `ALL`. SL107 is opt-in.",
    "ignore": "Checks to leave out of `select`, by code or prefix.",
    "scope": "`rules`: only AD rules (and the helpers they call) are checked; `all`: every function.",
    "exclude": "Files and folders never checked (gitignore-style patterns). Replaces the default list; prefer `extend-exclude`.",
    "extend-exclude": "More patterns to exclude, on top of `exclude`.",
    "per-file-ignores": "A table of glob pattern = list of codes ignored in the files it matches.",
    "rule-names": "Function names that mark an AD rule.",
    "rule-patterns": "Glob patterns of function names that mark an AD rule.",
    "rule-base-classes": "Your own base classes whose `rule-methods` are AD rules (framework bases are known already).",
    "rule-methods": "Method names that are rules in a subclass of a rule base class.",
    "array-modules": "Names (aliases and module paths) of array modules: `xp.zeros(...)` makes an array.",
    "scalar-params": "Parameter names that are host scalars, never arrays.",
    "container-params": "Parameter names that are tuples or lists of arrays.",
    "allow-scalar-import": "The module the `allow_scalar` fix imports `allow_scalar` from: your own helper, such as the dependency-free one `scalarlint vendor` writes (no run-time dependency on scalarlint; imported relatively from files of its own package).",
    "respect-gitignore": "Skip files that `.gitignore` files ignore.",
    "file-time-limit": "Seconds per file and pass before the file is reported as SL003 instead of stalling the run; 0: no limit.",
    "cache-dir": "Where the cache lives; empty: `$XDG_CACHE_HOME/scalarlint`.",
    "cache-max-mb": "Size bound of the cache in MB; the least recently used entries go first. 0: no bound.",
    "cache-max-days": "Cache entries unused this many days are removed. 0: never.",
    "confidence": "The least confidence a finding needs to be reported: `high`, `medium` or `low`.",
    "baseline": "A baseline file (relative to the configuration's folder): only findings not in it are reported. Empty: none.",
    "target-version": "The oldest Python the checked code must parse with (`py39`, `3.9`); newer syntax is SL001. Empty: any.",
}


def setting_keys() -> list[str]:
    """The settings a user writes, in ``Config``'s order: one per public field."""
    return [f.name.replace("_", "-") for f in dataclasses.fields(Config) if f.name not in INTERNAL_FIELDS]


def undocumented() -> list[str]:
    """Settings without a line in ``OPTION_HELP``: the docs build refuses to run with any."""
    return [key for key in setting_keys() if key not in OPTION_HELP]


def _toml(value: Any, table: bool = False) -> str:
    """A default as it would be written in TOML (tuples as arrays; ``table``: pairs as an
    inline table, which an empty tuple cannot tell by itself)."""
    if table:
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]" if value else "[]"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)


def reference_markdown() -> str:
    """The configuration page: one section per setting with its default, then the ``extend-``
    forms. Raises ``ValueError`` naming any setting without documentation."""
    missing = undocumented()
    if missing:
        raise ValueError(f"settings without documentation in OPTION_HELP: {', '.join(missing)}")
    defaults = Config()
    out = [
        "# Configuration reference\n\n",
        ("Generated from `scalarlint.config.Config` (the settings and their defaults) and "
        "`scalarlint.settings_reference` (one line each). Settings go in a `[tool.scalarlint]` "
        "table of `pyproject.toml`, or at the top level of `.scalarlint.toml` / `scalarlint.toml`.\n"),
    ]
    for key in setting_keys():
        default = _toml(getattr(defaults, key.replace("-", "_")), table=key in TABLE_SETTINGS)
        out.append(f"\n## `{key}`\n\n{OPTION_HELP[key]}\n\nDefault:\n\n```toml\n{key} = {default}\n```\n")
    out.append("\n## Extending a list\n\nEach of these adds to the list it names instead of replacing it:\n\n")
    out.append("| setting | adds to |\n|---|---|\n")
    for key, attr in EXTEND_KEYS.items():
        out.append(f"| `{key}` | `{attr.replace('_', '-')}` |\n")
    return "".join(out)
