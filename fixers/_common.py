"""Shared machinery of the fixers: edits from libcst nodes, the array-module alias in scope,
elementwise expressions, and index facts (host integer, known non-negative).

Every fixer builds its replacement as libcst nodes and renders it with libcst, so the new
text is exactly what libcst would print, and the text *outside* the replaced node is never
touched: an edit spans the old node's own characters (positions exclude parentheses and
surrounding whitespace, so comments next to it stay). Statements are rendered at their own
indentation by ``statements`` (re-exported here).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment, ClassScope, GlobalScope, Scope

from scalarlint.analysis.array_api import NAMESPACE_FACTORIES
from scalarlint.analysis.syntax import call_name, is_range_name, positional
from scalarlint.analysis.kinds import Tag
from scalarlint.analysis.tree import walk  # noqa: F401  (the fixers call it as C.walk)
from scalarlint.diagnostics import Edit, Location

from .statements import (  # noqa: F401  (the fixers call them as C.<name>)
    attached_comment_rows,
    block_siblings,
    indentation,
    line_text,
    newline,
    render_statements,
    replace_statements,
    replaced_comments,
)

if TYPE_CHECKING:
    from scalarlint.analysis.analyzer import FileAnalyzer

# Functions of an array module that act element by element (and broadcast): an expression
# built from these keeps the shape of its operands, so a 0-d element and a size-1 view give
# the same values.
ELEMENTWISE_FUNCTIONS = frozenset(
    {
        "abs", "absolute", "sign", "negative", "positive", "exp", "expm1", "exp2", "log", "log1p", "log2",
        "log10", "sqrt", "cbrt", "square", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "asin", "acos",
        "atan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "asinh", "acosh", "atanh", "floor",
        "ceil", "trunc", "round", "rint", "conj", "conjugate", "real", "imag", "reciprocal", "add", "subtract",
        "multiply", "divide", "true_divide", "floor_divide", "power", "pow", "mod", "remainder", "maximum",
        "minimum", "fmax", "fmin", "hypot", "arctan2", "atan2", "copysign", "where", "clip", "sigmoid",
        "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "isnan", "isinf",
        "isfinite", "logical_and", "logical_or", "logical_not", "logical_xor", "signbit", "heaviside",
        "logaddexp", "sinc", "deg2rad", "rad2deg",
    }
)
BOOLEAN_FUNCTIONS = frozenset(
    {"equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "isnan", "isinf", "isfinite",
     "logical_and", "logical_or", "logical_not", "logical_xor", "signbit", "isneginf", "isposinf"}
)
# Reductions over every element: a 0-d result, which behaves like a scalar in an elementwise
# expression.
FULL_REDUCTIONS = frozenset({"sum", "prod", "max", "min", "amax", "amin", "mean", "any", "all", "vdot", "norm"})
# Array modules imported under these dotted names count as an array namespace.
MODULE_IMPORTS = frozenset(
    {"numpy", "cupy", "jax.numpy", "torch", "autograd.numpy", "array_api_strict", "dpnp", "mlx.core"}
)


# -- positions and edits ------------------------------------------------------------------
def span(analyzer: FileAnalyzer, node: cst.CSTNode) -> tuple[Location, Location]:
    """The 1-based (row, column) span of ``node``'s own text (parentheses excluded)."""
    rng = analyzer.positions[node]
    return Location(rng.start.line, rng.start.column + 1), Location(rng.end.line, rng.end.column + 1)


def replace_expression(analyzer: FileAnalyzer, old: cst.BaseExpression, new: cst.BaseExpression, parens: bool = False) -> Edit:
    """Replace an expression by another. The span of ``old`` excludes its own parentheses,
    so ``new`` is printed without its own; ``parens`` adds a pair when the new expression
    binds more loosely than the one it replaces."""
    start, end = span(analyzer, old)
    bare = new.with_changes(lpar=(), rpar=()) if getattr(new, "lpar", None) else new
    text = analyzer.module.code_for_node(bare)
    if parens and not getattr(old, "lpar", None):
        text = f"({text})"
    return Edit(text, start, end)


def needs_parens(analyzer: FileAnalyzer, node: cst.CSTNode) -> bool:
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


# -- tree navigation -----------------------------------------------------------------------
def ancestors(analyzer: FileAnalyzer, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    parent = analyzer.parents.get(node)
    while parent is not None:
        yield parent
        parent = analyzer.parents.get(parent)


def enclosing_function(analyzer: FileAnalyzer, node: cst.CSTNode) -> cst.CSTNode | None:
    for parent in ancestors(analyzer, node):
        if isinstance(parent, (cst.FunctionDef, cst.Lambda)):
            return parent
    return None


def enclosing_statement(analyzer: FileAnalyzer, node: cst.CSTNode) -> cst.BaseStatement | None:
    for parent in ancestors(analyzer, node):
        if isinstance(parent, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            return parent  # type: ignore[return-value]
    return None


def names_in(node: cst.CSTNode) -> set[str]:
    return {n.value for n in walk(node) if isinstance(n, cst.Name)}


# -- scopes --------------------------------------------------------------------------------
def scope_chain(analyzer: FileAnalyzer, node: cst.CSTNode) -> Iterator[Scope]:
    scope = analyzer.scopes.get(node)
    while scope is not None:
        if not isinstance(scope, ClassScope):
            yield scope
        if isinstance(scope, GlobalScope):
            return
        scope = scope.parent


def assignments_of(analyzer: FileAnalyzer, name: cst.Name) -> list[Assignment] | None:
    """The assignments that can reach a use of ``name``; None when something is not plain
    (builtins, imports seen through ``*``)."""
    scope = analyzer.scopes.get(name)
    if scope is None:
        return None
    refs: list = []
    for access in scope.accesses[name.value]:
        if access.node is name:
            refs = list(access.referents)
            break
    else:
        if name.value in scope:
            refs = list(scope[name.value])
    if not refs or not all(isinstance(r, Assignment) for r in refs):
        return None
    return refs  # type: ignore[return-value]


def binding_value(analyzer: FileAnalyzer, target: cst.CSTNode) -> cst.BaseExpression | None:
    """For the ``Name`` of ``name = value``: ``value``; None for any other binding."""
    parent = analyzer.parents.get(target)
    if isinstance(parent, cst.AssignTarget):
        assign = analyzer.parents.get(parent)
        if isinstance(assign, cst.Assign) and len(assign.targets) == 1:
            return assign.value
    if isinstance(parent, cst.AnnAssign) and parent.value is not None and parent.target is target:
        return parent.value
    return None


def dotted(node: cst.BaseExpression | None) -> str:
    """``a.b.c`` for a name or attribute chain, ``""`` for anything else."""
    parts = call_name(node) if node is not None else None
    return ".".join(parts) if parts else ""


def _imports_array_module(node: cst.CSTNode, bound: str) -> bool:
    if isinstance(node, cst.Import):
        for alias in node.names:
            name = dotted(alias.name)
            local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name.split(".")[0]
            if local == bound and (name in MODULE_IMPORTS if alias.asname else name in MODULE_IMPORTS and "." not in name):
                return True
    if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar) and node.module is not None:
        base = dotted(node.module)
        for alias in node.names:
            name = dotted(alias.name)
            local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name
            if local == bound and f"{base}.{name}" in MODULE_IMPORTS:
                return True
    return False


def _is_namespace_binding(analyzer: FileAnalyzer, assignment: Assignment) -> tuple[bool, int]:
    """(binds an array namespace, preference: 0 = ``array_namespace(...)``, 1 = module import)."""
    node = assignment.node
    if isinstance(node, (cst.Import, cst.ImportFrom)):
        return _imports_array_module(node, assignment.name), 1
    if isinstance(node, cst.Name):
        value = binding_value(analyzer, node)
        if isinstance(value, cst.Call):
            parts = call_name(value.func)
            if parts and parts[-1] in NAMESPACE_FACTORIES:
                return True, 0
    return False, 9


def array_namespace_alias(analyzer: FileAnalyzer, node: cst.CSTNode) -> str | None:
    """The name of the array module (or namespace) the code at ``node`` already uses.

    Looked up through the scopes around ``node``: a name bound by ``xp = array_namespace(...)``
    (any ``NAMESPACE_FACTORIES`` call) wins over an imported module (``import numpy as np``);
    inner scopes win over outer ones. The name must mean that and only that at ``node``
    (every assignment of it is such a binding), and a local binding must come before ``node``
    so the fixed code never reads it unbound. None when there is no such name: the fixers then
    offer nothing, rather than guess which library the arrays belong to.
    """
    here = analyzer.positions[node].start.line if node in analyzer.positions else 0
    best: tuple[int, int, str] | None = None
    for depth, scope in enumerate(scope_chain(analyzer, node)):
        for assignment, preference in _namespace_bindings(analyzer, scope):
            name = assignment.name
            if not _only_namespace(analyzer, node, name):
                continue
            if depth == 0 and assignment.node in analyzer.positions and analyzer.positions[assignment.node].start.line >= here:
                continue
            rank = (preference, depth, name)
            if best is None or rank < best:
                best = rank
    return best[2] if best else None


def _namespace_bindings(analyzer: FileAnalyzer, scope: Scope) -> list[tuple[Assignment, int]]:
    """The scope's assignments that bind an array namespace, with their preference (worked out
    once per scope: every finding of a file asks)."""
    cache = analyzer.context.inference.cache
    key = ("namespace-bindings", scope)
    found = cache.get(key)  # type: ignore[call-overload]
    if found is None:
        found = []
        for assignment in scope.assignments:
            if isinstance(assignment, Assignment):
                ok, preference = _is_namespace_binding(analyzer, assignment)
                if ok:
                    found.append((assignment, preference))
        cache[key] = found  # type: ignore[index]
    return found  # type: ignore[no-any-return]


def _only_namespace(analyzer: FileAnalyzer, node: cst.CSTNode, name: str) -> bool:
    scope = analyzer.scopes.get(node)
    if scope is None or name not in scope:
        return False
    found = list(scope[name])
    return bool(found) and all(isinstance(a, Assignment) and _is_namespace_binding(analyzer, a)[0] for a in found)


def name_is_free(analyzer: FileAnalyzer, node: cst.CSTNode, name: str) -> bool:
    scope = analyzer.scopes.get(node)
    return scope is None or name not in scope


# -- expressions -----------------------------------------------------------------------------
def module_function(analyzer: FileAnalyzer, call: cst.Call) -> str | None:
    """``xp.sign(...)`` -> "sign" when ``xp`` is an array module; else None."""
    func = analyzer.context.inference.module_call(call)
    return func.rsplit(".", 1)[-1] if func is not None and "." not in func else None


def is_elementwise_call(analyzer: FileAnalyzer, call: cst.Call) -> bool:
    if any(a.star for a in call.args):
        return False
    name = module_function(analyzer, call)
    if name in ELEMENTWISE_FUNCTIONS:
        return True
    return call_name(call.func) == ["abs"] and len(call.args) == 1


def is_full_reduction(analyzer: FileAnalyzer, call: cst.Call) -> bool:
    name = module_function(analyzer, call)
    return name in FULL_REDUCTIONS and len(positional(call)) == 1 and not any(a.keyword for a in call.args)


ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
              cst.BitAnd, cst.BitOr, cst.BitXor)


def elementwise_parent(analyzer: FileAnalyzer, child: cst.CSTNode, parent: cst.CSTNode) -> bool:
    """Whether ``parent`` combines ``child`` element by element (so a size-1 view of the child
    gives a size-1 view of the parent with the same values)."""
    if isinstance(parent, cst.BinaryOperation):
        return isinstance(parent.operator, ARITHMETIC)
    if isinstance(parent, cst.UnaryOperation):
        return isinstance(parent.operator, (cst.Minus, cst.Plus, cst.BitInvert))
    if isinstance(parent, cst.Comparison):
        return len(parent.comparisons) == 1 and not isinstance(
            parent.comparisons[0].operator, (cst.In, cst.NotIn, cst.Is, cst.IsNot)
        )
    if isinstance(parent, cst.ComparisonTarget):
        return True
    if isinstance(parent, cst.Arg):
        call = analyzer.parents.get(parent)
        return isinstance(call, cst.Call) and parent.keyword is None and not parent.star and is_elementwise_call(analyzer, call)
    if isinstance(parent, cst.Call):
        return is_elementwise_call(analyzer, parent) and child is not parent.func
    return False


def is_host_int(analyzer: FileAnalyzer, expr: cst.BaseExpression) -> bool:
    return analyzer.context.inference.kind(expr).tag is Tag.HOST_INT


def integer_value(expr: cst.BaseExpression) -> int | None:
    """The value of an integer literal, ``-1`` included."""
    if isinstance(expr, cst.Integer):
        try:
            return int(expr.value.replace("_", ""), 0)
        except ValueError:
            return None
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        inner = integer_value(expr.expression)
        if inner is None:
            return None
        return -inner if isinstance(expr.operator, cst.Minus) else inner
    return None


def _is_size(analyzer: FileAnalyzer, expr: cst.BaseExpression) -> bool:
    """``len(a)``, ``a.shape[k]``, ``a.size``: a size, never negative."""
    if isinstance(expr, cst.Call) and call_name(expr.func) == ["len"]:
        return True
    if isinstance(expr, cst.Attribute) and expr.attr.value in ("size", "ndim"):
        return True
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape":
        return True
    return False


def known_nonnegative(analyzer: FileAnalyzer, expr: cst.BaseExpression, depth: int = 0) -> bool:
    """Whether a host integer index is certainly ``>= 0`` whenever the indexing succeeds.

    Literals, sizes (``len``, ``.shape[k]``, ``.size``), sums and products of those, loop
    variables of ``range`` with a non-negative start and positive step, names only ever bound
    to such values, and ``size - 1`` (negative only for an empty array, where ``x[-1]`` raised
    anyway). Parameters and anything else are unknown: an index that may be ``-1`` needs
    ``x[-1:]``, not ``x[i:i+1]``.
    """
    if depth > 8:
        return False
    value = integer_value(expr)
    if value is not None:
        return value >= 0
    if _is_size(analyzer, expr):
        return True
    if isinstance(expr, cst.BinaryOperation):
        op = expr.operator
        if isinstance(op, (cst.Add, cst.Multiply, cst.FloorDivide)):
            return known_nonnegative(analyzer, expr.left, depth + 1) and known_nonnegative(analyzer, expr.right, depth + 1)
        if isinstance(op, cst.Modulo):
            return known_nonnegative(analyzer, expr.right, depth + 1)
        if isinstance(op, cst.Subtract) and integer_value(expr.right) == 1:
            return _is_size_like(analyzer, expr.left, depth + 1)
        return False
    if isinstance(expr, cst.Name):
        assignments = assignments_of(analyzer, expr)
        if not assignments:
            return False
        return all(_assignment_nonnegative(analyzer, a, depth + 1) for a in assignments)
    return False


def _is_size_like(analyzer: FileAnalyzer, expr: cst.BaseExpression, depth: int) -> bool:
    if _is_size(analyzer, expr):
        return True
    if isinstance(expr, cst.Name) and depth <= 8:
        assignments = assignments_of(analyzer, expr)
        if not assignments:
            return False
        for a in assignments:
            value = binding_value(analyzer, a.node) if isinstance(a.node, cst.Name) else None
            if value is None or not _is_size(analyzer, value):
                return False
        return True
    return False


def _assignment_nonnegative(analyzer: FileAnalyzer, assignment: Assignment, depth: int) -> bool:
    target = assignment.node
    if not isinstance(target, cst.Name):
        return False
    value = binding_value(analyzer, target)
    if value is not None:
        return known_nonnegative(analyzer, value, depth)
    parent = analyzer.parents.get(target)
    if isinstance(parent, cst.AugAssign) and isinstance(parent.operator, (cst.AddAssign, cst.MultiplyAssign)):
        return known_nonnegative(analyzer, parent.value, depth)
    if isinstance(parent, (cst.For, cst.CompFor)) and parent.target is target:
        return range_is_nonnegative(analyzer, parent.iter, depth)
    return False


def range_is_nonnegative(analyzer: FileAnalyzer, iterable: cst.BaseExpression, depth: int = 0) -> bool:
    if isinstance(iterable, cst.Call) and call_name(iterable.func) == ["reversed"] and positional(iterable):
        iterable = positional(iterable)[0]
    if not (isinstance(iterable, cst.Call) and is_range_name(call_name(iterable.func))):
        return False
    args = positional(iterable)
    if len(args) == 1:
        return True
    if len(args) == 2:
        return known_nonnegative(analyzer, args[0], depth + 1)
    if len(args) == 3:
        step = integer_value(args[2])
        return step is not None and step > 0 and known_nonnegative(analyzer, args[0], depth + 1)
    return False


def assigned_in_loop(analyzer: FileAnalyzer, name: cst.Name) -> bool:
    """Whether some assignment reaching ``name`` happens inside a loop body (not as the
    loop's own target): the value is the result of a search or an accumulation."""
    assignments = assignments_of(analyzer, name)
    if not assignments:
        return False
    for a in assignments:
        target = a.node
        if not isinstance(target, cst.Name):
            continue
        parent = analyzer.parents.get(target)
        if isinstance(parent, (cst.For, cst.CompFor)) and parent.target is target:
            continue
        for up in ancestors(analyzer, target):
            if isinstance(up, (cst.FunctionDef, cst.Lambda)):
                break
            if isinstance(up, (cst.For, cst.While)):
                return True
    return False


def index_names(node: cst.Subscript) -> list[cst.Name]:
    out: list[cst.Name] = []
    for element in node.slice:
        if isinstance(element.slice, cst.Index):
            out.extend(n for n in walk(element.slice.value) if isinstance(n, cst.Name))
    return out


def index_values(node: cst.Subscript) -> list[cst.BaseExpression] | None:
    values: list[cst.BaseExpression] = []
    for element in node.slice:
        if not isinstance(element.slice, cst.Index) or element.slice.star is not None:
            return None
        values.append(element.slice.value)
    return values


def deferred_to_search(analyzer: FileAnalyzer, node: cst.Subscript) -> bool:
    """An element access whose index comes out of a search or accumulation loop.

    The search fixer turns such an index into a 0-d device array, after which the access is a
    gather/scatter (no finding). A size-1 view or an ``allow_scalar`` block offered now would
    be applied in the same round as the search fix and become wrong or pointless (slice bounds
    that are device values sync), so these accesses get no fix of their own.
    """
    return any(assigned_in_loop(analyzer, name) for name in index_names(node))


def contains(node: cst.CSTNode, types: tuple[type, ...]) -> bool:
    return any(isinstance(n, types) for n in walk(node))


def first_of(items: Iterable[cst.CSTNode]) -> cst.CSTNode | None:
    for item in items:
        return item
    return None
