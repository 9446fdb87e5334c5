"""The settings of a run: the ``Config`` object and the defaults an unconfigured run uses.

One frozen object travels through a run (and to worker processes), so every part sees the
same settings. Reading them from a file lives in ``config_files``, checking a table's values in
``config_table``; ``scalarlint.config`` gathers the three for importers.
"""

from __future__ import annotations

import fnmatch
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from scalarlint.analysis.frameworks import ARRAY_MODULES as FRAMEWORK_ARRAY_MODULES
from scalarlint.config_error import ConfigError

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
# Every array-namespace name the framework modules know (``xp``, ``np``, ``jnp``, ``mx`` for
# ``mlx.core``, ...): one list, kept in ``scalarlint.analysis.frameworks``.
DEFAULT_ARRAY_MODULES = FRAMEWORK_ARRAY_MODULES
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
        chosen = expand_codes(self.select)
        return frozenset(chosen - expand_codes(self.ignore))

    def codes_for_file(self, path: str) -> frozenset[str]:
        """Enabled codes minus ``per-file-ignores`` patterns matching ``path`` (relative to root).
        Without such patterns the path is not resolved (a system call per folder of it, twice
        per analysed file)."""
        if not self.per_file_ignores:
            return self.enabled_codes()
        codes = set(self.enabled_codes())
        rel = _relative(path, self.root)
        for pattern, ignored in self.per_file_ignores:
            if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(Path(rel).name, pattern):
                codes -= expand_codes(ignored)
        return frozenset(codes)

    def is_rule_name(self, name: str) -> bool:
        if name.startswith("test"):  # test_backward() is a pytest test, not a rule
            return False
        return name in self.rule_names or glob_matcher(tuple(self.rule_patterns))(name) is not None

    def with_overrides(self, **changes: Any) -> "Config":
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


@functools.lru_cache(maxsize=64)
def glob_matcher(patterns: tuple[str, ...]) -> Callable[[str], re.Match[str] | None]:
    """One regular expression matching what any of ``patterns`` matches (``fnmatchcase``'s
    own translation of each): the first pass asks it of every function name in the tree."""
    if not patterns:
        return lambda name: None
    return re.compile("|".join(f"(?:{fnmatch.translate(pattern)})" for pattern in patterns)).match


def _relative(path: str, root: str) -> str:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


def expand_codes(codes: tuple[str, ...] | list[str]) -> set[str]:
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
