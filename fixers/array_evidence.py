"""Whether a value is an array by evidence, before a fix rewrites it as one.

A check may report ``lst[i]`` on a guess: under ``--scope all`` an unannotated parameter (or an
attribute set from one, ``self.in_vars = in_vars``) is taken for an array, because missing a
sync costs more than a false report. A fix cannot guess: ``self.in_vars[:] = None`` raises
``TypeError`` on the Python list the loop was filling, and ``xp.sum(items, axis=0)`` fails on a
list of objects. So every fixer that turns element code into whole-array code (slices, masks,
``argmax``, reductions, gathers) asks this module, which reads the inference's own verdict:
an ``ARRAY`` kind with no ``doubt`` (an array function's result, a named rule's parameter, a
cotangent of one, an annotation), never one that is an array only by the naming conventions
or because it is a parameter. The scope of the run plays no part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.kinds import Doubt, Tag

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile


def known_array(analyzer: AnalyzedFile, expr: cst.BaseExpression) -> bool:
    """``expr`` is an array by the analysis's evidence, not by a guess."""
    kind = analyzer.context.inference.kind(expr)
    return kind.tag is Tag.ARRAY and kind.doubt == Doubt.NONE
