"""Fixers: rewrite what a check found into GPU-friendly code (installed as ``scalarlint.fixers``).

The analysis reports findings; the engine (``scalarlint.file_passes``) then calls
``fixes_and_reason`` for every reported finding (the analysis itself never imports the fixers); ``fixes_for(finding, analyzer)`` returns the fixes
(each a list of text edits with an applicability, safe or unsafe in ruff's sense) that the
fixers can offer for it. ``analyzer`` is the file as the fixers may see it, the narrow view
``scalarlint.analysis.file_view.AnalyzedFile``: the libcst module, its metadata (positions,
parents, scopes), the loop facts and value kinds the checks worked out
(``analyzer.context``, ``analyzer.context.inference``), the configuration and the source.

One module per fix kind, each documenting what it rewrites, when it is offered and why it is
safe or not:

- ``device_index``: drops ``int()`` around an ``argmax`` index used only to index (SL101, SL102);
- ``slice_view``: size-1 slice views for one-element reads and writes (SL101, SL102);
- ``zero_d_view``: 0-d views ``xp.reshape(x[i:i + 1 or None], ())`` for kept element reads (SL101);
- ``allow_scalar_block``: ``with allow_scalar():`` around one statement (SL101, SL102, SL105);
- ``allow_scalar_header``: the test of an ``if``/``while`` header computed in ``with allow_scalar():`` as a flag (SL101, SL105);
- ``host_copy``: one ``to_host`` copy before a loop that reads elements of arrays it never writes (SL101, SL104, SL105);
- ``iterated_copy``: ``for el in to_host(x)``, a loop iterating a host copy of the array it walks (SL104, SL105);
- ``element_loop``: whole-array statements for loops over one element at a time (SL101, SL102);
- ``running_scan``: ``cumsum``/``cumprod`` (with flips) for running sums and products (SL101, SL102);
- ``product_of_others``: two exclusive ``cumprod`` for per-element products of the others (SL101, SL102, SL104);
- ``suffix_sum``: one ``cumsum`` for per-element suffix or prefix sums in nested loops (SL101, SL102, SL104);
- ``outer_sum``: one matrix product for loops summing outer products (SL101, SL104);
- ``scatter_add``: one ``index_add`` call for scatter-add loops (SL101, SL102);
- ``vectorized_search``: ``argmax`` of a mask for findfirst/findlast searches (SL103);
- ``mask_where``: ``xp.where`` for boolean-mask writes and masked sums (SL106);
- ``while_search``: ``argmax`` of a mask for ``while`` index searches (SL101, SL103);
- ``array_reduction``: ``xp.sum``/``xp.max``/... for builtin reductions over arrays (SL104).

There is no table of fixers here: each check lists its own, by module name and in preference
order (``CheckInfo.fixers`` in ``scalarlint/checks/slNNN_*.py``), and ``BY_CODE_FIXERS`` is
built from those lists, so that adding a fixer is one module plus one line in its check.

``scalarlint.fixers.engine.fix_source`` applies them (check, fix, re-check until nothing
changes); the CLI's ``--fix``/``--diff`` and the LSP server's "fix all" both go through it.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from scalarlint.checks import BY_CODE
from scalarlint.diagnostics import Fix

from .outcomes import Declined

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

# A fixer returns its fixes, or ``Declined(reason)`` when it matched and knows why it makes none.
FixerFunc = Callable[["Finding", "AnalyzedFile"], "list[Fix] | Declined"]


def _fixers_by_code() -> dict[str, tuple[FixerFunc, ...]]:
    """Each code's fixers, in the preference order its check lists them (``CheckInfo.fixers``):
    the check names them, so that a new fixer is one module plus one line in its check."""
    return {
        code: tuple(importlib.import_module(f"{__name__}.{name}").fixes for name in check.INFO.fixers)
        for code, check in BY_CODE.items()
    }


BY_CODE_FIXERS: dict[str, tuple[FixerFunc, ...]] = _fixers_by_code()


def _every_fixer() -> tuple[tuple[frozenset[str], FixerFunc], ...]:
    """Every fixer once, with the codes it serves (for listings: the docs site, the fixture tests)."""
    codes: dict[FixerFunc, set[str]] = {}
    for code, funcs in BY_CODE_FIXERS.items():
        for func in funcs:
            codes.setdefault(func, set()).add(code)
    return tuple((frozenset(served), func) for func, served in codes.items())


FIXERS: tuple[tuple[frozenset[str], FixerFunc], ...] = _every_fixer()

_log = logging.getLogger(__name__)


def fixes_for(finding: Finding, analyzer: AnalyzedFile) -> tuple[Fix, ...]:
    """Every fix the fixers offer for ``finding``, safe ones first."""
    return _answers(finding, analyzer)[0]


def _answers(finding: Finding, analyzer: AnalyzedFile) -> tuple[tuple[Fix, ...], str | None]:
    """The fixes the fixers offer for ``finding`` (safe ones first), and the first reason a
    fixer gave for declining (``Declined``), in the check's preference order."""
    out: list[Fix] = []
    declined: str | None = None
    for fixer in BY_CODE_FIXERS.get(finding.code, ()):
        try:
            answer = fixer(finding, analyzer)
            if isinstance(answer, Declined):
                declined = declined or answer.reason
            else:
                out.extend(answer)
        except Exception:  # pragma: no cover - a bug in a fixer; logged, never fatal
            # A fixer that fails on odd code must not take the whole check run down with it;
            # tests set SCALARLINT_FIXER_ERRORS=raise to see such failures.
            if os.environ.get("SCALARLINT_FIXER_ERRORS") == "raise":
                raise
            _log.warning("fixer %s failed on %s", fixer.__module__, analyzer.source.path, exc_info=True)
    out.sort(key=lambda fix: (fix.applicability.value != "safe", fix.fallback))
    return tuple(out), declined


def fixes_and_reason(finding: Finding, analyzer: AnalyzedFile) -> tuple[tuple[Fix, ...], str | None]:
    """What the engine asks for each reported finding: its fixes, or why there are none (the
    reason of the first fixer, in the check's preference order, that declined)."""
    fixes, declined = _answers(finding, analyzer)
    return fixes, (None if fixes else declined)
