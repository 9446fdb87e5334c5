"""Decorators that make the decorated function an AD rule: a framework's rule decorators
(``@tf.custom_gradient``, ``@ops.RegisterGradient("Op")``) and registration methods used as
decorators (``@f.defjvp``), matched on dotted names in the first pass's ``ast`` tree."""

from __future__ import annotations

import ast

from scalarlint.analysis.frameworks import REGISTRATION_METHODS, RULE_DECORATORS


def dotted_name(node: ast.expr) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def registration_decorator(node: ast.expr) -> bool:
    """``@f.defjvp`` and ``@f.defvjp``: the decorated function is the rule."""
    return isinstance(node, ast.Attribute) and node.attr in REGISTRATION_METHODS


def rule_decorator(node: ast.expr) -> str | None:
    """The name of a decorator that makes its function a rule (``@tf.custom_gradient``,
    ``@ops.RegisterGradient("Op")``, ``@bprop_getters.register(P.Op)``), matched on the last
    components of its dotted name; None for any other decorator."""
    name = dotted_name(node.func if isinstance(node, ast.Call) else node)
    if not name:
        return None
    parts = name.split(".")
    if parts[-1] not in _LAST_PARTS:  # (most calls: the first pass asks about every f(g, ...))
        return None
    for wanted in RULE_DECORATORS:
        size = wanted.count(".") + 1
        if ".".join(parts[-size:]) == wanted:
            return wanted
    return None


_LAST_PARTS = frozenset(wanted.rsplit(".", 1)[-1] for wanted in RULE_DECORATORS)  # a match ends with one
