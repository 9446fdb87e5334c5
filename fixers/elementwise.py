"""Which array-module calls and operators act element by element, and which reduce a whole array.

A fixer that replaces an element by a size-1 view (or a 0-d view) may keep the expression
around it only when that expression combines its operands element by element: then the view
gives the same values, in an array of the same shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.syntax import call_name, positional

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile

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
        "logaddexp", "sinc", "deg2rad", "rad2deg", "nan_to_num",
    }
)
BOOLEAN_FUNCTIONS = frozenset(
    {"equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "isnan", "isinf", "isfinite",
     "logical_and", "logical_or", "logical_not", "logical_xor", "signbit", "isneginf", "isposinf"}
)
# Reductions over every element: a 0-d result, which behaves like a scalar in an elementwise
# expression.
FULL_REDUCTIONS = frozenset({"sum", "prod", "max", "min", "amax", "amin", "mean", "any", "all", "vdot", "norm"})


def module_function(analyzer: AnalyzedFile, call: cst.Call) -> str | None:
    """``xp.sign(...)`` -> "sign" when ``xp`` is an array module; else None."""
    func = analyzer.context.inference.module_call(call)
    return func.rsplit(".", 1)[-1] if func is not None and "." not in func else None


def is_elementwise_call(analyzer: AnalyzedFile, call: cst.Call) -> bool:
    if any(a.star for a in call.args):
        return False
    name = module_function(analyzer, call)
    if name in ELEMENTWISE_FUNCTIONS:
        return True
    return call_name(call.func) == ["abs"] and len(call.args) == 1


def is_full_reduction(analyzer: AnalyzedFile, call: cst.Call) -> bool:
    name = module_function(analyzer, call)
    return name in FULL_REDUCTIONS and len(positional(call)) == 1 and not any(a.keyword for a in call.args)


ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
              cst.BitAnd, cst.BitOr, cst.BitXor)


def elementwise_parent(analyzer: AnalyzedFile, child: cst.CSTNode, parent: cst.CSTNode) -> bool:
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
