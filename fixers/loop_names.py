"""Names a ``for`` loop binds or uses, whether a rewrite of the loop may drop them, and fresh
names a rewrite may bind.

Python keeps the loop variable (and every name assigned in the body) bound after the loop;
a vector form binds none of them, or binds them to whole arrays. The loop fixers use these
checks to rewrite only loops whose names do not outlive them. A rewrite that binds a new name
(a host copy, a test's flag) takes one that nothing around it reads or binds
(``names_taken``, ``fresh_name``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from .cst_helpers import ancestors, enclosing_function, names_in

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile


def index_unused_after(analyzer: AnalyzedFile, loop: cst.For) -> bool:
    """Python leaves the loop variable bound after the loop; the vector form does not. Safe
    when every read of the name is inside a ``for`` loop that binds it (this one, or a later
    loop reusing ``i``, which rebinds it before its body runs)."""
    targets = [loop.target] if isinstance(loop.target, cst.Name) else [
        e.value for e in getattr(loop.target, "elements", ()) if isinstance(e.value, cst.Name)
    ]
    if not targets or not isinstance(loop.target, (cst.Name, cst.Tuple)):
        return False
    return all(_read_only_inside_binding_loops(analyzer, name) for name in targets)


def _read_only_inside_binding_loops(analyzer: AnalyzedFile, target: cst.Name) -> bool:
    scope = analyzer.scopes.get(target)
    if scope is None:
        return False
    for assignment in scope.assignments[target.value]:
        if not isinstance(assignment, Assignment):
            return False
        for access in assignment.references:
            if not any(
                isinstance(p, cst.For) and target.value in names_in(p.target) and _in_body(analyzer, access.node, p)
                for p in ancestors(analyzer, access.node)
            ):
                return False
    return True


def _in_body(analyzer: AnalyzedFile, node: cst.CSTNode, loop: cst.For) -> bool:
    """``node`` is in the loop's body (not its ``else``, not its iterable)."""
    return any(p is loop.body for p in ancestors(analyzer, node))


def only_used_in(analyzer: AnalyzedFile, binding: cst.Name, loop: cst.For, name: str) -> bool:
    """``name`` is bound and read only at ``binding`` and inside ``loop``: a rewrite of both
    may drop it."""
    scope = analyzer.scopes.get(binding)
    if scope is None:
        return False

    def inside(node: cst.CSTNode) -> bool:
        return node is binding or any(p is loop for p in ancestors(analyzer, node))

    for assignment in scope.assignments[name]:
        if not isinstance(assignment, Assignment) or not inside(assignment.node):
            return False
        if not all(inside(access.node) for access in assignment.references):
            return False
    return True


def loops_around(analyzer: AnalyzedFile, node: cst.CSTNode) -> list[cst.CSTNode]:
    """The loops around a finding, innermost first. A finding on a loop's header (SL104 reports
    ``for ... in <iterable>`` at the iterable; SL103 at the ``for``) has that loop first: the
    loop fixers rewrite it for that finding as for the element accesses inside it."""
    loops = analyzer.context.enclosing_loops(node)
    parent = analyzer.parents.get(node)
    header = node if isinstance(node, (cst.For, cst.While)) else parent if isinstance(parent, cst.For) and parent.iter is node else None
    return [header, *loops] if header is not None and header not in loops else loops


def loops_in_its_function(analyzer: AnalyzedFile, node: cst.CSTNode) -> list[cst.CSTNode]:
    """``loops_around(node)`` that lie within ``node``'s own function (not loops around its ``def``)."""
    function = enclosing_function(analyzer, node)
    return [loop for loop in loops_around(analyzer, node) if enclosing_function(analyzer, loop) is function]


def names_taken(analyzer: AnalyzedFile, node: cst.CSTNode) -> set[str]:
    """Every name a new binding at ``node`` could clash with: those bound or read in its scope
    and the scopes around it, and every name written anywhere in its function (a nested
    function reading a global of that name would see the new binding instead)."""
    scope = analyzer.scopes.get(node)
    function = next((a for a in ancestors(analyzer, node) if isinstance(a, cst.FunctionDef)), None)
    taken = names_in(analyzer.module if scope is None or function is None else function)
    while scope is not None:
        taken.update(a.name for a in scope.assignments)
        taken.update(a.node.value for a in scope.accesses if isinstance(a.node, cst.Name))
        scope = None if scope.parent is scope else scope.parent
    return taken


def fresh_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name2``, ``name3``, ... : the first not in ``taken`` (which then holds it)."""
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}{number}", number + 1
    taken.add(candidate)
    return candidate
