"""Device-resident searches for findfirst/findlast code (SL103).

What it rewrites
    A search for the first or last index where an elementwise predicate holds becomes an
    ``argmax`` of the predicate's mask, with the tie convention kept:

    - first match: ``xp.argmax(mask)``;
    - last match: ``n - 1 - xp.argmax(xp.flip(mask))``.

    Recognised forms (``j`` the loop index, ``mask`` the predicate with every ``a[j]``
    replaced by ``a``, ``and``/``or``/``not`` by ``&``/``|``/``~``, builtin ``abs`` by
    ``xp.abs``):

    - ``for j in range(n): if pred(j): i = j`` (last; with ``break``: first), also over
      ``reversed(range(n))`` and ``range(n - 1, -1, -1)`` (the other way round). The value
      the loop leaves when nothing matches is kept (``search_sentinel``): ``i = -1`` just
      before the loop is folded into the new assignment::

          i = -1                              i = xp.where(xp.any(xp.abs(x) == y),
          for j in range(len(x)):       ->        len(x) - 1 - xp.argmax(xp.flip(xp.abs(x) == y)), -1)
              if abs(x[j]) == y:
                  i = j

      The loop's comments go with it (``# one sync per element`` would be false above the
      new line); the initial value's stay.

    - running extrema ``best = 0; for k in range(1, n): if f(x[k]) > f(x[best]): best = k``:
      ``>`` keeps the first maximum (``xp.argmax(f(x))``), ``>=`` the last, ``<``/``<=`` the
      same with ``argmin``;
    - ``next(j for j in range(n) if pred(j))`` (first; ``next(..., d)`` with a literal ``d``
      becomes ``xp.where(xp.any(mask), xp.argmax(mask), d)``), ``max(...)`` (last), ``min(...)``
      (first), ``[j for j in range(n) if pred(j)][0]`` / ``[-1]``;
    - ``xp.flatnonzero(mask)[0]`` / ``[-1]``, ``xp.nonzero(mask)[0][0]`` / ``[0][-1]`` and the
      one-argument ``xp.where(mask)[0][k]`` (1-d masks).

    The index is now a 0-d device array. A one-element write with it, ``dx[i] = v``, is a
    scatter kernel and a read ``x[i]`` a gather: neither syncs, and strict backends accept
    both, so such uses are left as they are. The fix is offered only when *every* use of the
    index is of that kind (a whole subscript index of an array, device arithmetic, an
    argument of an elementwise array function or ``where``, or returned): a slice bound
    (``x[i:i+1]``), ``range(i)``, ``int(i)`` or an ``if`` on it would sync, so then nothing is
    offered.

When it is offered
    The loop body is only the ``if`` (storing the index, optionally ``break``); the predicate
    is elementwise in ``a[j]`` reads of arrays and loop-invariant values; the range runs over
    the length of one of the arrays read (``len(a)``, ``a.shape[0]``, or a name bound to one),
    so the mask has the loop's length; an array module alias is in scope (``xp``, ``np``, ...,
    see ``namespaces.array_namespace_alias``). ``while`` searches are not rewritten.

Applicability
    Unsafe, always. A loop's not-found value is kept by ``xp.where(xp.any(mask), ...)``; a
    loop leaving ``None`` or nothing is not rewritten. But ``next`` without a default raises
    ``StopIteration``, ``max`` of an empty generator ``ValueError`` and ``flatnonzero(...)[0]``
    ``IndexError`` when nothing matches, where ``argmax`` of an all-false mask gives ``0`` (the
    last-match form ``n - 1``); an empty array makes ``argmax`` raise where the loop returns its
    initial value; NaNs compare differently in a running extremum than in ``argmax``; and the
    index becomes a 0-d array rather than a Python int.

This module rewrites the ``for`` loops; ``comprehension_search`` the generators and
comprehensions, both from the building blocks in ``search_parts``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from scalarlint.analysis.loop_range import RangeInfo
from scalarlint.analysis.syntax import call_name, integer_value
from scalarlint.checks.sl103_search_loop import SearchLoop
from scalarlint.diagnostics import Applicability, Edit, Fix, Location

from . import loop_obstacles
from .comprehension_search import search_call_edits, search_subscript_edits
from .cst_helpers import ancestors, names_in
from .mask_argmax import needs_numeric_mask
from .namespaces import array_namespace_alias
from .outcomes import Declined
from .search_parts import VectorizeReads, elementwise_reads, found_index, range_covers, uses_after_ok, vectorize_predicate
from .search_sentinel import NONE_REASON, decline_reason, initial_value, is_none, keep_sentinel
from .statements import attached_comment_rows, indentation, replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

MESSAGE = "Search on the device with `argmax` of a mask (differs when nothing matches)"


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix] | Declined:
    node = finding.node
    xp = array_namespace_alias(analyzer, node)
    if xp is None:
        return loop_obstacles.declined(finding, analyzer) or []  # (no array module to write with)
    edits: list[Edit] | None = None
    match = finding.match if isinstance(finding.match, SearchLoop) else None
    if isinstance(node, cst.For) and match is not None:
        edits = _for_loop(analyzer, node, xp, match)
    elif isinstance(node, cst.Call):
        edits = search_call_edits(analyzer, node, xp, match.scan if match else None)
    elif isinstance(node, cst.Subscript):
        edits = search_subscript_edits(analyzer, node, xp, match.scan if match else None)
    if not edits:
        reason = sentinel_reason(analyzer, node)  # the search lacks the not-found value it needs
        return Declined(reason) if reason else loop_obstacles.declined(finding, analyzer) or []
    return [Fix(Applicability.UNSAFE, MESSAGE, tuple(edits))]


# -- for loops -------------------------------------------------------------------------------------
def _for_loop(analyzer: AnalyzedFile, loop: cst.For, xp: str, match: SearchLoop) -> list[Edit] | None:
    """The search as SL103 matched it: its loop variable, the range it scans, the ``if`` that
    remembers the index and which match it finds. Rewritten when the loop is nothing but that
    ``if`` (storing the index, optionally ``break``); a ``for`` over ``enumerate`` (a tuple
    target, no ``scan``) is left as it is."""
    index, rng, branch = match.index, match.scan, match.branch
    if index is None or rng is None or branch is None or loop.orelse is not None or loop.asynchronous is not None:
        return None
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    if len(body) != 1 or body[0] is not branch or branch.orelse is not None:
        return None
    stored = _stored_index(branch, index)
    if stored is None:
        return None
    name, leaves = stored
    found = _running_extremum(analyzer, loop, branch, index, name, rng, leaves, xp)
    if found is None:
        if rng.start != 0:
            return None
        vectorized = vectorize_predicate(analyzer, branch.test, index, xp, frozenset({name}))
        if vectorized is None:
            return None
        mask, bases = vectorized
        if not range_covers(analyzer, rng, bases):
            return None
        last = match.last  # forward without break, or backward with it
        if decline_reason(analyzer, loop, name) is not None:
            return None
        initial = initial_value(analyzer, loop, name)
        numeric = needs_numeric_mask(analyzer, loop, xp)
        found = keep_sentinel(xp, mask, found_index(xp, mask, last, rng.stop, numeric=numeric), initial.value, last)  # type: ignore[union-attr]
    return _replace_loop(analyzer, loop, branch, name, found)


def sentinel_reason(analyzer: AnalyzedFile, loop: cst.CSTNode) -> str | None:
    """For a search left as it is: the not-found value it lacks (``None``, none at all), if that is why."""
    if isinstance(loop, cst.Call):  # next(..., None)
        default = loop.args[1].value if call_name(loop.func) == ["next"] and len(loop.args) == 2 else None
        return NONE_REASON if default is not None and is_none(default) else None
    if not isinstance(loop, cst.For):
        return None
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    if not isinstance(loop.target, cst.Name) or len(body) != 1 or not isinstance(body[0], cst.If):
        return None
    stored = _stored_index(body[0], loop.target.value)
    if stored is None or stored[0] in names_in(body[0].test):  # (a running extremum starts at an index)
        return None
    return decline_reason(analyzer, loop, stored[0])


def _stored_index(branch: cst.If, index: str) -> tuple[str, bool] | None:
    """``if ...: i = j`` (+ ``break``): the stored name and whether the loop is left."""
    stmts = branch.body.body if isinstance(branch.body, cst.IndentedBlock) else ()
    smalls: list[cst.BaseSmallStatement] = []
    for stmt in stmts:
        if not isinstance(stmt, cst.SimpleStatementLine):
            return None
        smalls.extend(stmt.body)
    if not smalls or not isinstance(smalls[0], cst.Assign):
        return None
    assign = smalls[0]
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
        return None
    if not (isinstance(assign.value, cst.Name) and assign.value.value == index):
        return None
    rest = smalls[1:]
    if rest and not (len(rest) == 1 and isinstance(rest[0], cst.Break)):
        return None
    return assign.targets[0].target.value, bool(rest)


def _running_extremum(
    analyzer: AnalyzedFile, loop: cst.For, branch: cst.If, index: str, name: str, rng: RangeInfo, leaves: bool, xp: str
) -> cst.BaseExpression | None:
    """``best = 0; for k in range(1, n): if f(x[k]) > f(x[best]): best = k`` -> argmax."""
    test = branch.test
    if leaves or rng.reverse or not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    if name not in names_in(test):
        return None
    init = initial_value(analyzer, loop, name)
    if init is None or not init.adjacent or integer_value(init.value) != 0:
        return None
    op = test.comparisons[0].operator
    left, right = test.left, test.comparisons[0].comparator
    if name in names_in(left):
        left, right = right, left
        flipped = {cst.GreaterThan: cst.LessThan, cst.LessThan: cst.GreaterThan,
                   cst.GreaterThanEqual: cst.LessThanEqual, cst.LessThanEqual: cst.GreaterThanEqual}
        if type(op) not in flipped:
            return None
        op = flipped[type(op)]()
    if name in names_in(left) or not isinstance(op, (cst.GreaterThan, cst.LessThan, cst.GreaterThanEqual, cst.LessThanEqual)):
        return None
    # The other side must be the same expression at the best index so far.
    renamed = right.visit(_Rename(name, index))
    if not renamed.deep_equals(left):
        return None
    reads: list[cst.Subscript] = []
    if not elementwise_reads(analyzer, left, index, frozenset({name}), reads) or not reads:
        return None
    key = left.visit(VectorizeReads({id(r) for r in reads}, xp))
    if not range_covers(analyzer, rng, [r.value for r in reads]):
        return None
    largest = isinstance(op, (cst.GreaterThan, cst.GreaterThanEqual))
    last = isinstance(op, (cst.GreaterThanEqual, cst.LessThanEqual))
    return found_index(xp, key, last, rng.stop, "argmax" if largest else "argmin")  # type: ignore[arg-type]


class _Rename(cst.CSTTransformer):
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.new) if updated.value == self.old else updated


def _replace_loop(analyzer: AnalyzedFile, loop: cst.For, branch: cst.If, name: str, found: cst.BaseExpression) -> list[Edit] | None:
    """``name = found`` in place of the loop and of the ``name = <not found>`` line just
    before it. The loop's comments (on its lines, inside it, and the lines directly above
    it) described the loop and go with it; the initial value's comments (above it and on its
    line) stay."""
    scope = analyzer.scopes.get(loop)
    initial = initial_value(analyzer, loop, name)
    if scope is None or initial is None:
        return None
    assignments = [a for a in scope.assignments[name] if isinstance(a, Assignment)]
    inside = [a for a in assignments if any(p is branch for p in ancestors(analyzer, a.node))]
    if len(inside) != 1 or len(assignments) != 2:
        return None
    if not uses_after_ok(analyzer, assignments, loop):
        return None
    first: cst.BaseStatement = initial.statement if initial.adjacent else loop
    assign = cst.Assign(targets=[cst.AssignTarget(cst.Name(name))], value=found)
    new = cst.SimpleStatementLine(body=[assign], trailing_whitespace=initial.statement.trailing_whitespace if initial.adjacent else cst.TrailingWhitespace())
    edit = replace_statements(analyzer, first, loop, [new], inner_comments=False)
    if edit is None:
        return None
    above = attached_comment_rows(first) if first is loop else 0  # (those above a folded initial value stay)
    if above:  # start the edit at the first comment line above the loop, at column 1
        indent = indentation(analyzer, first) or ""
        edit = Edit(indent + edit.content, Location(edit.location.row - above, 1), edit.end_location)
    return [edit]
