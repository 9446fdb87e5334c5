"""Finding and reading the configuration file.

The file is found as ruff finds its own: walking up from the checked path, the first folder
that holds ``.scalarlint.toml``, ``scalarlint.toml`` or a ``pyproject.toml`` with a
``[tool.scalarlint]`` table wins, and within one folder in that order (a standalone file is
written for this tool alone, so it says more than a shared pyproject). The standalone files
hold the same keys at their top level, without the ``[tool.scalarlint]`` header.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from scalarlint.config_error import ConfigError
from scalarlint.config_model import Config
from scalarlint.config_table import config_from_table

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


STANDALONE_NAMES = (".scalarlint.toml", "scalarlint.toml")  # in this order of precedence, as ruff's
CONFIG_FILE_NAMES = (*STANDALONE_NAMES, "pyproject.toml")


def find_config(start: Path) -> Path | None:
    """The nearest configuration file at or above ``start``: in each folder, ``.scalarlint.toml``,
    then ``scalarlint.toml``, then a ``pyproject.toml`` with a ``[tool.scalarlint]`` table.

    A standalone file is taken whatever it holds (an empty one means the defaults, and keeps a
    configuration further up from applying). A file on the way that is not valid TOML stops the
    search with a ``ConfigError`` (its path, line and column), as ruff does: whether it meant
    to configure scalarlint cannot be told, and running with the defaults instead would hide
    the mistake."""
    here = start.resolve()
    if here.is_file():
        here = here.parent
    for folder in (here, *here.parents):
        for name in STANDALONE_NAMES:
            if (folder / name).is_file():
                return folder / name
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and "scalarlint" in _tool_tables(candidate):
            return candidate
    return None


find_pyproject = find_config  # the older name


def _tool_tables(path: Path) -> dict[str, Any]:
    tool = read_toml(path).get("tool", {})
    return tool if isinstance(tool, dict) else {}


def read_toml(path: Path) -> dict[str, Any]:
    """The parsed file; ``ConfigError`` naming the file (and, from tomllib, the line and
    column) when it cannot be read or is not TOML."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if reason.endswith("(at end of document)"):  # tomllib names no line there: the last one is
            reason = reason[: -len(")")] + f", line {_line_count(path)})"
        raise ConfigError(f"cannot read config {path}: {reason}") from exc


def _line_count(path: Path) -> int:
    try:
        return max(1, len(path.read_bytes().splitlines()))
    except OSError:
        return 1


def load_config(start: Path | None = None, config_file: Path | None = None) -> Config:
    """Config from ``config_file`` (a pyproject.toml or a scalarlint.toml), else the nearest
    configuration file (``find_config``), else the defaults rooted at ``start``."""
    if config_file is not None:
        return _from_file(_table_of(config_file, read_toml(config_file)), config_file)
    found = find_config(start or Path.cwd())
    if found is None:
        return Config(root=str((start or Path.cwd()).resolve() if (start or Path.cwd()).is_dir() else (start or Path.cwd()).resolve().parent))
    return _from_file(_table_of(found, read_toml(found)), found)


def _table_of(path: Path, data: dict[str, Any]) -> Any:
    """The settings in a parsed file: ``[tool.scalarlint]`` of a pyproject.toml; the whole of a
    standalone file (a ``[tool.scalarlint]`` table in one is read too, for a file named with
    ``--config`` that was copied from a pyproject)."""
    if path.name == "pyproject.toml" or "tool" in data:
        tool = data.get("tool", {})
        return tool.get("scalarlint", {}) if isinstance(tool, dict) else {}
    return data


def _from_file(table: Any, path: Path) -> Config:
    """``config_from_table`` with the file (and the line of the offending key, where it can be
    found) in the message of a value of the wrong type or an unknown option."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {'[tool.scalarlint]' if path.name == 'pyproject.toml' else 'the configuration'} must be a table")
    try:
        return config_from_table(table, str(path.resolve().parent))
    except ConfigError as exc:
        line = _key_line(path, exc.key) if exc.key else None
        raise ConfigError(f"{path}{f':{line}' if line else ''}: {exc}") from exc


def _key_line(path: Path, key: str) -> int | None:
    """The line of ``key = ...`` in the file's ``[tool.scalarlint]`` part (a best effort for
    messages: tomllib reports no positions of values)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    standalone = path.name != "pyproject.toml"  # a scalarlint.toml is all ours
    inside = standalone
    pattern = re.compile(rf"""\s*["']?{re.escape(key)}["']?\s*=""")
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("[") and not standalone:
            inside = stripped.strip("[] ").startswith("tool.scalarlint")
        elif stripped.startswith("[") and stripped.strip("[] ") == key:
            return number  # a table key of a standalone file: [per-file-ignores]
        elif inside and pattern.match(line):
            return number
    return None
