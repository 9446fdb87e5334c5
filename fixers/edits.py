"""Edits from libcst nodes, and the small expressions the fixers put into them.

Every fixer builds its replacement as libcst nodes and renders it with libcst, so the new
text is exactly what libcst would print, and the text *outside* the replaced node is never
touched: an edit spans the old node's own characters (positions exclude parentheses and
surrounding whitespace, so comments next to it stay). Whole statements are rendered at their
own indentation by ``statements``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.diagnostics import Edit, Location

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile


# -- positions and edits ------------------------------------------------------------------
def span(analyzer: AnalyzedFile, node: cst.CSTNode) -> tuple[Location, Location]:
    """The 1-based (row, column) span of ``node``'s own text (parentheses excluded)."""
    rng = analyzer.positions[node]
    return Location(rng.start.line, rng.start.column + 1), Location(rng.end.line, rng.end.column + 1)


def replace_expression(analyzer: AnalyzedFile, old: cst.BaseExpression, new: cst.BaseExpression, parens: bool = False) -> Edit:
    """Replace an expression by another. The span of ``old`` excludes its own parentheses,
    so ``new`` is printed without its own; ``parens`` adds a pair when the new expression
    binds more loosely than the one it replaces."""
    start, end = span(analyzer, old)
    bare = new.with_changes(lpar=(), rpar=()) if getattr(new, "lpar", None) else new
    text = analyzer.module.code_for_node(bare)
    if parens and not getattr(old, "lpar", None):
        text = f"({text})"
    return Edit(text, start, end)


def needs_parens(analyzer: AnalyzedFile, node: cst.CSTNode) -> bool:
    """Whether a binary operation put in place of ``node`` needs parentheses there."""
    parent = analyzer.parents.get(node)
    loose = (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Return, cst.Arg, cst.Index, cst.Element,
             cst.AssignTarget, cst.Expr, cst.DictElement, cst.NamedExpr)
    return not isinstance(parent, loose)


# -- building expressions ------------------------------------------------------------------
_KEYWORD_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def xp_call(xp: str, function: str, *args: cst.BaseExpression, axis: int | None = None) -> cst.Call:
    """``xp.function(*args)``, with ``axis=N`` when ``axis`` is given: how every fixer writes a
    call into the rule's own array module."""
    arguments = [cst.Arg(a) for a in args] + ([axis_arg(axis)] if axis is not None else [])
    return cst.Call(func=cst.Attribute(value=cst.Name(xp), attr=cst.Name(function)), args=arguments)


def axis_arg(axis: int) -> cst.Arg:
    """``axis=N`` (no spaces, as a keyword argument is written)."""
    return cst.Arg(cst.Integer(str(axis)), keyword=cst.Name("axis"), equal=_KEYWORD_EQUAL)


def bare(expr: cst.BaseExpression) -> cst.BaseExpression:
    """``expr`` without its own parentheses (to use it as an argument or a slice bound)."""
    return expr.with_changes(lpar=(), rpar=()) if getattr(expr, "lpar", None) else expr


def parenthesized(expr: cst.BaseExpression) -> cst.BaseExpression:
    """``expr`` in parentheses unless it has them or binds tighter than any operator (a name,
    call, attribute, subscript or unary operation): an operand of a new ``&``, ``|`` or ``~``."""
    if getattr(expr, "lpar", None) or isinstance(expr, (cst.Name, cst.Call, cst.Attribute, cst.Subscript, cst.UnaryOperation)):
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
