"""What stops the loop fixers: why a loop over data around a finding has no whole-array form.

Every fixer that rewrites a loop over data (``element_loop``, ``running_scan``, ``scatter_add``,
the searches, ``mask_where``) needs the same things of it: an array module to write the vector
form with, one loop rather than a nest, no early exit, no value carried from one iteration to
the next, indexes that give each iteration its own element, and elementwise calls. When none of
them makes a fix, the fixer that stopped declines with the first of these that the loop lacks
(``declined``), in terms a rule author can act on, so the report shows a fix was considered.
The reason is worked out once per loop: every finding on it gets the same one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.syntax import call_name, integer_value
from scalarlint.analysis.tree import walk

from .cst_helpers import enclosing_statement, names_in
from .elementwise import is_elementwise_call, module_function
from .index_facts import index_values
from .loop_names import loops_around
from .namespaces import array_namespace_alias
from .outcomes import Declined

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

NO_NAMESPACE = "no array module in scope to write the vector form with (bind `xp = array_namespace(x)`)"
NEST = "a nest of loops over data: each level would need its own rewrite (vectorize the inner loop first)"


def declined(finding: Finding, analyzer: AnalyzedFile) -> Declined | None:
    """Why no vector form of the code around ``finding`` can be written: no array module in
    scope, or the one loop over data around it (or that it heads) has an obstacle. None outside
    loops (``outside_loops``: there the fixer that matched says its own reason) and for a loop
    with none."""
    reason = _answer(finding, analyzer)[1]
    return Declined(reason) if reason is not None else None


def outside_loops(finding: Finding, analyzer: AnalyzedFile) -> bool:
    """Whether no loop that a vector form would replace is around ``finding``."""
    return _answer(finding, analyzer)[0]


def _answer(finding: Finding, analyzer: AnalyzedFile) -> tuple[bool, str | None]:
    """(outside loops, the reason) for ``finding``'s node, worked out once: every fixer of its
    check that makes no fix asks, and the reason of a loop is shared by all its findings."""
    cache = analyzer.context.inference.cache
    key = ("loop-obstacle-of", finding.node)
    if key not in cache:
        loops = _loops(finding, analyzer)
        if array_namespace_alias(analyzer, finding.node) is None:
            reason: str | None = NO_NAMESPACE
        elif len(loops) > 1:
            reason = NEST
        elif loops:
            loop_key = ("loop-obstacle", loops[0])
            if loop_key not in cache:
                cache[loop_key] = _loop_reason(analyzer, loops[0])
            reason = cache[loop_key]  # type: ignore[assignment]
        else:
            reason = None
        cache[key] = (not loops, reason)
    return cache[key]  # type: ignore[return-value]


def _loops(finding: Finding, analyzer: AnalyzedFile) -> list[cst.CSTNode]:
    """The loop the finding is on (its header; that one counts even when the checker does not
    call it a loop over data) and the loops over data around it, innermost first."""
    ctx = analyzer.context
    enclosing = ctx.enclosing_loops(finding.node)
    header = loops_around(analyzer, finding.node)[: -len(enclosing) or None]
    return [*header, *(loop for loop in enclosing if ctx.is_data_loop(loop))]


def _loop_reason(analyzer: AnalyzedFile, loop: cst.CSTNode) -> str | None:
    """Why the one loop over data around a finding cannot be rewritten."""
    ctx = analyzer.context
    body = getattr(loop, "body", None)  # (a comprehension's `for` has none)
    if body is not None and any(isinstance(n, (cst.For, cst.While)) and ctx.is_data_loop(n) for n in walk(body)):
        return NEST
    if isinstance(loop, cst.While):
        return "a `while` loop other than an index search stepping by 1"
    if not isinstance(loop, cst.For):
        return None
    if loop.orelse is not None or any(isinstance(n, (cst.Break, cst.Continue, cst.Return)) for n in walk(loop.body)):
        return "the loop exits early (`break`, `continue`, `return` or `else`): the vector form runs every element"
    carried = _carried(analyzer, loop)
    if carried:
        return f"`{carried}` is carried from one iteration to the next and is not a running sum or product"
    if isinstance(loop.target, cst.Name):
        other = _other_index(analyzer, loop)
        if other:
            return f"the index `{other}` is not the loop variable, a shift of it (`i - 1`), its mirror or the diagonal: iterations may touch the same element"
    unknown = _unknown_call(analyzer, loop)
    if unknown in ("int", "float", "bool", "complex"):
        return f"`{unknown}()` copies elements to the host in the loop: the body works on host numbers, not on arrays"
    if unknown:
        return f"`{unknown}(...)` is not known to be elementwise, so it cannot take whole arrays"
    return "the loop body does more than write elements from elementwise values"


def _carried(analyzer: AnalyzedFile, loop: cst.For) -> str | None:
    """A name the body reads before binding it in the same trip (bound later in the body):
    its value comes from the previous iteration."""
    scope = analyzer.scopes.get(loop)
    if scope is None:
        return None
    own = names_in(loop.target)
    positions = analyzer.positions
    bound_at: dict[str, list[tuple[int, int]]] = {}
    reads: list[tuple[tuple[int, int], str]] = []
    for name in walk(loop.body):
        if not isinstance(name, cst.Name) or name.value in own or analyzer.scopes.get(name) is not scope:
            continue
        parent = analyzer.parents.get(name)
        if isinstance(parent, cst.Attribute) and parent.attr is name or isinstance(parent, cst.Arg) and parent.keyword is name:
            continue
        statement = enclosing_statement(analyzer, name)
        binding = any(a.node is name for a in scope.assignments[name.value])
        if binding:  # bound once its statement has run; an augmented target is read first
            simple = isinstance(statement, cst.SimpleStatementLine)
            end = positions[statement].end if simple else positions[name].end  # a `for`/`with` target: at once
            bound_at.setdefault(name.value, []).append((end.line, end.column))
        if not binding or isinstance(parent, cst.AugAssign):
            reads.append(((positions[name].start.line, positions[name].start.column), name.value))
    for where, name in sorted(reads):
        if name in bound_at and not any(bound < where for bound in bound_at[name]):
            return name
    return None


def _other_index(analyzer: AnalyzedFile, loop: cst.For) -> str | None:
    index = loop.target.value  # type: ignore[attr-defined]
    code = analyzer.module.code_for_node
    for node in walk(loop.body):
        if not isinstance(node, cst.Subscript) or not analyzer.context.inference.kind(node.value).is_array:
            continue
        for value in index_values(node) or []:
            shifted = (
                isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract))
                and isinstance(value.left, cst.Name) and value.left.value == index and integer_value(value.right) is not None
            )
            if index in names_in(value) and not (isinstance(value, cst.Name) and value.value == index) and not shifted:
                return code(value)
    return None


def _unknown_call(analyzer: AnalyzedFile, loop: cst.For) -> str | None:
    for node in walk(loop.body):
        if isinstance(node, cst.Call) and not is_elementwise_call(analyzer, node) and module_function(analyzer, node) is None:
            name = call_name(node.func)
            if name and name[-1] not in ("range", "len", "enumerate", "zip", "reversed"):
                return ".".join(name)
    return None
