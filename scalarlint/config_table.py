"""A ``[tool.scalarlint]`` table into a ``Config``: each option's value checked and converted.

Kept apart from finding and reading the file (``config_files``): the language server applies
its editor-side options with it too, on top of the file's settings.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scalarlint.config_error import ConfigError
from scalarlint.config_model import Config, expand_codes
from scalarlint.diagnostics import CONFIDENCE_LEVELS

LIST_KEYS = {
    "select": "select",
    "ignore": "ignore",
    "exclude": "exclude",
    "extend-exclude": "extend_exclude",
    "rule-names": "rule_names",
    "rule-patterns": "rule_patterns",
    "rule-base-classes": "rule_base_classes",
    "rule-methods": "rule_methods",
    "array-modules": "array_modules",
    "scalar-params": "scalar_params",
    "container-params": "container_params",
}
EXTEND_KEYS = {
    "extend-rule-names": "rule_names",
    "extend-rule-patterns": "rule_patterns",
    "extend-rule-base-classes": "rule_base_classes",
    "extend-array-modules": "array_modules",
    "extend-scalar-params": "scalar_params",
    "extend-container-params": "container_params",
    "extend-select": "select",
}


def config_from_table(table: dict[str, Any], root: str, base: Config | None = None) -> Config:
    """Build a Config from a ``[tool.scalarlint]`` table (keys in kebab-case); a value of the
    wrong type, an unknown code or an unknown option raises ``ConfigError`` naming its key."""
    cfg = base or Config()
    changes: dict[str, Any] = {"root": root}
    for key, value in table.items():
        try:
            _apply_option(changes, cfg, key, value)
        except ConfigError as exc:
            raise ConfigError(str(exc), key=exc.key or key) from exc
    return replace(cfg, **changes)


def _apply_option(changes: dict[str, Any], cfg: Config, key: str, value: Any) -> None:
    """One ``[tool.scalarlint]`` option into ``changes`` (attribute -> value), validated."""
    if key in LIST_KEYS:
        changes[LIST_KEYS[key]] = tuple(_str_list(key, value))
        if key in ("select", "ignore"):
            expand_codes(changes[LIST_KEYS[key]])
    elif key in EXTEND_KEYS:
        attr = EXTEND_KEYS[key]
        changes[attr] = tuple(changes.get(attr, getattr(cfg, attr))) + tuple(_str_list(key, value))
        if key == "extend-select":
            expand_codes(_str_list(key, value))
    elif key == "scope":
        changes["scope"] = _scope(value)
    elif key == "allow-scalar-import":
        if not isinstance(value, str):
            raise ConfigError("allow-scalar-import must be a module path string")
        changes["allow_scalar_import"] = value
        changes["allow_scalar_import_configured"] = True
    elif key == "cache-dir":
        if not isinstance(value, str) or not value:
            raise ConfigError("cache-dir must be a folder path string")
        changes["cache_dir"] = value
    elif key in ("cache-max-mb", "cache-max-days"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ConfigError(f"{key} must be a number, 0 or more (0: no bound), not {value!r}")
        changes[key.replace("-", "_")] = float(value)
    elif key == "respect-gitignore":
        if not isinstance(value, bool):
            raise ConfigError(f"respect-gitignore must be true or false, not {value!r}")
        changes["respect_gitignore"] = value
    elif key == "file-time-limit":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ConfigError("file-time-limit must be a number of seconds (0: no limit)")
        changes["file_time_limit"] = float(value)
    elif key == "confidence":
        changes["confidence"] = confidence_level(value)
    elif key == "target-version":
        from scalarlint.target_version import parse_target_version

        changes["target_version"] = parse_target_version(value)
    elif key == "baseline":
        if not isinstance(value, str) or not value:
            raise ConfigError("baseline must be a file path string")
        changes["baseline"] = value
    elif key == "per-file-ignores":
        if not isinstance(value, dict):
            raise ConfigError("per-file-ignores must be a table of pattern = [codes]")
        changes["per_file_ignores"] = tuple((str(k), tuple(_str_list(key, v))) for k, v in value.items())
        for _, codes in changes["per_file_ignores"]:
            expand_codes(codes)
    else:
        raise ConfigError(f"unknown option {key!r}")


def _scope(value: Any) -> str:
    if value not in ("rules", "all"):
        raise ConfigError(f"scope must be 'rules' or 'all', not {value!r}")
    return str(value)


def confidence_level(value: Any) -> str:
    """``high``, ``medium`` or ``low`` (any case), else a ``ConfigError`` naming the choices."""
    if not isinstance(value, str) or value.lower() not in CONFIDENCE_LEVELS:
        raise ConfigError(f"confidence must be one of {', '.join(repr(v) for v in CONFIDENCE_LEVELS)}, not {value!r}")
    return value.lower()


def _str_list(key: str, value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{key} must be a list of strings")
    return list(value)
