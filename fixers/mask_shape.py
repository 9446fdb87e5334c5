"""Whether a boolean mask has the shape of the array it indexes, by evidence (for ``mask_where``).

``a[m] = v`` becomes ``a = xp.where(m, v, a)`` only when ``m`` has ``a``'s shape. With a mask of
lower rank, ``a[m]`` selects whole rows (the leading axes), where ``xp.where`` would broadcast
``m`` over the *last* axes: other elements, or an error. With the same rank the two agree,
because ``a[m]`` only runs when the shapes are equal. Two kinds of evidence say so:

Ranks (``same_rank``)
    the mask is built element by element from the array itself, or from arrays whose known
    rank is the array's.

Shape roots (``same_shape``)
    both sides lead back, through what provably keeps a shape, to one value. A name leads to
    the value it is bound to (``loss = M``: an alias), ``M <= 0`` and ``M * 2`` to ``M``
    (Python numbers do not widen a shape), ``xp.ones_like(M)``, ``M.copy()``
    and ``xp.broadcast_to(v, M.shape)`` to ``M``; and ``xp.prod(x, keepdims=True) / x`` to
    ``x``, since a ``keepdims`` reduction of ``x`` broadcasts back to ``x``'s shape. The
    *root* is where that stops: one binding (``M = margin - y * (x1 - x2)``, a parameter) or
    one expression node (``a.data``). Each binding followed is outside loops, so it holds
    one value for the whole call; a name leads to one root only when every binding of it that
    reaches the use does (the analysis's ``reaching_assignments``: ``x = xp.asarray(x)`` hides
    the parameter from later uses; ``x = x.copy()`` leads wherever ``x`` did before it). An attribute
    target (``self.g[m] = 0``) leads to the value assigned to it earlier in the same block,
    with nothing between that could rebind it.

The inference's ``key`` (the array whose shape an array shares) is no such proof: it follows
the first array of ``x * w`` even when ``w`` widens ``x`` by broadcasting, and it is the key of a
parameter that may be a number (``margin - y * d``: ``margin``). A reshape in place
(``x.shape = ...``, ``x.resize``) between the bindings and the write is not looked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from scalarlint.analysis.kinds import Tag
from scalarlint.analysis.syntax import keyword, positional
from scalarlint.analysis.tree import walk

from .cst_helpers import ancestors, binding_value
from .elementwise import ARITHMETIC, is_elementwise_call, module_function
from .statements import block_siblings

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile

_LIKE = frozenset({"ones_like", "zeros_like", "full_like", "empty_like"})
_KEEPDIMS_REDUCTIONS = frozenset({"sum", "prod", "max", "min", "amax", "amin", "mean", "any", "all", "nansum", "nanprod"})
# Python numbers. Not the inference's 0-d device values: it calls ``xp.broadcast_to(s, x.shape)``
# of a 0-d ``s`` one too, and that has ``x``'s shape.
_SCALARS = (Tag.HOST_INT, Tag.HOST_SCALAR)
# A name met again while its own binding is followed (``x = x.copy()``): it agrees with
# whatever the other bindings lead to.
_CYCLE = cst.Name("_cycle")
Root = cst.CSTNode


def same_rank(analyzer: AnalyzedFile, array: cst.BaseExpression, mask: cst.BaseExpression) -> bool:
    """Whether the mask has the array's rank: built elementwise from the array itself, or from
    arrays of the same known rank."""
    inference = analyzer.context.inference
    code = analyzer.module.code_for_node
    target_rank = inference.kind(array).rank
    if not elementwise_mask(analyzer, mask):
        return False
    operands = [
        n for n in walk(mask)
        if isinstance(n, (cst.Name, cst.Attribute)) and inference.kind(n).is_array
        and not (isinstance(analyzer.parents.get(n), cst.Attribute) and analyzer.parents.get(n).value is n)  # type: ignore[union-attr]
    ]
    if not operands:
        return False
    for operand in operands:
        if code(operand) == code(array):
            continue
        rank = inference.kind(operand).rank
        if rank is None or target_rank is None or rank != target_rank or inference.kind(operand).doubt:
            return False
    return True


def elementwise_mask(analyzer: AnalyzedFile, mask: cst.BaseExpression) -> bool:
    """Comparisons, ``&``/``|``/``~`` and elementwise calls only: the mask keeps its operands' shape."""
    for node in walk(mask):
        if isinstance(node, cst.Call) and not is_elementwise_call(analyzer, node):
            return False
        if isinstance(node, cst.Subscript):
            return False
    return True


def same_shape(analyzer: AnalyzedFile, array: cst.BaseExpression, mask: cst.BaseExpression) -> bool:
    """Whether the array (a write's target or a masked read's array) and the mask lead back to
    one root, so that they have one shape."""
    if isinstance(array, cst.Attribute):
        value = assigned_before(analyzer, array)
        target = _root(analyzer, value, frozenset()) if value is not None else None
    else:
        target = _root(analyzer, array, frozenset())
    return target is not None and target is not _CYCLE and target is _root(analyzer, mask, frozenset())


def _root(analyzer: AnalyzedFile, expr: cst.BaseExpression, visiting: frozenset[cst.CSTNode]) -> Root | None:
    """The one value ``expr`` provably shares its shape with; None when nothing says so."""
    if isinstance(expr, cst.Name):
        return _name_root(analyzer, expr, visiting)
    if isinstance(expr, cst.Attribute):
        return expr  # ``a.data``: itself, evaluated once where it stands
    if isinstance(expr, cst.Call):
        return _call_root(analyzer, expr, visiting)
    operands = _elementwise_operands(expr)
    return _broadcast_root(analyzer, operands, visiting) if operands is not None else None


def _name_root(analyzer: AnalyzedFile, name: cst.Name, visiting: frozenset[cst.CSTNode]) -> Root | None:
    bindings = analyzer.context.inference.reaching_assignments(name)
    if not bindings or not all(isinstance(b, Assignment) for b in bindings):
        return None  # builtins, names no binding of this file reaches
    roots: list[Root | None] = []
    for binding in bindings:
        target = binding.node
        if target in visiting:
            roots.append(_CYCLE)
            continue
        if _in_loop(analyzer, target):
            return None  # a value per iteration: uses may see different ones
        value = binding_value(analyzer, target)
        root = _root(analyzer, value, visiting | {target}) if value is not None else None
        roots.append(root if root is not None else target)  # no further: the binding itself
    return _agreed(roots)


def _call_root(analyzer: AnalyzedFile, call: cst.Call, visiting: frozenset[cst.CSTNode]) -> Root | None:
    function = module_function(analyzer, call)
    args = positional(call)
    if function in _LIKE and args and keyword(call, "shape") is None:
        return _root(analyzer, args[0], visiting)
    if function == "broadcast_to":
        shape = args[1] if len(args) > 1 else (keyword(call, "shape") or cst.Arg(cst.Name("None"))).value
        if isinstance(shape, cst.Attribute) and shape.attr.value == "shape":
            return _root(analyzer, shape.value, visiting)
        return None
    if function == "copy" and len(args) == 1:
        return _root(analyzer, args[0], visiting)
    if function is None and _method(call) in ("copy", "astype"):
        return _root(analyzer, call.func.value, visiting)  # type: ignore[attr-defined]
    if is_elementwise_call(analyzer, call) and len(args) == len(call.args):
        return _broadcast_root(analyzer, args, visiting)
    return None


def _broadcast_root(analyzer: AnalyzedFile, operands: list[cst.BaseExpression], visiting: frozenset[cst.CSTNode]) -> Root | None:
    """The root of an elementwise combination: the one root of its array operands; Python
    numbers do not count, and ``keepdims`` reductions of that root broadcast back to it."""
    kinds = analyzer.context.inference
    arrays = [o for o in operands if not (isinstance(o, (cst.Integer, cst.Float)) or kinds.kind(o).tag in _SCALARS)]
    reduced = [_keepdims_argument(analyzer, o) for o in arrays]
    roots = [_root(analyzer, o, visiting) for o, r in zip(arrays, reduced) if r is None]
    root = _agreed(roots)
    if root is None or root is _CYCLE:
        return root
    if any(r is not None and _root(analyzer, r, visiting) not in (root, _CYCLE) for r in reduced):
        return None
    return root


def _keepdims_argument(analyzer: AnalyzedFile, expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """``x`` of ``xp.sum(x, axis=..., keepdims=True)`` or ``x.sum(..., keepdims=True)``."""
    if not isinstance(expr, cst.Call):
        return None
    flag = keyword(expr, "keepdims")
    if flag is None or not (isinstance(flag.value, cst.Name) and flag.value.value == "True"):
        return None
    if module_function(analyzer, expr) in _KEEPDIMS_REDUCTIONS and positional(expr):
        return positional(expr)[0]
    if _method(expr) in _KEEPDIMS_REDUCTIONS and module_function(analyzer, expr) is None:
        return expr.func.value  # type: ignore[attr-defined]
    return None


def _elementwise_operands(expr: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, ARITHMETIC):
        return [expr.left, expr.right]
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus, cst.BitInvert)):
        return [expr.expression]
    if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1:
        operator = expr.comparisons[0].operator
        if not isinstance(operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)):
            return [expr.left, expr.comparisons[0].comparator]
    return None


def _agreed(roots: list[Root | None]) -> Root | None:
    """The one root all agree on (a cycle agrees with any); None on disagreement."""
    if any(r is None for r in roots):
        return None
    real = [r for r in roots if r is not _CYCLE]
    if not real:
        return _CYCLE if roots else None
    return real[0] if all(r is real[0] for r in real) else None


def _method(call: cst.Call) -> str | None:
    return call.func.attr.value if isinstance(call.func, cst.Attribute) else None


def _in_loop(analyzer: AnalyzedFile, node: cst.CSTNode) -> bool:
    for up in ancestors(analyzer, node):
        if isinstance(up, (cst.FunctionDef, cst.Lambda)):
            return False
        if isinstance(up, (cst.For, cst.While, cst.CompFor)):
            return True
    return False


def assigned_before(analyzer: AnalyzedFile, attribute: cst.Attribute) -> cst.BaseExpression | None:
    """For the target of ``self.g[m] = v``: the value of the last ``self.g = value`` before it
    in the same block, when the statements between hold no call (which could rebind it) and no
    other assignment to it."""
    code = analyzer.module.code_for_node
    statement = next((s for s in ancestors(analyzer, attribute) if isinstance(s, cst.SimpleStatementLine)), None)
    siblings = block_siblings(analyzer, statement) if statement is not None else None
    if not siblings or _in_loop(analyzer, attribute):
        return None
    for earlier in reversed(siblings[: list(siblings).index(statement)]):
        if not isinstance(earlier, cst.SimpleStatementLine):
            return None
        assign = earlier.body[0] if len(earlier.body) == 1 else None
        if isinstance(assign, cst.Assign) and len(assign.targets) == 1 and code(assign.targets[0].target) == code(attribute):
            return assign.value
        if any(isinstance(n, cst.Call) or isinstance(n, cst.Attribute) and code(n) == code(attribute) for n in walk(earlier)):
            return None
    return None
