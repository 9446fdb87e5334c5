"""The ranks a generalized ufunc signature gives a function's parameters.

``@partial(jnp.vectorize, signature="(q),(q)->(q)")`` (or ``np.vectorize``) runs the function on
the core dimensions of its arguments: inside, each parameter has exactly as many axes as its
part of the signature names (``(q)`` one, ``(m,n)`` two, ``()`` none), whatever batch the caller
hands. That is rank evidence as strong as a constructor's: ``wl, xl, yl, zl = lhs`` unpacks the
four elements of a quaternion, not four rows.
"""

from __future__ import annotations

import re

import libcst as cst

from scalarlint.analysis.syntax import call_name

VECTORIZE = "vectorize"
PARTIAL = (["partial"], ["functools", "partial"])
_PART = re.compile(r"\(([^()]*)\)")


def core_ranks(func: cst.FunctionDef) -> tuple[int, ...] | None:
    """The rank of each positional parameter under a ``vectorize`` decorator with a literal
    signature; None without one (or with a signature this cannot read)."""
    for decorator in func.decorators:
        signature = _signature_of(decorator.decorator)
        if signature is not None:
            return input_ranks(signature)
    return None


def input_ranks(signature: str) -> tuple[int, ...] | None:
    """``"(q),(m,n)->(q)"`` -> ``(1, 2)``; None when the text is no signature."""
    inputs, arrow, _ = signature.replace(" ", "").partition("->")
    if not arrow or not inputs:
        return None
    parts = _PART.findall(inputs)
    if ",".join(f"({part})" for part in parts) != inputs:
        return None
    return tuple(len([dim for dim in part.split(",") if dim]) for part in parts)


def _signature_of(expr: cst.BaseExpression) -> str | None:
    """The signature text of ``@partial(jnp.vectorize, signature=...)`` or
    ``@jnp.vectorize(signature=...)``-style decorators (the call's ``signature=`` keyword)."""
    if not isinstance(expr, cst.Call):
        return None
    name = call_name(expr.func)
    if name in PARTIAL and expr.args:
        head = call_name(expr.args[0].value)
        if not head or head[-1] != VECTORIZE:
            return None
    elif not name or name[-1] != VECTORIZE:
        return None
    for arg in expr.args:
        if arg.keyword is not None and arg.keyword.value == "signature" and isinstance(arg.value, cst.SimpleString):
            text = arg.value.evaluated_value
            return text if isinstance(text, str) else None
    return None
