"""Scatter loops (SL101, SL102, SL104, SL105) become one ``index_add`` or one assignment.

What it rewrites
    A loop over the positions of an integer index array whose only statement adds into (or
    assigns to) the element that array names::

        for k in range(idx.shape[0]):          ->  dx = index_add(dx, idx, dy[:idx.shape[0]])
            dx[idx[k]] += dy[k]

        for i in range(len(p)):                ->  dx[p] = dy[:len(p)]
            dx[int(p[i])] = dy[i]

    ``dx[idx] += dy`` is not the same as the first loop: with a repeated index it keeps one
    write, not the sum. ``scalarlint.runtime.index_add`` sums them on every library
    (``np.add.at``, ``cupyx.scatter_add``, ``Tensor.index_add_``, JAX's ``.at[].add``) in one
    kernel. Its import is added like ``allow_scalar``'s (``runtime_import``: placed as the
    import sorter would, display-only when the project does not declare scalarlint). A plain
    assignment needs no helper: one assignment through the index array. ``int(p[i])`` around
    the index only copied it to the host and is dropped.

When it is offered
    ``range(len(idx))`` or ``range(idx.shape[0])`` starting at 0, no ``else`` or ``break``; the
    body is the one ``+=`` or ``=`` whose target is ``name[idx[k]]`` (or ``name[int(idx[k])]``);
    the value is elementwise in ``k`` (``dy[k]``, ``g * w[k]``) and does not read the target;
    ``k`` is not used after the loop.

Applicability
    Unsafe: it assumes each value array holds at least ``len(idx)`` elements, and the values
    are cast to the target's dtype once rather than element by element. For the assignment,
    a repeated index keeps the loop's last value on NumPy, but which one wins is not specified
    by every library (CuPy and PyTorch may keep any); with a permutation (``argsort``) there
    is no repeat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.loop_range import range_info
from scalarlint.analysis.syntax import call_name
from scalarlint.diagnostics import Applicability, Fix

from .cst_helpers import names_in
from .index_facts import index_values
from .loop_names import index_unused_after, loops_around
from .loop_plan import LoopPlan, single_small_statement
from .namespaces import array_namespace_alias
from .runtime_import import imported_name
from .statements import replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

NAME = "index_add"
MODULE = "scalarlint.runtime"
MESSAGE = "Replace the scatter loop with one `index_add` call (repeated indices are summed)"
ASSIGN_MESSAGE = "Replace the scatter loop with one assignment through the index array"


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    loops = loops_around(analyzer, finding.node)
    if not loops or not isinstance(loops[0], cst.For) or any(analyzer.context.is_data_loop(o) for o in loops[1:]):
        return []
    loop = loops[0]
    rewrite = _rewrite(analyzer, loop)
    if rewrite is None:
        return []
    target, index_array, values, adds = rewrite
    if not adds:  # dx[idx[k]] = v[k]: one assignment through the index array, no import
        subscript = cst.Subscript(value=target, slice=[cst.SubscriptElement(slice=cst.Index(index_array))])
        assign = cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(subscript)], value=values)])
        edit = replace_statements(analyzer, loop, loop, [assign])
        return [Fix(Applicability.UNSAFE, ASSIGN_MESSAGE, (edit,))] if edit is not None else []
    local, import_edit, blocked = imported_name(analyzer, loop, MODULE, NAME)
    if local is None:
        return []
    call = cst.Call(func=cst.Name(local), args=[cst.Arg(target), cst.Arg(index_array), cst.Arg(values)])
    statement = cst.SimpleStatementLine(body=[cst.Assign(targets=[cst.AssignTarget(target)], value=call)])
    edit = replace_statements(analyzer, loop, loop, [statement])
    if edit is None:
        return []
    edits = (edit,) if import_edit is None else (import_edit, edit)
    if blocked is not None:
        return [Fix(Applicability.DISPLAY_ONLY, f"{MESSAGE}; {blocked}", edits)]
    return [Fix(Applicability.UNSAFE, MESSAGE, edits)]


def _rewrite(analyzer: AnalyzedFile, loop: cst.For) -> tuple[cst.Name, cst.BaseExpression, cst.BaseExpression, bool] | None:
    """(target name, index array, vectorized values, whether it adds) of a scatter loop, else ``None``."""
    if loop.orelse is not None or loop.asynchronous is not None or not isinstance(loop.target, cst.Name):
        return None
    rng = range_info(loop.iter)
    if rng is None or rng.start != 0 or rng.reverse or not isinstance(loop.body, cst.IndentedBlock) or len(loop.body.body) != 1:
        return None
    xp = array_namespace_alias(analyzer, loop)
    small = single_small_statement(loop.body.body[0])
    adds = isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign)
    assigns = isinstance(small, cst.Assign) and len(small.targets) == 1
    if xp is None or not (adds or assigns):
        return None
    plan = LoopPlan(analyzer, loop, rng, xp)
    if plan.whole is None or not index_unused_after(analyzer, loop):
        return None
    target = small.target if adds else small.targets[0].target  # type: ignore[union-attr]
    values = index_values(target) if isinstance(target, cst.Subscript) else None
    if not (isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and values and len(values) == 1):
        return None
    index = _without_int(values[0])
    code = analyzer.module.code_for_node
    if not (isinstance(index, cst.Subscript) and plan.element_access(index) and code(index.value) == plan.whole):
        return None  # the position must be idx[k], with idx the array the loop runs over
    name = target.value.value
    if name in names_in(small.value) or name in names_in(index) or not plan.elementwise(small.value):
        return None
    return target.value, index.value, plan.vectorized(small.value), adds


def _without_int(index: cst.BaseExpression) -> cst.BaseExpression:
    """``int(idx[k])`` -> ``idx[k]``: the conversion only copied the index to the host."""
    if isinstance(index, cst.Call) and call_name(index.func) == ["int"] and len(index.args) == 1 and not index.args[0].keyword:
        return index.args[0].value
    return index
