"""Configuration: defaults, the nearest configuration file, CLI overrides.

The file is found as ruff finds its own: walking up from the checked path, the first folder
that holds ``.scalarlint.toml``, ``scalarlint.toml`` or a ``pyproject.toml`` with a
``[tool.scalarlint]`` table wins, and within one folder in that order (a standalone file is
written for this tool alone, so it says more than a shared pyproject). The standalone files
hold the same keys at their top level, without the ``[tool.scalarlint]`` header.

One frozen object travels through a run (and to worker processes), so every part sees the
same settings.
"""

from __future__ import annotations

import fnmatch
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from scalarlint.analysis.frameworks import ARRAY_MODULES as FRAMEWORK_ARRAY_MODULES
from scalarlint.config_error import ConfigError
from scalarlint.diagnostics import CONFIDENCE_LEVELS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

ALL_CODES = ("SL101", "SL102", "SL103", "SL104", "SL105", "SL106", "SL107")
DEFAULT_SELECT = ("SL101", "SL102", "SL103", "SL104", "SL105", "SL106")

DEFAULT_RULE_NAMES = ("rrule", "frule", "pullback", "pushforward", "backprop")
DEFAULT_RULE_PATTERNS = (
    "*_pullback",
    "*_back",
    "*_vjp",
    "*_jvp",
    "*_pushforward",
    "rrule_*",
    "frule_*",
    "*_backward",
    "*_bwd",
)
# Framework conventions (torch, chainer, MyGrad, thinc, ...) live in scalarlint.analysis.frameworks;
# these are the user's own bases, whose ``rule-methods`` are rules.
DEFAULT_RULE_BASES: tuple[str, ...] = ()
DEFAULT_RULE_METHODS = ("backward", "jvp", "vjp", "backward_cpu", "backward_gpu")
DEFAULT_ARRAY_MODULES = tuple(dict.fromkeys((
    "np",
    "numpy",
    "xp",
    "cp",
    "cupy",
    "jnp",
    "jax.numpy",
    "torch",
    "anp",
    "autograd.numpy",
    "array_api_strict",
    "mx",
    "dpnp",
    *FRAMEWORK_ARRAY_MODULES,
)))
DEFAULT_SCALAR_PARAMS = (
    "axis",
    "axes",
    "dim",
    "dims",
    "p",
    "ord",
    "keepdims",
    "keepdim",
    "dtype",
    "shape",
    "size",
    "n",
    "ndim",
    "order",
    "k",
    "argnum",
    "argnums",
    "out_shape",
    "in_shape",
    "i",
    "j",
    "b",
    "idx",
    "index",
)
DEFAULT_CONTAINER_PARAMS = (
    "inputs",
    "outputs",
    "grad_outputs",
    "grad_inputs",
    "grads",
    "res",
    "residuals",
    "saved",
    "indexes",
    "target_input_indexes",
    "cotangents",
    "primals",
    "tangents",
    "xs",
    "gs",
)
DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "__pycache__",
    "build",
    "dist",
    "node_modules",
    "*.egg-info",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".ipynb_checkpoints",
)


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = DEFAULT_SELECT
    ignore: tuple[str, ...] = ()
    scope: str = "rules"
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    rule_names: tuple[str, ...] = DEFAULT_RULE_NAMES
    rule_patterns: tuple[str, ...] = DEFAULT_RULE_PATTERNS
    rule_base_classes: tuple[str, ...] = DEFAULT_RULE_BASES
    rule_methods: tuple[str, ...] = DEFAULT_RULE_METHODS
    array_modules: tuple[str, ...] = DEFAULT_ARRAY_MODULES
    scalar_params: tuple[str, ...] = DEFAULT_SCALAR_PARAMS
    container_params: tuple[str, ...] = DEFAULT_CONTAINER_PARAMS
    allow_scalar_import: str = "scalarlint.runtime"
    allow_scalar_import_configured: bool = False  # set in the configuration: adding it is wanted
    respect_gitignore: bool = True
    file_time_limit: float = 60.0  # seconds per file and pass; 0: none (scalarlint.time_limit)
    cache_dir: str = ""  # "" : $XDG_CACHE_HOME/scalarlint (scalarlint.cache)
    cache_max_mb: float = 256.0  # the cache's size bound (scalarlint.cache_limits); 0: none
    cache_max_days: float = 30.0  # entries unused this long are removed; 0: never
    confidence: str = "medium"  # the least confidence a finding needs to be reported (diagnostics.Confidence)
    baseline: str = ""  # a baseline file (scalarlint.baseline), relative to root; "": none
    target_version: str = ""  # "py38" ...: the oldest grammar checked files must parse with (scalarlint.target_version); "": any
    root: str = field(default=".", compare=False)

    def enabled_codes(self) -> frozenset[str]:
        chosen = _expand(self.select)
        return frozenset(chosen - _expand(self.ignore))

    def codes_for_file(self, path: str) -> frozenset[str]:
        """Enabled codes minus ``per-file-ignores`` patterns matching ``path`` (relative to root)."""
        codes = set(self.enabled_codes())
        rel = _relative(path, self.root)
        for pattern, ignored in self.per_file_ignores:
            if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(Path(rel).name, pattern):
                codes -= _expand(ignored)
        return frozenset(codes)

    def is_rule_name(self, name: str) -> bool:
        if name.startswith("test"):  # test_backward() is a pytest test, not a rule
            return False
        return name in self.rule_names or any(fnmatch.fnmatchcase(name, p) for p in self.rule_patterns)

    def with_overrides(self, **changes: Any) -> "Config":
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _relative(path: str, root: str) -> str:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _expand(codes: tuple[str, ...] | list[str]) -> set[str]:
    """``ALL``, a full code, or a prefix such as ``SL10`` or ``SL``."""
    out: set[str] = set()
    for raw in codes:
        code = raw.strip().upper()
        if not code:
            continue
        if code == "ALL":
            out.update(ALL_CODES)
            continue
        matched = {c for c in ALL_CODES if c.startswith(code)}
        if not matched:
            raise ConfigError(f"unknown check code {raw!r}; known: {', '.join(ALL_CODES)}")
        out |= matched
    return out


_LIST_KEYS = {
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
_EXTEND_KEYS = {
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
    if key in _LIST_KEYS:
        changes[_LIST_KEYS[key]] = tuple(_str_list(key, value))
        if key in ("select", "ignore"):
            _expand(changes[_LIST_KEYS[key]])
    elif key in _EXTEND_KEYS:
        attr = _EXTEND_KEYS[key]
        changes[attr] = tuple(changes.get(attr, getattr(cfg, attr))) + tuple(_str_list(key, value))
        if key == "extend-select":
            _expand(_str_list(key, value))
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
            _expand(codes)
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
