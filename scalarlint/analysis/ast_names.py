"""Names the first pass reads off ``ast`` nodes: a call's dotted target, the absolute module of
a relative import, and the local functions a keyword argument hands over. Kept apart from the
index's walk so that the fixers, which resolve imports too, share them without the walk."""

from __future__ import annotations

import ast

from scalarlint.analysis.rule_decorators import dotted_name

PARTIALS = frozenset({"partial", "functools.partial"})


def call_target(func: ast.expr) -> tuple[str, ...] | None:
    """``np.linalg.norm`` -> ("np", "linalg", "norm"); None for a call of a call or a subscript."""
    name = dotted_name(func)
    return tuple(name.split(".")) if name else None


def resolve_relative(package: str, module: str | None, level: int) -> str:
    """The absolute module of ``from ..ops import f`` seen from ``package`` (``level`` dots)."""
    if level == 0:
        return module or ""
    parts = package.split(".") if package else []
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    base = ".".join(parts)
    if module:
        return f"{base}.{module}" if base else module
    return base


def handed_functions(value: ast.expr) -> list[str]:
    """The local names of the functions ``value`` hands over: ``boundary=_endpoint_term``,
    ``build=partial(build_integrand, f_conv=f)``, ``solve=_replay if accelerated else _mesh``."""
    if isinstance(value, ast.Name):
        return [value.id]
    if isinstance(value, ast.Call) and value.args and dotted_name(value.func) in PARTIALS:
        return handed_functions(value.args[0])
    if isinstance(value, ast.IfExp):
        return handed_functions(value.body) + handed_functions(value.orelse)
    return []
