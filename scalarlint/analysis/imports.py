"""Which library a name stands for: the top-level packages a module imports, and the qualified
names libcst's scope analysis gives a call's head (``np`` in ``np.sum(x)`` is ``numpy``)."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import Scope

from scalarlint.analysis.node_types import kinds



def root_name(name: cst.BaseExpression) -> str:
    """``torch`` for ``torch.nn.functional``; "" for anything that is not a dotted name."""
    while isinstance(name, cst.Attribute):
        name = name.value
    return name.value if isinstance(name, cst.Name) else ""


def imported_roots(module: cst.Module) -> frozenset[str]:
    """Top-level packages named by the module's absolute imports, at any depth (imports inside
    functions count: ``import torch`` in a helper still makes its arrays torch tensors)."""
    roots: set[str] = set()
    for node in _import_statements(module):
        if isinstance(node, cst.Import):
            roots.update(root_name(alias.name) for alias in node.names)
        elif isinstance(node, cst.ImportFrom) and node.module is not None and not node.relative:
            roots.add(root_name(node.module))
    return frozenset(roots)


_LINES, _IMPORTS = kinds(cst.SimpleStatementLine), kinds(cst.Import, cst.ImportFrom)
_HOLDING_STATEMENTS = kinds(
    cst.BaseCompoundStatement, cst.IndentedBlock, cst.SimpleStatementSuite, cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.MatchCase
)


def _import_statements(module: cst.Module) -> list[cst.Import | cst.ImportFrom]:
    """The import statements at any depth, found by walking statements only: an import is a
    statement, so the expressions (most of a module's nodes) need no visit."""
    found: list[cst.Import | cst.ImportFrom] = []
    stack: list[cst.CSTNode] = list(module.body)
    while stack:
        node = stack.pop()
        kind = type(node)  # exact types (``node_types``)
        if kind in _LINES:
            found.extend(s for s in node.body if type(s) in _IMPORTS)  # type: ignore[attr-defined]
        elif kind in _HOLDING_STATEMENTS:
            stack.extend(_statement_children(node))
    return found


def _statement_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The blocks and statements directly under a compound statement (bodies, ``else``,
    ``except``, ``finally``, ``case``), not its expressions."""
    out: list[cst.CSTNode] = []
    for name in ("body", "orelse", "handlers", "finalbody", "cases"):
        part = getattr(node, name, None)
        if part is None:
            continue
        if isinstance(part, (list, tuple)):
            out.extend(part)
        else:
            out.append(part)
    return out


def call_head(call: cst.Call) -> cst.BaseExpression:
    """``np`` of ``np.linalg.norm(x)``: the name a dotted call starts from."""
    return dotted_head(call.func)


def dotted_head(expr: cst.BaseExpression) -> cst.BaseExpression:
    """``np`` of ``np.linalg.norm`` (a call's function, or a function handed over as a value)."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return expr


def qualified_names(head: cst.BaseExpression, scope: Scope | None) -> frozenset[str]:
    """What ``head`` is bound to (``numpy`` for ``np``), as libcst's scope analysis resolves it."""
    if scope is None or not isinstance(head, (cst.Name, cst.Attribute)):
        return frozenset()
    try:
        return frozenset(qn.name for qn in scope.get_qualified_names_for(head))
    except Exception:  # libcst can fail on exotic nodes; naming nothing is the safe answer
        return frozenset()
