"""Small readings of libcst syntax shared by the inference, the checks and the fixers."""

from __future__ import annotations

import libcst as cst

from scalarlint.analysis.node_types import kinds

_ATTRIBUTES, _NAMES, _CALLS = kinds(cst.Attribute), kinds(cst.Name), kinds(cst.Call)

BUILTIN_PREFIXES = (["six", "moves"], ["moves"], ["builtins"])
BUILTINS = frozenset({"range", "xrange", "zip", "map", "filter", "enumerate", "reversed", "sum", "max", "min"})


def call_name(func: cst.BaseExpression) -> list[str] | None:
    """``xp.linalg.norm`` -> ["xp", "linalg", "norm"]; None for anything but a dotted name.
    ``six.moves.zip`` and ``builtins.zip`` are the builtin: ["zip"] (old AD code bases use six)."""
    parts: list[str] = []
    while type(func) in _ATTRIBUTES:  # exact types (``node_types``): this runs on every call
        parts.append(func.attr.value)  # type: ignore[attr-defined]
        func = func.value  # type: ignore[attr-defined]
    if type(func) in _NAMES:
        parts.append(func.value)  # type: ignore[attr-defined]
        parts.reverse()
        if parts[:-1] in BUILTIN_PREFIXES and parts[-1] in BUILTINS:
            return [parts[-1]]
        return parts
    return None


def final_name(node: cst.BaseExpression) -> str | None:
    """``self._state_dtype`` -> "_state_dtype", ``mask`` -> "mask": the name a value is known
    by (the last of a dotted name); None for anything else."""
    if type(node) in _ATTRIBUTES:
        return node.attr.value  # type: ignore[attr-defined,no-any-return]
    if type(node) in _NAMES:
        return node.value  # type: ignore[attr-defined,no-any-return]
    return None


def keyword(call: cst.Call, name: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def positional(call: cst.Call) -> list[cst.BaseExpression]:
    return [a.value for a in call.args if a.keyword is None and not a.star]


def is_range_name(parts: list[str] | None) -> bool:
    """``range``, ``xrange`` and ``six.moves.range`` (old AD code bases still use it)."""
    return bool(parts) and parts[-1] in ("range", "xrange") and parts[:-1] in ([], ["six", "moves"], ["moves"], ["builtins"])  # type: ignore[index]


def is_range(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and is_range_name(call_name(node.func))


def is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def is_self_attribute(node: cst.BaseExpression, holder: str = "self") -> str | None:
    """``self.argmax`` -> "argmax" (``holder="ctx"``: ``ctx.argmax``, a Function's state)."""
    if type(node) in _ATTRIBUTES and type(node.value) in _NAMES and node.value.value == holder:  # type: ignore[attr-defined]
        return node.attr.value  # type: ignore[attr-defined]
    return None


CONVERTERS = frozenset({"float", "int", "bool", "complex"})  # Python scalars from one value


def is_converter_call(node: cst.CSTNode | None) -> bool:
    """``int(...)``, ``float(...)``, ``bool(...)``, ``complex(...)``."""
    name = call_name(node.func) if type(node) in _CALLS else None  # type: ignore[union-attr]
    return name is not None and len(name) == 1 and name[0] in CONVERTERS


def is_name(node: cst.CSTNode | None, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def jax_at_base(node: cst.Subscript) -> cst.BaseExpression | None:
    """``x`` of ``x.at[i]`` (JAX's indexer, read by ``.get()`` and written by ``.set()``/``.add()``);
    None for any other subscript."""
    return node.value.value if isinstance(node.value, cst.Attribute) and node.value.attr.value == "at" else None


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
