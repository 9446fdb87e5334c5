"""Which assignments of a name can reach a use: libcst's scopes answer "all of them"; this cuts
the ones an unconditional rebinding kills.

``x = xp.reshape(x, (-1,))`` is everywhere in AD code (so are ``gy = gy[0]`` and
``x = x.data``): for a use after it in the same block, only the rebinding reaches, so ``x`` has
rank 1 there, not "rank 1 or whatever the parameter was". The rule is a cheap dominance test,
not a data-flow analysis: an assignment statement dominates a use when the use lies later in the
same block (or nested inside a later statement of it). Assignments between the dominating one
and the use (conditional ones) still reach; so does everything when the use sits in a loop that
also assigns the name (the value is carried around the loop). An assignment in one branch of an
``if`` never reaches a use in another of its branches, unless a loop runs the ``if`` again.
"""

from __future__ import annotations

from typing import Sequence

import libcst as cst
from libcst.metadata import Assignment, BaseAssignment, Scope

from scalarlint.analysis.node_types import kinds
from scalarlint.analysis.tree import is_inside, order_index

BLOCKS = (cst.IndentedBlock, cst.Module)
LOOPS = (cst.For, cst.While)
_BLOCKS, _LOOPS, _FUNCTIONS = kinds(*BLOCKS), kinds(*LOOPS), kinds(cst.FunctionDef, cst.Lambda)  # ``isinstance`` stand-ins (``node_types``)
_ASSIGNING = kinds(cst.Assign, cst.AugAssign, cst.AnnAssign)
_STOPS = kinds(cst.SimpleStatementLine, cst.IndentedBlock, cst.Module, cst.FunctionDef, cst.Lambda, cst.For, cst.While)


class Reaching:
    def __init__(self, parents: dict[cst.CSTNode, cst.CSTNode]) -> None:
        self.parents = parents
        self._order: dict[int, int] = {}

    def _ordinal(self, node: cst.CSTNode) -> int:
        """Pre-order position of ``node`` in its module (computed once, on first need)."""
        if not self._order:
            root = node
            while root in self.parents:
                root = self.parents[root]
            self._order = order_index(root)
        return self._order.get(id(node), -1)

    def _statement(self, node: cst.CSTNode) -> tuple[cst.CSTNode, cst.CSTNode] | None:
        """The statement holding ``node`` and the block that holds that statement."""
        child, parent = node, self.parents.get(node)
        while parent is not None and type(parent) not in _BLOCKS:
            child, parent = parent, self.parents.get(parent)
        return (child, parent) if parent is not None else None

    def _is_inside(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        return is_inside(node, region, self.parents)

    def reaching(self, use: cst.Name, referents: Sequence[BaseAssignment]) -> Sequence[BaseAssignment]:
        """The assignments among ``referents`` that can reach ``use``, in source order (libcst
        hands them over as a set, whose order changes from run to run: the evidence a report
        prints follows this order, so it must not)."""
        if len(referents) < 2:
            return referents
        referents = sorted(referents, key=lambda r: self._ordinal(r.node) if isinstance(r, Assignment) else -1)
        if not all(isinstance(r, Assignment) for r in referents):
            return referents
        around_use = self._branches(use)
        apart = [r for r in referents if around_use and self._other_branch(r.node, around_use)]
        if apart and len(apart) < len(referents):
            referents = [r for r in referents if r not in apart]  # if ...: x = 1  else: use(x)
            if len(referents) < 2:
                return referents
        here = self._ordinal(use)
        after = {id(r) for r in referents if self._ordinal(r.node) >= here or self._assigns_after(r, use)}
        before = [r for r in referents if id(r) not in after]
        if not before:
            return referents
        dominating = None
        for ref in sorted(before, key=lambda r: self._ordinal(r.node), reverse=True):
            if isinstance(ref.node, cst.Param):
                dominating = ref  # parameters hold from the start of the function
                break
            found = self._statement(ref.node)
            if found is None:
                continue
            statement, block = found
            if not isinstance(statement, (cst.SimpleStatementLine,)):
                continue  # for-targets, with-items, defs: bound per iteration or conditionally
            if self._is_inside(use, block) and not self._is_inside(use, statement):
                dominating = ref
                break
        if dominating is None:
            return referents
        start = self._ordinal(dominating.node)
        kept = [r for r in referents if start <= self._ordinal(r.node) and id(r) not in after]
        later = [r for r in referents if id(r) in after]
        loop = self._enclosing_loop(use, stop=dominating.node)
        if loop is not None and any(self._is_inside(r.node, loop) for r in later):
            kept += [r for r in later if self._is_inside(r.node, loop)]  # carried around the loop
        return kept

    def with_carried(self, use: cst.Name, referents: Sequence[BaseAssignment], scope: Scope) -> Sequence[BaseAssignment]:
        """``referents`` plus the assignments of the same scope that come later in a loop around
        ``use``. libcst hands an access only the assignments before it in its scope, so
        ``prev_length = cur_length`` at the end of a loop body was invisible to the test
        ``if prev_length != 0:`` at its top, which sees that value from the second pass on;
        ``reaching`` then decides which of them can reach."""
        loop = self._enclosing_loop(use)
        if loop is None:
            return referents
        known = {id(r) for r in referents}
        later = [
            a for a in scope.assignments[use.value]
            if id(a) not in known and isinstance(a, Assignment) and a.scope is scope and self._is_inside(a.node, loop)
        ]
        return [*referents, *later] if later else referents

    def carried(self, ref: BaseAssignment, use: cst.Name, scope: Scope | None) -> bool:
        """``ref`` reaches ``use`` (in ``scope``) only around a loop: an assignment of the same
        scope that comes later, or the one whose value holds the use (``s = s + x[i]``). libcst
        also hands a comprehension or a closure its enclosing function's later assignments,
        which are no loop's."""
        node = getattr(ref, "node", None)
        if node is None or getattr(ref, "scope", None) is not scope or isinstance(node, cst.Param):
            return False
        return self._ordinal(node) >= self._ordinal(use) or self._assigns_after(ref, use)

    def _other_branch(self, node: cst.CSTNode, around_use: dict[cst.If, str]) -> bool:
        """``node`` lies in one branch of an ``if`` and the use (``around_use``: its
        ``_branches``) in another (``else``, an ``elif``), and no loop of the function runs that
        ``if`` again: only one of the branches runs, so nothing ``node`` binds reaches the use."""
        for statement, branch in self._branches(node).items():
            other = around_use.get(statement)
            if other is not None and other != branch and "test" not in (branch, other):  # a walrus in the test reaches both
                return self._enclosing_loop(statement) is None
        return False

    def _branches(self, node: cst.CSTNode) -> dict[cst.If, str]:
        """Each ``if`` statement around ``node`` in its function, and which part holds it
        (``body``, ``orelse``; its test is neither)."""
        found: dict[cst.If, str] = {}
        child, parent = node, self.parents.get(node)
        while parent is not None and type(parent) not in _FUNCTIONS:
            if type(parent) is cst.If:
                found[parent] = "body" if child is parent.body else "orelse" if child is parent.orelse else "test"  # type: ignore[attr-defined]
            child, parent = parent, self.parents.get(parent)
        return found

    def _assigns_after(self, ref: BaseAssignment, use: cst.Name) -> bool:
        """``x = f(x)``: the target comes first in the tree, but the binding happens after the
        value that reads ``x`` is computed, so for that read it is a later assignment (one that
        reaches it only around a loop)."""
        node = getattr(ref, "node", None)
        parent = self.parents.get(node) if node is not None else None
        while parent is not None and type(parent) not in _STOPS:
            if type(parent) in _ASSIGNING:
                return self._is_inside(use, parent)
            parent = self.parents.get(parent)
        return False

    def _enclosing_loop(self, node: cst.CSTNode, stop: cst.CSTNode | None = None) -> cst.CSTNode | None:
        """The outermost loop around ``node`` in its function that does not also hold ``stop``
        (any loop, without ``stop``); None outside loops."""
        found = None
        parent = self.parents.get(node)
        while parent is not None and type(parent) not in _FUNCTIONS:
            if type(parent) in _LOOPS and (stop is None or not self._is_inside(stop, parent)):
                found = parent
            parent = self.parents.get(parent)
        return found
