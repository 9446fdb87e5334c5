"""Array-module reductions for builtin ``sum``/``max``/``min``/``any``/``all`` (SL104).

What it rewrites
    A builtin reduction that walks an array element by element in Python becomes the array
    module's reduction, one kernel on the device::

        total = sum(x)               ->  total = xp.sum(x)          (x of rank 1)
        cols = sum(M)                ->  cols = xp.sum(M, axis=0)   (rank >= 2 or unknown)
        m = max(x)                   ->  m = xp.max(x)
        s = sum(v * v for v in x)    ->  s = xp.sum(x * x)          (elementwise generator)
        sum(x, start)                ->  start + xp.sum(x)

    Python's ``sum`` adds the *rows* of a matrix (it iterates the leading axis), hence
    ``axis=0`` whenever the rank is not known to be 1. ``any``/``all``/``max``/``min`` of a
    matrix compare whole rows and raise, so they are only rewritten for rank 1 or unknown.

When it is offered
    The argument is an array (or a generator ``f(v) for v in a`` whose ``f`` is elementwise in
    ``v``, with no ``if``), there are no keyword arguments (``key=``, ``default=``), and an
    array module alias is in scope.

Applicability
    ``sum`` and, for rank 1, ``any``/``all``: safe when the rank is known (the result is the
    same number; ``xp.sum`` adds pairwise rather than left to right, so the last bits of a float
    sum may differ, as between any two BLAS builds). Unsafe when the rank is unknown (the fix
    assumes the leading-axis semantics above), and always for ``max``/``min``: Python's
    ``max`` over data with NaNs depends on where the NaN sits, while ``xp.max`` propagates it.
    The result is a 0-d array rather than a NumPy scalar in every case.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.inference import call_name, positional
from scalarlint.analysis.tree import walk
from scalarlint.checks.sl104_element_iteration import BuiltinIteration
from scalarlint.diagnostics import Applicability, Fix

from .array_evidence import known_array
from .edits import needs_parens, replace_expression
from .elementwise import elementwise_parent
from .namespaces import array_namespace_alias

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

REDUCTIONS = frozenset({"sum", "max", "min", "any", "all"})


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    node = finding.node
    if isinstance(node, cst.Call) and isinstance(finding.match, BuiltinIteration) and finding.match.builtin in REDUCTIONS:
        call, array, vectorized = node, positional(node)[0] if positional(node) else None, None
    else:
        found = _generator_call(analyzer, node)
        if found is None:
            return []
        call, array, vectorized = found
    if array is None:
        return []
    name = call_name(call.func)
    if name is None or len(name) != 1 or name[0] not in REDUCTIONS:
        return []
    builtin = name[0]
    args = positional(call)
    if any(a.keyword is not None or a.star for a in call.args) or len(args) > (2 if builtin == "sum" else 1):
        return []
    xp = array_namespace_alias(analyzer, call)
    if xp is None:
        return []
    if not known_array(analyzer, array):
        return []  # builtin sum of a list of objects works; xp.sum of it does not
    rank = analyzer.context.inference.kind(array).rank
    if builtin != "sum" and rank is not None and rank >= 2:
        return []
    operand = vectorized if vectorized is not None else array
    new_args = [cst.Arg(operand.with_changes(lpar=(), rpar=()) if getattr(operand, "lpar", None) else operand)]
    if builtin == "sum" and rank != 1:
        new_args.append(cst.Arg(keyword=cst.Name("axis"), value=cst.Integer("0"), equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))))
    replacement: cst.BaseExpression = cst.Call(func=cst.Attribute(value=cst.Name(xp), attr=cst.Name(builtin)), args=new_args)
    parens = False
    if len(args) == 2:
        replacement = cst.BinaryOperation(left=args[1], operator=cst.Add(), right=replacement)
        parens = needs_parens(analyzer, call)
    if builtin in ("max", "min"):
        applicability = Applicability.UNSAFE
    else:
        applicability = Applicability.SAFE if rank is not None else Applicability.UNSAFE
    rendered = analyzer.module.code_for_node(replacement)
    edit = replace_expression(analyzer, call, replacement, parens=parens)
    return [Fix(applicability, f"Use the array module's reduction `{rendered}`", (edit,))]


def _generator_call(analyzer: AnalyzedFile, node: cst.CSTNode) -> tuple[cst.Call, cst.BaseExpression, cst.BaseExpression] | None:
    """``sum(f(v) for v in a)``: the call, ``a`` and the vectorized ``f(a)``."""
    comp = analyzer.parents.get(node)
    if not isinstance(comp, cst.CompFor) or comp.iter is not node or comp.ifs or comp.inner_for_in is not None:
        return None
    gen = analyzer.parents.get(comp)
    if not isinstance(gen, cst.GeneratorExp) or gen.for_in is not comp or not isinstance(comp.target, cst.Name):
        return None
    arg = analyzer.parents.get(gen)
    call = analyzer.parents.get(arg) if isinstance(arg, cst.Arg) else (arg if isinstance(arg, cst.Call) else None)
    if not isinstance(call, cst.Call) or len(call.args) != 1 or call.args[0].value is not gen:
        return None
    variable = comp.target.value
    uses = [n for n in walk(gen.elt) if isinstance(n, cst.Name) and n.value == variable]
    for use in uses:
        child: cst.CSTNode = use
        while child is not gen.elt:
            parent = analyzer.parents.get(child)
            if parent is None or not elementwise_parent(analyzer, child, parent):
                return None
            child = parent
    if not uses:
        return None
    array = node  # type: ignore[assignment]
    held = array if isinstance(array, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) else array.with_changes(
        lpar=[cst.LeftParen()], rpar=[cst.RightParen()]
    )
    vectorized = gen.elt.visit(_Substitute(variable, held))  # type: ignore[arg-type]
    return call, array, vectorized  # type: ignore[return-value]


class _Substitute(cst.CSTTransformer):
    def __init__(self, name: str, value: cst.BaseExpression) -> None:
        self.name, self.value = name, value

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return self.value if updated.value == self.name else updated
