"""Boolean-mask writes and masked sums (SL106) become fixed-shape ``xp.where``.

What it rewrites
    Indexing by a boolean mask selects a data-dependent number of elements: the library must
    count them first (a sync), and graph capture or ``jit`` reject it. A masked write or sum
    keeps every element and chooses per element instead::

        dx[x <= 0] = 0              ->  dx[...] = xp.where(x <= 0, 0, dx)
        dx[m] += g                  ->  dx[...] = xp.where(m, dx + g, dx)
        dx[m] = dy[m]               ->  dx[...] = xp.where(m, dy, dx)
        s = xp.sum(x[x > 0])        ->  s = xp.sum(xp.where(x > 0, x, 0))

    A write stays a write into the same array (``[...]``, every element): another name for the
    buffer (``loss = M``, a view, the caller's argument) sees the change as before, and each
    value is cast to the array's dtype as the masked write cast it (``xp.where`` alone would
    give the promoted dtype: a float16 array would come back float64 where NumPy 1 promotes a
    0-d operand).

When it is offered
    The written array is a name or an attribute of a name (``self.g[m] = 0`` ->
    ``self.g[...] = xp.where(m, 0, self.g)``; it is named twice), an array by evidence (for an
    attribute, the array assigned to it earlier in the block will do), and the mask provably
    has its shape (``mask_shape``): built with comparisons, ``&``/``|``/``~`` and elementwise
    functions from the array itself or from arrays of the same known rank, or leading back to
    the value the array leads back to (``loss = M``; ``m = M <= 0``; ``g = xp.ones_like(M)``).
    ``a[m]`` with a lower-rank ``m`` picks whole rows, which ``xp.where`` would get wrong. The
    value is a number, a name, or an elementwise expression whose only masked reads use the
    same mask, each read on an elementwise path (``dy[m] * 2`` read as ``dy * 2``, and
    ``(p / x)[m]`` as ``p / x``, whatever ``p / x`` holds: it is computed whole either way; not
    ``xp.sum(dy[m])``). A masked read in such a write gets the write's fix; any other masked
    read is rewritten only as the one argument of ``sum`` (or ``nansum``) of the array module.
    An array module alias is in scope.

Applicability
    Unsafe: the value is computed for every element, where the mask skipped some (``1 / x``
    warns at zeros that were masked out, and an error raised for a masked-out element now
    raises); and the kept elements pass through ``xp.where``'s promoted dtype on their way back
    (an int64 array given ``0.5`` goes through float64: integers above 2**53 lose digits).
    Otherwise the array holds the same values as after the masked write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.diagnostics import Applicability, Fix

from . import loop_obstacles
from .array_evidence import known_array
from .cst_helpers import enclosing_statement
from .edits import bare, replace_expression, xp_call
from .elementwise import elementwise_parent, is_elementwise_call, is_full_reduction, module_function
from .mask_shape import assigned_before, elementwise_mask, same_rank, same_shape
from .namespaces import array_namespace_alias
from .outcomes import Declined
from .statements import replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

WRITE_MESSAGE = "Write `a[...] = xp.where(mask, value, a)` instead of through the boolean mask (fixed shape, no sync)"
SUM_MESSAGE = "Sum `xp.where(mask, a, 0)` instead of the masked elements (fixed shape, no sync)"
_AUGMENTED = {
    cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract, cst.MultiplyAssign: cst.Multiply, cst.DivideAssign: cst.Divide,
}



def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix] | Declined:
    """The fix, or why there is none: what stops a vector form of the loop around the
    finding (``loop_obstacles``), or this fixer's own reason outside loops."""
    found = _fixes(finding, analyzer)
    if isinstance(found, list) and found:
        return found
    declined = found if isinstance(found, Declined) else None
    return loop_obstacles.declined(finding, analyzer) or _declined_outside_loops(finding, analyzer, declined) or []


def _fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix] | Declined:
    node = finding.node
    if not (isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)):
        return []
    xp = array_namespace_alias(analyzer, node)
    if xp is None:
        return Declined("no array module alias (`np`, `xp`, ...) in scope to call `where` on")
    mask = node.slice[0].slice.value
    parent = analyzer.parents.get(node)
    if isinstance(parent, cst.AssignTarget) or isinstance(parent, cst.AugAssign) and parent.target is node:
        return _write(analyzer, node, mask, xp)
    write = _write_through_same_mask(analyzer, node)
    if write is not None:
        return _write(analyzer, write, mask, xp)  # the write's rewrite reads ``b`` for ``b[m]``
    return _masked_sum(analyzer, node, mask, xp)


def _write_through_same_mask(analyzer: AnalyzedFile, read: cst.Subscript) -> cst.Subscript | None:
    """For a read ``b[m]`` in the value of ``a[m] = ...``: the write's target ``a[m]``."""
    statement = enclosing_statement(analyzer, read)
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
    elif isinstance(small, cst.AugAssign):
        target = small.target
    else:
        return None
    code = analyzer.module.code_for_node
    if not (isinstance(target, cst.Subscript) and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index)):
        return None
    return target if code(target.slice[0].slice.value) == code(read.slice[0].slice.value) else None  # type: ignore[attr-defined]


def _where(xp: str, *args: cst.BaseExpression) -> cst.Call:
    return xp_call(xp, "where", *(bare(a) for a in args))



def _write(analyzer: AnalyzedFile, target: cst.Subscript, mask: cst.BaseExpression, xp: str) -> list[Fix] | Declined:
    statement = enclosing_statement(analyzer, target)
    array = target.value
    if not _named_plainly(array):
        return Declined("the masked array is not a name or an attribute of a name (the `xp.where` form names it twice)")
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return Declined("the masked write shares its line with other statements")
    small = statement.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        value = _unmasked(analyzer, small.value, mask)
    elif isinstance(small, cst.AugAssign) and type(small.operator) in _AUGMENTED:
        operand = _unmasked(analyzer, small.value, mask)
        value = None if operand is None else cst.BinaryOperation(
            left=array, operator=_AUGMENTED[type(small.operator)](), right=_parenthesized(operand)
        )
    else:
        return Declined("a chained masked write, or an augmented one other than `+=`, `-=`, `*=`, `/=`")
    if value is None:
        return Declined("the value is not elementwise in reads through the same mask (another mask, or a reduction of a masked read)")
    if not _known_target(analyzer, array):
        return Declined("the masked array is not an array by the analysis's evidence")
    if not _mask_fits(analyzer, array, mask):
        return Declined("nothing shows the mask has the array's shape (a lower-rank mask selects whole rows)")
    whole = cst.Subscript(value=array.deep_clone(), slice=[cst.SubscriptElement(cst.Index(cst.Ellipsis()))])
    write = cst.Assign(targets=[cst.AssignTarget(whole)], value=_where(xp, mask, value, array.deep_clone()))
    # the statement's own leading lines (comments above it) stay where they are
    edit = replace_statements(analyzer, statement, statement, [statement.with_changes(body=[write], leading_lines=())])
    return [Fix(Applicability.UNSAFE, WRITE_MESSAGE, (edit,))] if edit is not None else []


def _named_plainly(array: cst.BaseExpression) -> bool:
    """A name, or an attribute of a name (``self.grad``): named twice by ``a[...] = xp.where(..., a)``
    without evaluating anything else twice."""
    return isinstance(array, cst.Name) or isinstance(array, cst.Attribute) and isinstance(array.value, cst.Name)


def _known_target(analyzer: AnalyzedFile, array: cst.BaseExpression) -> bool:
    """An array by evidence: its own kind, or for ``self.g`` the array assigned to it just before."""
    if known_array(analyzer, array):
        return True
    value = assigned_before(analyzer, array) if isinstance(array, cst.Attribute) else None
    return value is not None and known_array(analyzer, value)


def _mask_fits(analyzer: AnalyzedFile, array: cst.BaseExpression, mask: cst.BaseExpression) -> bool:
    """The mask has the array's shape, by its rank or by a shared root (``mask_shape``)."""
    return elementwise_mask(analyzer, mask) and (same_rank(analyzer, array, mask) or same_shape(analyzer, array, mask))


def _parenthesized(expr: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(expr, (cst.Name, cst.Integer, cst.Float, cst.Call, cst.Attribute, cst.Subscript)) or getattr(expr, "lpar", None):
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _unmasked(analyzer: AnalyzedFile, value: cst.BaseExpression, mask: cst.BaseExpression) -> cst.BaseExpression | None:
    """The value with each ``b[mask]`` read as ``b`` (``(x / y)[mask]`` as ``(x / y)``); None
    if it is not elementwise or reads through another boolean mask."""
    mask_code = analyzer.module.code_for_node(mask)
    if not _masked_reads_unmask(analyzer, value, mask_code, elementwise_path=True):
        return None
    return value.visit(_Unmask(mask_code))  # type: ignore[return-value]


def _masked_reads_unmask(analyzer: AnalyzedFile, node: cst.CSTNode, mask_code: str, elementwise_path: bool) -> bool:
    """Whether every masked read under ``node`` goes through ``mask_code``, reads a known array
    and sits on an elementwise path from the value's top: then ``f(b[m])`` is ``f(b)[m]``. Under
    a reduction or another subscript (``xp.sum(b[m])``, ``b[m][0]``) it is not. What a masked
    read reads (``b`` of ``b[m]``) is evaluated whole in both forms, so anything goes there."""
    if isinstance(node, cst.Subscript) and _reads_through(node, mask_code, analyzer.module.code_for_node):
        return elementwise_path and known_array(analyzer, node.value)
    if isinstance(node, cst.Subscript) and analyzer.context.inference.is_mask_index(node):
        return False
    if isinstance(node, cst.Call) and not (is_elementwise_call(analyzer, node) or is_full_reduction(analyzer, node)):
        return False
    if isinstance(node, (cst.Lambda, cst.NamedExpr, cst.Await, cst.Yield, cst.BooleanOperation, cst.IfExp)):
        return False
    return all(
        _masked_reads_unmask(analyzer, child, mask_code, elementwise_path and elementwise_parent(analyzer, child, node))
        for child in node.children
    )


def _reads_through(node: cst.Subscript, mask_code: str, code: Callable[[cst.CSTNode], str]) -> bool:
    inner = node.slice[0].slice if len(node.slice) == 1 else None
    return isinstance(inner, cst.Index) and code(inner.value) == mask_code


class _Unmask(cst.CSTTransformer):
    def __init__(self, mask_code: str) -> None:
        self.mask_code = mask_code
        self.render = cst.Module(body=[]).code_for_node

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        return not _reads_through(node, self.mask_code, self.render)  # what it reads stays whole

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        return updated.value if _reads_through(updated, self.mask_code, self.render) else updated


def _masked_sum(analyzer: AnalyzedFile, read: cst.Subscript, mask: cst.BaseExpression, xp: str) -> list[Fix]:
    arg = analyzer.parents.get(read)
    call = analyzer.parents.get(arg) if isinstance(arg, cst.Arg) else None
    if not (isinstance(call, cst.Call) and isinstance(arg, cst.Arg) and len(call.args) == 1 and arg.keyword is None and not arg.star):
        return []
    if module_function(analyzer, call) not in ("sum", "nansum") or not known_array(analyzer, read.value):
        return []
    if not _mask_fits(analyzer, read.value, mask):
        return []
    replacement = _where(xp, mask, read.value, cst.Integer("0"))
    return [Fix(Applicability.UNSAFE, SUM_MESSAGE, (replace_expression(analyzer, read, replacement),))]


def _declined_outside_loops(finding: Finding, analyzer: AnalyzedFile, declined: Declined | None) -> Declined | None:
    """Why a masked access outside loops keeps its data-dependent shape: what stopped the
    write's rewrite (a read in it shares the reason), or, for a read elsewhere, that a masked
    read is rewritten only as the one argument of ``sum``."""
    node = finding.node
    if finding.code != "SL106" or not isinstance(node, cst.Subscript) or not loop_obstacles.outside_loops(finding, analyzer):
        return None
    if declined is not None:
        return declined
    return Declined("a masked read other than the one argument of `sum`: its size depends on the data")
