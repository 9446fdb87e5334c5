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
      ``reversed(range(n))`` and ``range(n - 1, -1, -1)`` (the other way round); a literal
      ``i = -1`` just before the loop is folded into the new assignment::

          i = -1                                    i = len(x) - 1 - xp.argmax(
          for j in range(len(x)):           ->          xp.flip(xp.abs(x) == y))
              if abs(x[j]) == y:
                  i = j

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
    see ``_common.array_namespace_alias``). ``while`` searches are not rewritten.

Applicability
    Unsafe, always. When nothing matches, the loop leaves its initial value (``-1``, ``None``),
    ``next`` raises ``StopIteration`` and ``flatnonzero(...)[0]`` raises ``IndexError``, while
    ``argmax`` of an all-false mask is ``0`` (so the last-match form gives ``n - 1``). NaNs
    compare differently in a Python loop than in ``argmax``. And the index becomes a 0-d array
    rather than a Python int. Where a match is guaranteed (the predicate is ``== max``) the
    results agree; that guarantee is the reviewer's to confirm.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from scalarlint.analysis.inference import call_name, positional
from scalarlint.analysis.kinds import Tag
from scalarlint.diagnostics import Applicability, Edit, Fix

from . import _common as C
from .loop_ranges import RangeInfo, range_info

if TYPE_CHECKING:
    from scalarlint.analysis.analyzer import FileAnalyzer
    from scalarlint.checks.base import Finding

CODES = frozenset({"SL103"})
MESSAGE = "Search on the device with `argmax` of a mask (differs when nothing matches)"
DEVICE_INDEX_FUNCTIONS = C.ELEMENTWISE_FUNCTIONS | {"where"}


def fixes(finding: Finding, analyzer: FileAnalyzer) -> list[Fix]:
    node = finding.node
    xp = C.array_namespace_alias(analyzer, node)
    if xp is None:
        return []
    edits: list[Edit] | None = None
    if isinstance(node, cst.For):
        edits = _for_loop(analyzer, node, xp)
    elif isinstance(node, cst.Call):
        edits = _search_call(analyzer, node, xp)
    elif isinstance(node, cst.Subscript):
        edits = _search_subscript(analyzer, node, xp)
    if not edits:
        return []
    return [Fix(Applicability.UNSAFE, MESSAGE, tuple(edits))]


# -- building blocks ---------------------------------------------------------------------------
def _atom(expr: cst.BaseExpression) -> cst.BaseExpression:
    """``expr`` parenthesized unless it binds at least as tightly as a subtraction operand."""
    if isinstance(expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer)) or getattr(expr, "lpar", None):
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _strip(expr: cst.BaseExpression) -> cst.BaseExpression:
    return expr.with_changes(lpar=(), rpar=()) if getattr(expr, "lpar", None) else expr


def found_index(xp: str, mask: cst.BaseExpression, last: bool, n: cst.BaseExpression, reducer: str = "argmax") -> cst.BaseExpression:
    """``xp.argmax(mask)`` or ``n - 1 - xp.argmax(xp.flip(mask))``."""
    mask = _strip(mask)
    if not last:
        return C.xp_call(xp, reducer, mask)
    head = cst.BinaryOperation(left=_atom(n), operator=cst.Subtract(), right=cst.Integer("1"))
    return cst.BinaryOperation(left=head, operator=cst.Subtract(), right=C.xp_call(xp, reducer, C.xp_call(xp, "flip", mask)))


class _Vectorize(cst.CSTTransformer):
    """``a[j]`` -> ``a``, ``abs`` -> ``xp.abs``, ``and``/``or``/``not`` -> ``&``/``|``/``~``."""

    def __init__(self, reads: set[int], xp: str) -> None:
        self.reads = reads
        self.xp = xp

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        if id(original) in self.reads:
            return updated.value.with_changes(lpar=updated.lpar, rpar=updated.rpar)
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if call_name(original.func) == ["abs"]:
            return updated.with_changes(func=cst.Attribute(value=cst.Name(self.xp), attr=cst.Name("abs")))
        return updated

    def leave_BooleanOperation(self, original: cst.BooleanOperation, updated: cst.BooleanOperation) -> cst.BaseExpression:
        op = cst.BitAnd() if isinstance(original.operator, cst.And) else cst.BitOr()
        return cst.BinaryOperation(
            left=_parens(updated.left), operator=op, right=_parens(updated.right), lpar=updated.lpar, rpar=updated.rpar
        )

    def leave_UnaryOperation(self, original: cst.UnaryOperation, updated: cst.UnaryOperation) -> cst.BaseExpression:
        if isinstance(original.operator, cst.Not):
            return cst.UnaryOperation(operator=cst.BitInvert(), expression=_parens(updated.expression), lpar=updated.lpar, rpar=updated.rpar)
        return updated


def _parens(expr: cst.BaseExpression) -> cst.BaseExpression:
    if getattr(expr, "lpar", None) or isinstance(expr, (cst.Name, cst.Call, cst.Attribute, cst.Subscript, cst.UnaryOperation)):
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _is_element_read(analyzer: FileAnalyzer, node: cst.Subscript, index: str) -> bool:
    values = C.index_values(node)
    return (
        values is not None
        and len(values) == 1
        and isinstance(values[0], cst.Name)
        and values[0].value == index
        and analyzer.context.inference.kind(node.value).tag is Tag.ARRAY
    )


def _boolean_valued(analyzer: FileAnalyzer, expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Comparison):
        return True
    if isinstance(expr, cst.BooleanOperation):
        return _boolean_valued(analyzer, expr.left) and _boolean_valued(analyzer, expr.right)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        return _boolean_valued(analyzer, expr.expression)
    if isinstance(expr, cst.Call):
        return C.module_function(analyzer, expr) in C.BOOLEAN_FUNCTIONS
    return False


def vectorize_predicate(
    analyzer: FileAnalyzer, test: cst.BaseExpression, index: str, xp: str, forbidden: frozenset[str] = frozenset()
) -> tuple[cst.BaseExpression, list[cst.BaseExpression]] | None:
    """The mask of an elementwise predicate over ``a[index]`` reads, and the arrays read."""
    if not _boolean_valued(analyzer, test):
        return None
    reads: list[cst.Subscript] = []
    if not _elementwise(analyzer, test, index, forbidden, reads) or not reads:
        return None
    mask = test.visit(_Vectorize({id(r) for r in reads}, xp))
    return mask, [r.value for r in reads]  # type: ignore[return-value]


def _elementwise(analyzer: FileAnalyzer, node: cst.CSTNode, index: str, forbidden: frozenset[str], reads: list[cst.Subscript]) -> bool:
    if isinstance(node, cst.Subscript):
        if _is_element_read(analyzer, node, index):
            if C.names_in(node.value) & (forbidden | {index}):
                return False
            reads.append(node)
            return True
        return not (C.names_in(node) & (forbidden | {index}))
    if isinstance(node, cst.Name):
        return node.value not in forbidden and node.value != index
    if isinstance(node, cst.Comparison):
        if len(node.comparisons) != 1 or isinstance(node.comparisons[0].operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)):
            return False
        return _elementwise(analyzer, node.left, index, forbidden, reads) and _elementwise(
            analyzer, node.comparisons[0].comparator, index, forbidden, reads
        )
    if isinstance(node, cst.BooleanOperation):
        return _elementwise(analyzer, node.left, index, forbidden, reads) and _elementwise(analyzer, node.right, index, forbidden, reads)
    if isinstance(node, cst.BinaryOperation):
        return isinstance(node.operator, C.ARITHMETIC) and _elementwise(analyzer, node.left, index, forbidden, reads) and _elementwise(
            analyzer, node.right, index, forbidden, reads
        )
    if isinstance(node, cst.UnaryOperation):
        return _elementwise(analyzer, node.expression, index, forbidden, reads)
    if isinstance(node, cst.Call):
        if C.is_elementwise_call(analyzer, node):
            return all(_elementwise(analyzer, a.value, index, forbidden, reads) for a in node.args)
        return not (C.names_in(node) & (forbidden | {index}))  # loop-invariant: computed once
    if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(node, cst.Attribute):
        return not (C.names_in(node) & (forbidden | {index}))
    return False


def _size_of(analyzer: FileAnalyzer, n: cst.BaseExpression, depth: int = 0) -> str | None:
    """The code of the array whose length ``n`` is (``len(a)``, ``a.shape[0]``), if any."""
    code = analyzer.module.code_for_node
    if isinstance(n, cst.Call) and call_name(n.func) == ["len"] and len(positional(n)) == 1:
        return code(_strip(positional(n)[0]))
    if isinstance(n, cst.Subscript) and isinstance(n.value, cst.Attribute) and n.value.attr.value == "shape":
        values = C.index_values(n)
        if values and len(values) == 1 and C.integer_value(values[0]) == 0:
            return code(_strip(n.value.value))
    if isinstance(n, cst.Name) and depth < 3:
        assignments = C.assignments_of(analyzer, n)
        if assignments and len(assignments) == 1 and isinstance(assignments[0].node, cst.Name):
            value = C.binding_value(analyzer, assignments[0].node)
            if value is not None:
                return _size_of(analyzer, value, depth + 1)
    return None


def _covers(analyzer: FileAnalyzer, rng: RangeInfo, bases: list[cst.BaseExpression]) -> bool:
    array = _size_of(analyzer, rng.stop)
    return array is not None and array in {analyzer.module.code_for_node(_strip(b)) for b in bases}


# -- uses of the found index ---------------------------------------------------------------------
def device_use_ok(analyzer: FileAnalyzer, node: cst.CSTNode) -> bool:
    """Whether a 0-d device index in place of ``node`` keeps working without a sync."""
    inference = analyzer.context.inference
    child = node
    for parent in C.ancestors(analyzer, node):
        if isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation)) and not (
            isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not)
        ):
            if isinstance(parent, cst.BinaryOperation) and not isinstance(parent.operator, C.ARITHMETIC):
                return False
            child = parent
            continue
        if isinstance(parent, (cst.ComparisonTarget,)):
            child = parent
            continue
        if isinstance(parent, cst.Comparison):
            if len(parent.comparisons) != 1:
                return False
            child = parent  # a device boolean: must itself land somewhere harmless
            continue
        if isinstance(parent, cst.Index):
            element = analyzer.parents.get(parent)
            sub = analyzer.parents.get(element) if element is not None else None
            return (
                isinstance(sub, cst.Subscript)
                and len(sub.slice) == 1
                and child is parent.value
                and inference.kind(sub.value).tag is Tag.ARRAY
            )
        if isinstance(parent, cst.Arg):
            call = analyzer.parents.get(parent)
            return (
                isinstance(call, cst.Call)
                and parent.keyword is None
                and C.module_function(analyzer, call) in DEVICE_INDEX_FUNCTIONS
            )
        if isinstance(parent, cst.Return):
            return True
        if isinstance(parent, (cst.Element, cst.Tuple)):
            child = parent
            continue
        return False
    return False


def _name_uses_ok(analyzer: FileAnalyzer, assignments: list[Assignment], after: cst.CSTNode) -> bool:
    start = analyzer.positions[after].start.line
    for assignment in assignments:
        for access in assignment.references:
            use = access.node
            if any(a is after for a in C.ancestors(analyzer, use)):
                continue  # inside the code being replaced
            if use not in analyzer.positions or analyzer.positions[use].start.line < start:
                return False  # read before the search: it would see another value
            if not device_use_ok(analyzer, use):
                return False
    return True


def _bound_name_ok(analyzer: FileAnalyzer, expr: cst.CSTNode) -> bool:
    """For a search expression: its value is used only in device-friendly ways."""
    parent = analyzer.parents.get(expr)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        target = parent.targets[0].target
        scope = analyzer.scopes.get(target)
        if scope is None:
            return False
        mine = [a for a in scope.assignments[target.value] if isinstance(a, Assignment)]
        if len(mine) != 1 or mine[0].node is not target:
            return False
        return _name_uses_ok(analyzer, mine, parent)
    return device_use_ok(analyzer, expr)


# -- for loops -------------------------------------------------------------------------------------
def _for_loop(analyzer: FileAnalyzer, loop: cst.For, xp: str) -> list[Edit] | None:
    if loop.orelse is not None or loop.asynchronous is not None or not isinstance(loop.target, cst.Name):
        return None
    rng = range_info(loop.iter)
    if rng is None:
        return None
    index = loop.target.value
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    if len(body) != 1 or not isinstance(body[0], cst.If) or body[0].orelse is not None:
        return None
    branch = body[0]
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
        if not _covers(analyzer, rng, bases):
            return None
        last = rng.reverse == leaves  # forward without break, or backward with it
        found = found_index(xp, mask, last, rng.stop)
    return _replace_loop(analyzer, loop, branch, name, found)


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
    analyzer: FileAnalyzer, loop: cst.For, branch: cst.If, index: str, name: str, rng: RangeInfo, leaves: bool, xp: str
) -> cst.BaseExpression | None:
    """``best = 0; for k in range(1, n): if f(x[k]) > f(x[best]): best = k`` -> argmax."""
    test = branch.test
    if leaves or rng.reverse or not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    if name not in C.names_in(test):
        return None
    init = _init_statement(analyzer, loop, name)
    if init is None or C.integer_value(init[1]) != 0:
        return None
    op = test.comparisons[0].operator
    left, right = test.left, test.comparisons[0].comparator
    if name in C.names_in(left):
        left, right = right, left
        flipped = {cst.GreaterThan: cst.LessThan, cst.LessThan: cst.GreaterThan,
                   cst.GreaterThanEqual: cst.LessThanEqual, cst.LessThanEqual: cst.GreaterThanEqual}
        if type(op) not in flipped:
            return None
        op = flipped[type(op)]()
    if name in C.names_in(left) or not isinstance(op, (cst.GreaterThan, cst.LessThan, cst.GreaterThanEqual, cst.LessThanEqual)):
        return None
    # The other side must be the same expression at the best index so far.
    renamed = right.visit(_Rename(name, index))
    if not renamed.deep_equals(left):
        return None
    reads: list[cst.Subscript] = []
    if not _elementwise(analyzer, left, index, frozenset({name}), reads) or not reads:
        return None
    key = left.visit(_Vectorize({id(r) for r in reads}, xp))
    if not _covers(analyzer, rng, [r.value for r in reads]):
        return None
    largest = isinstance(op, (cst.GreaterThan, cst.GreaterThanEqual))
    last = isinstance(op, (cst.GreaterThanEqual, cst.LessThanEqual))
    return found_index(xp, key, last, rng.stop, "argmax" if largest else "argmin")  # type: ignore[arg-type]


class _Rename(cst.CSTTransformer):
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.new) if updated.value == self.old else updated


def _init_statement(analyzer: FileAnalyzer, loop: cst.For, name: str) -> tuple[cst.SimpleStatementLine, cst.BaseExpression] | None:
    """The statement just before ``loop`` when it is ``name = <literal>``."""
    siblings = C.block_siblings(analyzer, loop)
    if siblings is None:
        return None
    position = next((k for k, s in enumerate(siblings) if s is loop), 0)
    if position == 0:
        return None
    prev = siblings[position - 1]
    if not (isinstance(prev, cst.SimpleStatementLine) and len(prev.body) == 1 and isinstance(prev.body[0], cst.Assign)):
        return None
    assign = prev.body[0]
    if len(assign.targets) != 1 or not (isinstance(assign.targets[0].target, cst.Name) and assign.targets[0].target.value == name):
        return None
    value = assign.value
    if C.integer_value(value) is None and not (isinstance(value, cst.Name) and value.value == "None"):
        return None
    return prev, value


def _replace_loop(analyzer: FileAnalyzer, loop: cst.For, branch: cst.If, name: str, found: cst.BaseExpression) -> list[Edit] | None:
    scope = analyzer.scopes.get(loop)
    if scope is None:
        return None
    assignments = [a for a in scope.assignments[name] if isinstance(a, Assignment)]
    inside = [a for a in assignments if any(p is branch for p in C.ancestors(analyzer, a.node))]
    if len(inside) != 1:
        return None
    init = _init_statement(analyzer, loop, name)
    others = [a for a in assignments if a is not inside[0]]
    for other in others:  # only literal initial values before the loop may remain
        if not isinstance(other.node, cst.Name):
            return None
        value = C.binding_value(analyzer, other.node)
        before = analyzer.positions[other.node].start.line < analyzer.positions[loop].start.line
        if value is None or not before or (C.integer_value(value) is None and not (isinstance(value, cst.Name) and value.value == "None")):
            return None
    if not _name_uses_ok(analyzer, assignments, loop):
        return None
    fold = init is not None and not any(line.comment for line in loop.leading_lines)
    first: cst.BaseStatement = init[0] if fold else loop  # type: ignore[index]
    new = cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(name))], value=found)])
    edit = C.replace_statements(analyzer, first, loop, [new])
    return [edit] if edit is not None else None


# -- generators and comprehensions ----------------------------------------------------------------
def _comprehension_mask(
    analyzer: FileAnalyzer, gen: cst.GeneratorExp | cst.ListComp, xp: str
) -> tuple[cst.BaseExpression, RangeInfo] | None:
    comp = gen.for_in
    if comp.inner_for_in is not None or comp.asynchronous is not None or not comp.ifs:
        return None
    if not (isinstance(comp.target, cst.Name) and isinstance(gen.elt, cst.Name) and gen.elt.value == comp.target.value):
        return None
    rng = range_info(comp.iter)
    if rng is None or rng.start != 0:
        return None
    masks: list[cst.BaseExpression] = []
    bases: list[cst.BaseExpression] = []
    for cond in comp.ifs:
        vectorized = vectorize_predicate(analyzer, cond.test, comp.target.value, xp)
        if vectorized is None:
            return None
        masks.append(vectorized[0])
        bases.extend(vectorized[1])
    if not _covers(analyzer, rng, bases):
        return None
    mask = masks[0]
    for more in masks[1:]:
        mask = cst.BinaryOperation(left=_parens(mask), operator=cst.BitAnd(), right=_parens(more))
    return mask, rng


def _search_call(analyzer: FileAnalyzer, call: cst.Call, xp: str) -> list[Edit] | None:
    name = call_name(call.func)
    if name not in (["next"], ["max"], ["min"]) or not call.args or any(a.keyword or a.star for a in call.args):
        return None
    gen = call.args[0].value
    if not isinstance(gen, cst.GeneratorExp):
        return None
    built = _comprehension_mask(analyzer, gen, xp)
    if built is None:
        return None
    mask, rng = built
    if name == ["next"]:
        last = rng.reverse
    else:
        last = name == ["max"]
    found = found_index(xp, mask, last, rng.stop)
    if len(call.args) == 2:
        if name != ["next"] or C.integer_value(call.args[1].value) is None:
            return None
        found = C.xp_call(xp, "where", C.xp_call(xp, "any", _strip(mask)), found, call.args[1].value)
    elif len(call.args) != 1:
        return None
    if not _bound_name_ok(analyzer, call):
        return None
    return [C.replace_expression(analyzer, call, found, parens=C.needs_parens(analyzer, call) and isinstance(found, cst.BinaryOperation))]


def _search_subscript(analyzer: FileAnalyzer, node: cst.Subscript, xp: str) -> list[Edit] | None:
    values = C.index_values(node)
    if values is None or len(values) != 1 or C.integer_value(values[0]) not in (0, -1):
        return None
    last = C.integer_value(values[0]) == -1
    value = node.value
    if isinstance(value, cst.ListComp):
        built = _comprehension_mask(analyzer, value, xp)
        if built is None:
            return None
        mask, rng = built
        found = found_index(xp, mask, last != rng.reverse, rng.stop)
    else:
        mask_and_size = _nonzero_mask(analyzer, value)
        if mask_and_size is None:
            return None
        mask, size = mask_and_size
        found = found_index(xp, mask, last, size)
    if not _bound_name_ok(analyzer, node):
        return None
    return [C.replace_expression(analyzer, node, found, parens=C.needs_parens(analyzer, node) and isinstance(found, cst.BinaryOperation))]


def _nonzero_mask(analyzer: FileAnalyzer, value: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """For ``flatnonzero(m)`` or ``nonzero(m)[0]``: the mask and the length of the search."""
    inference = analyzer.context.inference
    tuple_form = False
    if isinstance(value, cst.Subscript):
        inner = C.index_values(value)
        if inner is None or len(inner) != 1 or C.integer_value(inner[0]) != 0:
            return None
        value, tuple_form = value.value, True
    if not isinstance(value, cst.Call):
        return None
    func = C.module_function(analyzer, value)
    args = positional(value)
    if func is not None and len(args) == 1 and len(value.args) == 1:
        mask = args[0]
        if tuple_form != (func in ("nonzero", "where")) or func not in ("flatnonzero", "nonzero", "where"):
            return None
    elif tuple_form and isinstance(value.func, cst.Attribute) and value.func.attr.value == "nonzero" and not value.args:
        mask = value.func.value
        func = "nonzero"
    else:
        return None
    kind = inference.kind(mask)
    if not kind.is_array:
        return None
    if tuple_form and kind.rank is not None and kind.rank != 1:
        return None  # nonzero(m)[0] of a matrix is a row index
    held = _parens(_strip(mask))
    if tuple_form or kind.rank == 1:
        size: cst.BaseExpression = cst.Subscript(
            value=cst.Attribute(value=held, attr=cst.Name("shape")),
            slice=[cst.SubscriptElement(slice=cst.Index(value=cst.Integer("0")))],
        )
    else:
        size = cst.Attribute(value=held, attr=cst.Name("size"))
    return mask, size
