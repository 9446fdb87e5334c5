"""Why a finding gets no fix: the pattern the fixers stopped at, said in the diagnostic.

A finding without a fix looks like a fix that is missing; most of the time a rewrite was
considered and would change what the code does, or needs an algorithm rather than a local
edit. ``explain`` names the first reason that applies, in the terms a rule author can act on
(bind an array module, move the use off the host, split the loop), so the report says a fix
was considered. It runs only for findings that got no fix at all and for which no fixer
declined with its own reason: a fixer that knows why it stops returns ``Declined(reason)``
(the search fixer does, for a search that lacks the not-found value it needs), and the reasons
left here are the ones no fixer gives yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.syntax import call_name
from scalarlint.analysis.tree import walk

from .cst_helpers import enclosing_statement, integer_value, names_in
from .elementwise import elementwise_parent, is_elementwise_call, module_function
from .index_facts import index_values, is_host_int
from .loop_names import loops_around
from .namespaces import array_namespace_alias

if TYPE_CHECKING:
    from scalarlint.analysis.analyzer import FileAnalyzer
    from scalarlint.checks.base import Finding

CODES = frozenset({"SL101", "SL102", "SL103", "SL104", "SL105", "SL106"})
NEST = "a nest of loops over data: each level would need its own rewrite (vectorize the inner loop first)"


def explain(finding: Finding, analyzer: FileAnalyzer) -> str | None:
    """One short reason, or None when there is nothing more useful to say."""
    if finding.code not in CODES:
        return None
    node = finding.node
    if array_namespace_alias(analyzer, node) is None:
        return "no array module in scope to write the vector form with (bind `xp = array_namespace(x)`)"
    ctx = analyzer.context
    enclosing = ctx.enclosing_loops(node)
    header = loops_around(analyzer, node)[: -len(enclosing) or None]  # the loop the finding is on
    # (that one counts even when the checker does not call it a loop over data)
    loops = [*header, *(loop for loop in enclosing if ctx.is_data_loop(loop))]
    if not loops:
        return _outside_loops(finding, analyzer)
    if len(loops) > 1:
        return NEST
    key = ("why-not-loop", loops[0])  # the same for every finding on this loop: worked out once
    cache = ctx.inference.cache
    if key not in cache:
        cache[key] = _loop_reason(analyzer, loops[0])
    return cache[key]  # type: ignore[return-value]


def _loop_reason(analyzer: FileAnalyzer, loop: cst.CSTNode) -> str | None:
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


def _outside_loops(finding: Finding, analyzer: FileAnalyzer) -> str | None:
    node = finding.node
    if finding.code == "SL106" and isinstance(node, cst.Subscript):
        if analyzer.context.is_store_target(node):
            return "the masked array is not a plain name (the `xp.where` form rebinds a name)"
        return "a masked read other than the one argument of `sum`: its size depends on the data"
    if finding.code == "SL101" and isinstance(node, cst.Subscript):
        if not analyzer.context.inference.selects_element(node):
            return None
        use = _host_use(analyzer, node)
        if use:
            return f"the element is used on the host ({use}): a view would only move the sync there"
        if any(not is_host_int(analyzer, v) for v in index_values(node) or []):
            return "an index is not a host integer"
    return None


def _host_use(analyzer: FileAnalyzer, node: cst.CSTNode) -> str | None:
    child, parent = node, analyzer.parents.get(node)
    while parent is not None and elementwise_parent(analyzer, child, parent):
        child, parent = parent, analyzer.parents.get(parent)
    if isinstance(parent, (cst.If, cst.While, cst.IfExp)) and getattr(parent, "test", None) is child:
        return "a condition"
    if isinstance(parent, cst.Arg):
        call = analyzer.parents.get(parent)
        name = call_name(call.func) if isinstance(call, cst.Call) else None
        if name and name[-1] in ("int", "float", "bool", "range", "len", "print", "str"):
            return f"`{name[-1]}()`"
    if isinstance(parent, (cst.Index, cst.Slice)):
        return "an index or a slice bound"
    return None


def _carried(analyzer: FileAnalyzer, loop: cst.For) -> str | None:
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


def _other_index(analyzer: FileAnalyzer, loop: cst.For) -> str | None:
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


def _unknown_call(analyzer: FileAnalyzer, loop: cst.For) -> str | None:
    for node in walk(loop.body):
        if isinstance(node, cst.Call) and not is_elementwise_call(analyzer, node) and module_function(analyzer, node) is None:
            name = call_name(node.func)
            if name and name[-1] not in ("range", "len", "enumerate", "zip", "reversed"):
                return ".".join(name)
    return None
