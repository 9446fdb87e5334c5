"""Fixers: rewrite what a check found into GPU-friendly code (installed as ``scalarlint.fixers``).

The checker calls ``fixes_for(finding, analyzer)`` for every finding; it returns the fixes
(each a list of text edits with an applicability) that the fixers can offer for it.
``analyzer`` is the ``scalarlint.analysis.analyzer.FileAnalyzer`` of the file: it holds the
libcst module, its metadata (positions, parents, scopes), the inference
(``analyzer.context.inference``), the configuration and the source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scalarlint.diagnostics import Fix

if TYPE_CHECKING:
    from scalarlint.analysis.analyzer import FileAnalyzer
    from scalarlint.checks.base import Finding


def fixes_for(finding: "Finding", analyzer: "FileAnalyzer") -> tuple[Fix, ...]:
    """No fixer is registered yet: every finding is reported without a fix."""
    return ()
