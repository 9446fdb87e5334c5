"""Sums of outer products over a loop (SL101, SL104) become one matrix product.

What it rewrites
    A loop adding one scaled outer product per index, the pullback of ``svdvals`` (and of
    ``eigh``, low-rank updates) as ChainRules writes it::

        for i in range(k):                                     ->  dA += (U[:, :k] * ds[:k]) @ Vh[:k, :]
            dA += ds[i] * xp.outer(U[:, i], Vh[i, :])

    ``sum_i c[i] * outer(u_i, v_i)`` is ``(columns u_i scaled by c) @ (rows v_i)``: one matrix
    product instead of ``k`` launches of an ``n x m`` update and ``k`` scalar reads.

When it is offered
    The loop runs over ``range(k)`` from 0; its body is one ``acc += v`` (``acc`` a name)
    where ``v`` is ``xp.outer(a, b)`` or ``c * xp.outer(a, b)`` (either order), ``c`` is an
    element ``c[i]`` of an array or loop-invariant, and ``a``, ``b`` are each a column
    ``P[:, i]`` or a row ``P[i, :]``/``P[i]`` of a loop-invariant matrix; ``i`` is not used after
    the loop; an array module alias is in scope.

Applicability
    Unsafe: it assumes the matrices have at least ``k`` columns (or rows) to take, that
    ``acc`` does not share memory with them, and the products are summed in another order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.loop_range import range_info
from scalarlint.diagnostics import Applicability, Fix

from .array_evidence import known_array
from .cst_helpers import names_in
from .elementwise import module_function
from .index_facts import index_values
from .loop_names import index_unused_after, loops_around
from .loop_plan import single_small_statement
from .namespaces import array_namespace_alias
from .statements import replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

MESSAGE = "Replace the sum of outer products with one matrix product"


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    loops = loops_around(analyzer, finding.node)
    if not loops or not isinstance(loops[0], cst.For):
        return []
    edit = _rewrite(analyzer, loops[0])
    return [Fix(Applicability.UNSAFE, MESSAGE, (edit,))] if edit is not None else []


def _rewrite(analyzer: AnalyzedFile, loop: cst.For):  # type: ignore[no-untyped-def]
    if loop.orelse is not None or not isinstance(loop.target, cst.Name) or not isinstance(loop.body, cst.IndentedBlock):
        return None
    rng = range_info(loop.iter)
    xp = array_namespace_alias(analyzer, loop)
    if rng is None or rng.start != 0 or rng.reverse or xp is None or len(loop.body.body) != 1:
        return None
    update = single_small_statement(loop.body.body[0])
    if not (isinstance(update, cst.AugAssign) and isinstance(update.operator, cst.AddAssign) and isinstance(update.target, cst.Name)):
        return None
    index = loop.target.value
    found = _scaled_outer(analyzer, update.value, xp)
    if found is None or not index_unused_after(analyzer, loop) or index in names_in(rng.stop):
        return None
    scale, left, right = found
    stop = rng.stop.with_changes(lpar=(), rpar=()) if getattr(rng.stop, "lpar", None) else rng.stop
    columns = _stacked(analyzer, left, index, stop, as_columns=True)
    rows = _stacked(analyzer, right, index, stop, as_columns=False)
    if columns is None or rows is None or update.target.value in names_in(update.value):
        return None
    if scale is not None:
        factor = _scale(analyzer, scale, index, stop)
        if factor is None:
            return None
        columns = cst.BinaryOperation(left=columns, operator=cst.Multiply(), right=factor, lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    product = cst.BinaryOperation(left=columns, operator=cst.MatrixMultiply(), right=rows)
    statement = cst.SimpleStatementLine(body=[update.with_changes(value=product)])
    return replace_statements(analyzer, loop, loop, [statement])


def _scaled_outer(analyzer: AnalyzedFile, value: cst.BaseExpression, xp: str):  # type: ignore[no-untyped-def]
    """(scale or None, a, b) of ``c * xp.outer(a, b)`` or ``xp.outer(a, b)``."""
    def outer(node: cst.BaseExpression):  # type: ignore[no-untyped-def]
        if isinstance(node, cst.Call) and module_function(analyzer, node) == "outer" and len(node.args) == 2:
            if not any(a.keyword or a.star for a in node.args):
                return node.args[0].value, node.args[1].value
        return None

    pair = outer(value)
    if pair is not None:
        return None, pair[0], pair[1]
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        for scale, other in ((value.left, value.right), (value.right, value.left)):
            pair = outer(other)
            if pair is not None:
                return scale, pair[0], pair[1]
    return None


def _stacked(analyzer: AnalyzedFile, vector: cst.BaseExpression, index: str, stop: cst.BaseExpression, as_columns: bool):  # type: ignore[no-untyped-def]
    """The ``k`` vectors ``vector`` takes over the loop, as the columns (``as_columns``) or
    the rows of one matrix: ``P[:, i]`` -> ``P[:, :k]`` / ``P[:, :k].T``, ``P[i, :]`` -> ``P[:k, :].T`` / ``P[:k, :]``."""
    if not (isinstance(vector, cst.Subscript) and isinstance(vector.value, (cst.Name, cst.Attribute))):
        return None
    if index in names_in(vector.value) or not known_array(analyzer, vector.value):
        return None
    parts = [e.slice for e in vector.slice]
    is_index = [isinstance(p, cst.Index) and isinstance(p.value, cst.Name) and p.value.value == index for p in parts]
    full = [isinstance(p, cst.Slice) and p.lower is None and p.upper is None and p.step is None for p in parts]
    head = cst.Slice(lower=None, upper=stop)
    everything = cst.Slice(lower=None, upper=None)
    if len(parts) == 2 and full[0] and is_index[1]:  # column i
        block = vector.value
        taken = cst.Subscript(value=block, slice=[cst.SubscriptElement(everything), cst.SubscriptElement(head)])
        return taken if as_columns else cst.Attribute(value=taken, attr=cst.Name("T"))
    if (len(parts) == 2 and is_index[0] and full[1]) or (len(parts) == 1 and is_index[0]):  # row i
        taken = cst.Subscript(value=vector.value, slice=[cst.SubscriptElement(head), cst.SubscriptElement(everything)])
        return cst.Attribute(value=taken, attr=cst.Name("T")) if as_columns else taken
    return None


def _scale(analyzer: AnalyzedFile, scale: cst.BaseExpression, index: str, stop: cst.BaseExpression):  # type: ignore[no-untyped-def]
    """``c[i]`` -> ``c[:k]`` (one factor per column); a loop-invariant scale stays as it is."""
    if index not in names_in(scale):
        return scale
    values = index_values(scale) if isinstance(scale, cst.Subscript) else None
    if values and len(values) == 1 and isinstance(values[0], cst.Name) and values[0].value == index:
        if index not in names_in(scale.value) and known_array(analyzer, scale.value):  # type: ignore[attr-defined]
            return cst.Subscript(value=scale.value, slice=[cst.SubscriptElement(cst.Slice(lower=None, upper=stop))])  # type: ignore[attr-defined]
    return None
