"""Configuration: defaults, the nearest configuration file, CLI overrides.

The one place to import settings from. The parts live in modules with one job each:

* ``config_model``: the frozen ``Config`` a run carries (to worker processes too, so every
  part sees the same settings) and the defaults of an unconfigured run;
* ``config_table``: a ``[tool.scalarlint]`` table's options, checked and turned into a
  ``Config``;
* ``config_files``: finding the nearest configuration file (as ruff finds its own) and
  reading it.
"""

from __future__ import annotations

from scalarlint.config_error import ConfigError
from scalarlint.config_files import (
    CONFIG_FILE_NAMES,
    STANDALONE_NAMES,
    find_config,
    find_pyproject,
    load_config,
    read_toml,
)
from scalarlint.config_model import (
    ALL_CODES,
    DEFAULT_ARRAY_MODULES,
    DEFAULT_CONTAINER_PARAMS,
    DEFAULT_EXCLUDE,
    DEFAULT_RULE_BASES,
    DEFAULT_RULE_METHODS,
    DEFAULT_RULE_NAMES,
    DEFAULT_RULE_PATTERNS,
    DEFAULT_SCALAR_PARAMS,
    DEFAULT_SELECT,
    Config,
)
from scalarlint.config_table import confidence_level, config_from_table

__all__ = [
    "ALL_CODES",
    "CONFIG_FILE_NAMES",
    "DEFAULT_ARRAY_MODULES",
    "DEFAULT_CONTAINER_PARAMS",
    "DEFAULT_EXCLUDE",
    "DEFAULT_RULE_BASES",
    "DEFAULT_RULE_METHODS",
    "DEFAULT_RULE_NAMES",
    "DEFAULT_RULE_PATTERNS",
    "DEFAULT_SCALAR_PARAMS",
    "DEFAULT_SELECT",
    "STANDALONE_NAMES",
    "Config",
    "ConfigError",
    "confidence_level",
    "config_from_table",
    "find_config",
    "find_pyproject",
    "load_config",
    "read_toml",
]
