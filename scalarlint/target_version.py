"""``target-version``: the oldest Python whose grammar the checked code must parse with.

What it means for this tool: scalarlint reads any syntax up to Python 3.14, whatever Python
runs it (``analysis.syntax_versions``), because a finding does not depend on the grammar. A
project that must still run on an older Python sets ``target-version = "py39"`` (ruff's
spelling; ``3.9`` is accepted too), and a file that uses syntax newer than that (a ``match``
statement, ``except*``, a ``type`` alias, a parenthesised ``with``, ...) is reported as SL001
at the construct, as a file the target's parser rejects, instead of being checked as if
nothing were wrong.

The test is CPython's own ``ast.parse(feature_version=...)``, so it knows what the running
interpreter's parser knows, on a best-effort basis (as CPython documents it). A target above
the running Python's version cannot be tested by it and rejects nothing (scalarlint on
Python 3.11 with ``py312`` does not flag 3.13 syntax); run scalarlint on a Python at least as
new as the target for the full test. No target (the default) accepts every grammar.
"""

from __future__ import annotations

import ast
import re
import sys
from typing import Any

from scalarlint.config_error import ConfigError

OLDEST = (3, 7)  # the oldest feature_version CPython's parser knows
NEWEST = (3, 14)  # the newest grammar scalarlint reads (analysis.syntax_versions.NEWEST)
CHOICES = tuple(f"py3{minor}" for minor in range(OLDEST[1], NEWEST[1] + 1))

_SPELLING = re.compile(r"(?:py3(\d{1,2})|3\.(\d{1,2}))")


def parse_target_version(value: Any) -> str:
    """``py3X`` from ``py3X`` or ``3.X`` (any case); a ``ConfigError`` naming the choices
    otherwise."""
    match = _SPELLING.fullmatch(value.strip().lower()) if isinstance(value, str) else None
    minor = int(match.group(1) or match.group(2)) if match else -1
    if not OLDEST[1] <= minor <= NEWEST[1]:
        raise ConfigError(
            f"target-version must be one of {CHOICES[0]} ... {CHOICES[-1]} (or 3.{OLDEST[1]} ... 3.{NEWEST[1]}), not {value!r}"
        )
    return f"py3{minor}"


def version_tuple(target: str) -> tuple[int, int]:
    """``(3, X)`` of a validated ``py3X``."""
    return (3, int(target[3:]))


def grammar_error(text: str, target: str, filename: str) -> SyntaxError | None:
    """Where ``text`` uses syntax newer than ``target`` (a validated ``py3X``; "" for none),
    as the parser of that version says it; ``None`` when it does not, or when the running
    interpreter cannot tell (``target`` above its own version)."""
    if not target or version_tuple(target) > sys.version_info[:2]:
        return None
    try:
        ast.parse(text, filename=filename, feature_version=version_tuple(target))
    except SyntaxError as exc:
        exc.msg = f"{exc.msg} (target-version is {target})"
        return exc
    except (ValueError, RecursionError):
        return None
    return None
