"""Size-1 slice views for one-element reads and writes (SL101, SL102).

What it rewrites
    A statement that writes one element from an elementwise expression of element reads::

        dx[i] = xp.sign(x[i]) * dy        ->  dx[i:i + 1] = xp.sign(x[i:i + 1]) * dy
        dA[0, 1] = -dy * A[1, 0]          ->  dA[0:1, 1:2] = -dy * A[1:2, 0:1]
        g[-1] += w[-1] * dy               ->  g[-1:] += w[-1:] * dy

    Every axis gets its own ``k:k + 1``; negative literals become ``-1:`` and ``-k:-k + 1``;
    ``n - 1`` becomes ``n - 1:n``. The write and every read that flows into it through
    elementwise operations (arithmetic, comparisons, ``xp.sign``/``xp.exp``/... and builtin
    ``abs``) are rewritten together, as one fix shared by their findings. A size-1 view is a
    kernel on the device: no scalar leaves it, nothing syncs, strict backends accept it.

When it is offered
    Only where the value stays inside such an expression *assigned to a size-1 view*. A read
    whose 0-d result escapes (bound to a name, returned, used in an ``if``, passed to an
    unknown function) is not sliced: its shape would change from ``()`` to ``(1,)``. Only
    indices that are host integers. Literals and known non-negative ones (sizes, ``range``
    loop variables with a non-negative start, ``len(x) - 1``) give ``i:i + 1``; an ``i`` of
    unknown sign gives ``i:i + 1 or None``, since for ``i = -1`` the plain ``x[i:i+1]`` is the
    empty ``x[-1:0]`` while ``x[-1:None]`` is the last element. Not inside a loop over data: a view per
    iteration is still one kernel launch per element, and silencing the finding would hide the
    loop (vectorize it instead). Not for an index computed by a search loop: the search fixer
    turns that index into a device value, and device slice bounds sync.

Applicability
    Safe: every element computed is the same, only its container changes from a 0-d value to
    a size-1 view, and the write stores it in the same place. Unsafe when some operand of the
    value is not known to be a scalar, a 0-d value or an array parameter: an array of known
    rank >= 1 that is not sliced, an unknown call, or a value of unknown kind. A vector
    broadcasts against ``(1,)`` differently than against ``()``, and a Python sequence is
    stored as one object in ``a[0] = seq`` of an object array but spread over ``a[0:1]``.

Example
    ``dx[i] = xp.sign(x[i]) * dy`` (``i = x.shape[0] - 1``) becomes
    ``dx[i:i + 1] = xp.sign(x[i:i + 1]) * dy``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.kinds import Tag
from scalarlint.analysis.syntax import call_name, integer_value
from scalarlint.analysis.tree import walk
from scalarlint.diagnostics import Applicability, Edit, Fix

from . import loop_obstacles
from .array_evidence import known_array
from .cst_helpers import ancestors
from .device_index import host_conversion
from .edits import replace_expression, span
from .elementwise import elementwise_parent, is_elementwise_call, is_full_reduction
from .index_facts import deferred_to_search, index_values, is_host_int, known_nonnegative
from .outcomes import Declined

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding



def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix] | Declined:
    """The fix, or why there is none: what stops a vector form of the loop around the
    finding (``loop_obstacles``), or this fixer's own reason outside loops."""
    return _fixes(finding, analyzer) or loop_obstacles.declined(finding, analyzer) or _declined_outside_loops(finding, analyzer) or []


def _fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    node = finding.node
    if not isinstance(node, cst.Subscript):
        return []
    ctx = analyzer.context
    if ctx.in_data_loop(node):
        return []
    target = node if finding.code == "SL102" else _write_target_of_read(analyzer, node)
    if target is None:
        return []
    plan = _plan(analyzer, target)
    if plan is None:
        return []
    edits, safe = plan
    if finding.code == "SL101" and not any(e.location == span(analyzer, node)[0] for e in edits):
        return []
    applicability = Applicability.SAFE if safe else Applicability.UNSAFE
    return [Fix(applicability, "Use size-1 slice views (no scalar leaves the device)", tuple(edits))]


def _write_target_of_read(analyzer: AnalyzedFile, read: cst.Subscript) -> cst.Subscript | None:
    """The element write a read flows into through elementwise operations, if any."""
    child: cst.CSTNode = read
    for parent in ancestors(analyzer, read):
        if isinstance(parent, (cst.Assign, cst.AugAssign)):
            if parent.value is not child:
                return None
            if isinstance(parent, cst.Assign):
                if len(parent.targets) != 1:
                    return None
                target = parent.targets[0].target
            else:
                target = parent.target
            return target if isinstance(target, cst.Subscript) else None
        if not elementwise_parent(analyzer, child, parent):
            return None
        child = parent
    return None


def _statement_value(analyzer: AnalyzedFile, target: cst.Subscript) -> cst.BaseExpression | None:
    parent = analyzer.parents.get(target)
    if isinstance(parent, cst.AssignTarget):
        assign = analyzer.parents.get(parent)
        if isinstance(assign, cst.Assign) and len(assign.targets) == 1:
            return assign.value
        return None
    if isinstance(parent, cst.AugAssign) and parent.target is target:
        return parent.value
    return None


def size1_slice(analyzer: AnalyzedFile, index: cst.BaseExpression) -> cst.Slice | None:
    """``k`` -> ``k:k + 1`` for a host integer index that is safe to slice, else None."""
    literal = integer_value(index)
    if literal is not None:
        if literal >= 0:
            return cst.Slice(lower=cst.Integer(str(literal)), upper=cst.Integer(str(literal + 1)))
        upper = None if literal == -1 else _negative(literal + 1)
        return cst.Slice(lower=_negative(literal), upper=upper)
    if not is_host_int(analyzer, index) or host_conversion(analyzer, index) is not None:
        return None  # (an index converted from the device only to index: device_index keeps it there)
    lower = index.with_changes(lpar=(), rpar=()) if getattr(index, "lpar", None) else index
    if not known_nonnegative(analyzer, index):
        return any_sign_slice(lower)
    if (
        isinstance(lower, cst.BinaryOperation)
        and isinstance(lower.operator, cst.Subtract)
        and integer_value(lower.right) == 1
    ):
        upper: cst.BaseExpression = lower.left  # n - 1 -> n - 1:n
    elif isinstance(lower, cst.BinaryOperation) and isinstance(lower.operator, cst.Add) and integer_value(lower.right) is not None:
        upper = lower.with_changes(right=cst.Integer(str(integer_value(lower.right) + 1)))  # type: ignore[operator]
    else:
        upper = cst.BinaryOperation(left=lower, operator=cst.Add(), right=cst.Integer("1"))
    return cst.Slice(lower=lower, upper=upper)


def any_sign_slice(index: cst.BaseExpression) -> cst.Slice:
    """``i`` -> ``i:i + 1 or None``: one element for every integer ``i``, negative included.

    ``i + 1`` is ``0`` exactly when ``i == -1``, and ``x[-1:0]`` would be empty; ``0 or None``
    makes that ``x[-1:]``. Only for host integers: ``or`` on a device value would sync.
    """
    operand = index.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]) if isinstance(index, (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.NamedExpr)) else index
    upper = cst.BooleanOperation(
        left=cst.BinaryOperation(left=operand, operator=cst.Add(), right=cst.Integer("1")),
        operator=cst.Or(),
        right=cst.Name("None"),
    )
    return cst.Slice(lower=index, upper=upper)


def _negative(value: int) -> cst.BaseExpression:
    return cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer(str(-value)))


def sliced(analyzer: AnalyzedFile, node: cst.Subscript) -> cst.Subscript | None:
    values = index_values(node)
    if values is None:
        return None
    elements = []
    for element, value in zip(node.slice, values):
        view = size1_slice(analyzer, value)
        if view is None:
            return None
        elements.append(element.with_changes(slice=view))
    return node.with_changes(slice=elements)


def _plan(analyzer: AnalyzedFile, target: cst.Subscript) -> tuple[list[Edit], bool] | None:
    inference = analyzer.context.inference
    if not _known_element(analyzer, target) or deferred_to_search(analyzer, target):
        return None
    value = _statement_value(analyzer, target)
    if value is None:
        return None
    new_target = sliced(analyzer, target)
    if new_target is None:
        return None
    axes = len(target.slice)
    edits = [replace_expression(analyzer, target, new_target)]
    safe = True
    reads: list[cst.Subscript] = []
    for node in walk(value):
        if isinstance(node, cst.Subscript) and inference.selects_element(node) and _flows_into(analyzer, node, value):
            if not known_array(analyzer, node.value):
                return None  # an element of something taken for an array: its slice may be a list
            reads.append(node)
    read_ids = {id(r) for r in reads}
    for read in reads:
        if deferred_to_search(analyzer, read) or len(read.slice) > axes:
            return None
        new_read = sliced(analyzer, read)
        if new_read is None:
            return None
        edits.append(replace_expression(analyzer, read, new_read))
    if not _leaves_are_scalars(analyzer, value, read_ids):
        safe = False
    return edits, safe


def _known_element(analyzer: AnalyzedFile, node: cst.Subscript) -> bool:
    """An element of an array by evidence: ``lst[i:i + 1] = v`` raises on a Python list."""
    return analyzer.context.inference.selects_element(node) and known_array(analyzer, node.value)


def _flows_into(analyzer: AnalyzedFile, read: cst.CSTNode, value: cst.BaseExpression) -> bool:
    child = read
    while child is not value:
        parent = analyzer.parents.get(child)
        if parent is None or not elementwise_parent(analyzer, child, parent):
            return False
        child = parent
    return True


def _leaves_are_scalars(analyzer: AnalyzedFile, value: cst.BaseExpression, sliced_reads: set[int]) -> bool:
    """Whether every operand of the value other than the sliced reads is a scalar or 0-d."""
    inference = analyzer.context.inference
    stack: list[cst.CSTNode] = [value]
    while stack:
        node = stack.pop()
        if id(node) in sliced_reads:
            continue
        if isinstance(node, cst.BinaryOperation):
            stack.extend((node.left, node.right))
            continue
        if isinstance(node, cst.UnaryOperation):
            stack.append(node.expression)
            continue
        if isinstance(node, cst.Comparison):
            stack.extend([node.left, *(c.comparator for c in node.comparisons)])
            continue
        if isinstance(node, cst.Call):
            if is_full_reduction(analyzer, node):
                continue
            if is_elementwise_call(analyzer, node):
                stack.extend(a.value for a in node.args)
                continue
            return False
        if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary)):
            continue
        if not isinstance(node, cst.BaseExpression):
            return False
        kind = inference.kind(node)
        if kind.tag in (Tag.HOST_INT, Tag.HOST_SCALAR, Tag.DEVICE_SCALAR):
            continue
        if kind.tag is Tag.ARRAY and (kind.rank is None or kind.rank == 0 or kind.doubt):
            continue  # an array parameter or a value of unknown rank: the usual size-1 cotangent
        return False  # a vector, a Python container or something unknown: look before changing
    return True


def _declined_outside_loops(finding: Finding, analyzer: AnalyzedFile) -> Declined | None:
    """Why a one-element read outside loops keeps its scalar: a view would only move the sync
    to where the element is used on the host, or an index is not a host integer."""
    node = finding.node
    if finding.code != "SL101" or not isinstance(node, cst.Subscript) or not loop_obstacles.outside_loops(finding, analyzer):
        return None
    if not analyzer.context.inference.selects_element(node):
        return None
    use = _host_use(analyzer, node)
    if use:
        return Declined(f"the element is used on the host ({use}): a view would only move the sync there")
    if any(not is_host_int(analyzer, v) for v in index_values(node) or []):
        return Declined("an index is not a host integer")
    return None


def _host_use(analyzer: AnalyzedFile, node: cst.CSTNode) -> str | None:
    """Where the element, through elementwise operations, reaches the host: a condition, a
    conversion or size, an index."""
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
