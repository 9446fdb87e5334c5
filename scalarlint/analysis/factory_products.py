"""Functions built by factories: ``_grad = _make_grad(torch)``, where ``_make_grad`` defines a
function and returns it (bare, or wrapped by a compiler: ``njit(nogil=True)(inner)``).

Array-generic projects build one function per backend from the same source this way (tslearn's
soft-DTW gradient and masks); what a rule calls through such a name is the nested function, so
the first pass records which one each factory returns.
"""

from __future__ import annotations

import ast

from scalarlint.analysis.module_index import FunctionEntry


def returned_function(key: str, returned: list[ast.expr | None], functions: dict[str, FunctionEntry]) -> str | None:
    """The nested function every ``return`` of ``key`` hands back, bare or through a wrapping
    call (``return inner``, ``return njit(nogil=True)(inner)``): a factory that builds one
    function per backend (``_make_grad(numpy)``, ``_make_grad(torch)``) from the same source."""
    names: set[str] = set()
    for value in returned:
        while isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
            value = value.args[0]
        if not isinstance(value, ast.Name):
            return None
        names.add(value.id)
    if len(names) != 1:
        return None
    nested = f"{key}.{names.pop()}"
    return nested if nested in functions else None
