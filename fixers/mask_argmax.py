"""``argmax`` of a boolean mask, written so that every array library the rule's namespace may
stand for accepts it.

The search fixers find the first (or last) match of a predicate as ``xp.argmax(mask)``. NumPy,
CuPy and JAX take a boolean array there, but the array API standard defines ``argmax`` for
real-valued arrays only: PyTorch refuses ``bool`` (``argmax(): does not support bool input``,
also through ``array_api_compat.torch``) and ``array_api_strict`` does too. So where ``xp`` is an
array-API namespace (``array_namespace(x)``, ``x.__array_namespace__()``, ``array_api_strict``)
the mask is cast first: ``xp.argmax(xp.astype(mask, xp.int8))``, the standard spelling, one
elementwise kernel more. ``int8`` keeps the cast as small as the mask.

Where ``xp`` is an imported array module (``import numpy as np``, ``cupy``, ``jax.numpy``) or
CuPy's ``get_array_module`` (which returns one of those), the mask stays as it is: those
modules take a boolean ``argmax``, and NumPy before 2.0 has no ``np.astype``. A bare ``torch``
module has no ``astype`` either, so it is left as well (its ``flip`` needs ``dims`` anyway: the
search fixers' output is written for array-API namespaces, not for the ``torch`` module).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from scalarlint.analysis.syntax import call_name

from .cst_helpers import binding_value, dotted
from .edits import xp_call

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile

# Calls that return an array-API namespace (not a plain module that may predate the standard).
_STANDARD_FACTORIES = frozenset({"array_namespace", "get_namespace", "array_module", "__array_namespace__"})
# Modules imported as the namespace that follow the standard's argmax (real-valued input only).
_STANDARD_MODULES = frozenset({"array_api_strict"})


def _imported_module(node: cst.Import | cst.ImportFrom, bound: str) -> str | None:
    """The dotted module ``bound`` names after this import statement, if it binds it."""
    if isinstance(node, cst.Import):
        for alias in node.names:
            name = dotted(alias.name)
            local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name.split(".")[0]
            if local == bound:
                return name if alias.asname else name.split(".")[0]
        return None
    if isinstance(node.names, cst.ImportStar) or node.module is None:
        return None
    for alias in node.names:
        name = dotted(alias.name)
        local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name
        if local == bound:
            return f"{dotted(node.module)}.{name}"
    return None


def _standard_binding(analyzer: AnalyzedFile, assignment: Assignment) -> bool:
    node = assignment.node
    if isinstance(node, (cst.Import, cst.ImportFrom)):
        return _imported_module(node, assignment.name) in _STANDARD_MODULES
    if isinstance(node, cst.Name):
        value = binding_value(analyzer, node)
        if isinstance(value, cst.Call):
            parts = call_name(value.func)
            return bool(parts) and parts[-1] in _STANDARD_FACTORIES
    return False


def needs_numeric_mask(analyzer: AnalyzedFile, node: cst.CSTNode, xp: str) -> bool:
    """Whether ``xp`` at ``node`` is an array-API namespace, whose ``argmax`` needs a numeric
    array: every binding of the name that reaches ``node`` says so."""
    scope = analyzer.scopes.get(node)
    if scope is None or xp not in scope:
        return False
    found = list(scope[xp])
    return bool(found) and all(isinstance(a, Assignment) and _standard_binding(analyzer, a) for a in found)


def mask_argmax(xp: str, mask: cst.BaseExpression, numeric: bool) -> cst.Call:
    """``xp.argmax(mask)``, or ``xp.argmax(xp.astype(mask, xp.int8))`` when ``numeric``."""
    if numeric:
        int8 = cst.Attribute(value=cst.Name(xp), attr=cst.Name("int8"))
        mask = xp_call(xp, "astype", mask, int8)
    return xp_call(xp, "argmax", mask)
