"""Names a ``for`` loop binds or uses, and whether a rewrite of the loop may drop them.

Python keeps the loop variable (and every name assigned in the body) bound after the loop;
a vector form binds none of them, or binds them to whole arrays. The loop fixers use these
checks to rewrite only loops whose names do not outlive them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from . import _common as C

if TYPE_CHECKING:
    from scalarlint.analysis.analyzer import FileAnalyzer


def index_unused_after(analyzer: FileAnalyzer, loop: cst.For) -> bool:
    """Python leaves the loop variable bound after the loop; the vector form does not."""
    targets = [loop.target] if isinstance(loop.target, cst.Name) else [
        e.value for e in getattr(loop.target, "elements", ()) if isinstance(e.value, cst.Name)
    ]
    if not targets or not isinstance(loop.target, (cst.Name, cst.Tuple)):
        return False
    return all(only_used_in(analyzer, name, loop, name.value) for name in targets)


def only_used_in(analyzer: FileAnalyzer, binding: cst.Name, loop: cst.For, name: str) -> bool:
    """``name`` is bound and read only at ``binding`` and inside ``loop``: a rewrite of both
    may drop it."""
    scope = analyzer.scopes.get(binding)
    if scope is None:
        return False

    def inside(node: cst.CSTNode) -> bool:
        return node is binding or any(p is loop for p in C.ancestors(analyzer, node))

    for assignment in scope.assignments[name]:
        if not isinstance(assignment, Assignment) or not inside(assignment.node):
            return False
        if not all(inside(access.node) for access in assignment.references):
            return False
    return True
