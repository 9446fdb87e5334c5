"""libcst's parse without validating, node by node, what its own parser has just produced.

Every libcst node runs ``_validate`` when it is constructed (``CSTNode.__post_init__``): the
check that a hand-built tree is one libcst can print back as valid Python (a keyword has the
whitespace it needs, parentheses match, ...). A tree from libcst's parser is such a tree by
construction, so for parsing the check only costs: about a sixth of ``parse_module``'s time
on real code. ``parse_without_validation`` parses with the check switched off for the calling
thread; every other construction (fixers building nodes, other threads) still validates.
"""

from __future__ import annotations

import threading
from typing import Any

import libcst as cst

_parsing = threading.local()
_validating_post_init = cst.CSTNode.__post_init__


def _post_init(self: cst.CSTNode) -> None:
    if not getattr(_parsing, "active", False):
        self._validate()


def parse_without_validation(text: str, **config: Any) -> cst.Module:
    """``cst.parse_module(text, **config)`` with node validation off in this thread."""
    _install()
    _parsing.active = True
    try:
        return cst.parse_module(text, **config)
    finally:
        _parsing.active = False


def _install() -> None:
    """Route ``CSTNode.__post_init__`` through the per-thread switch (idempotent); a libcst
    whose nodes validate elsewhere is left alone (its parse is then libcst's own)."""
    if cst.CSTNode.__dict__.get("__post_init__") is _validating_post_init:
        cst.CSTNode.__post_init__ = _post_init  # type: ignore[method-assign]
