"""Which top-level packages a module imports: a module-wide fact some checks depend on (torch's
indexing syncs on a 0-d index where JAX's gathers), read once per module."""

from __future__ import annotations

import libcst as cst


def root_name(name: cst.BaseExpression) -> str:
    """``torch`` for ``torch.nn.functional``; "" for anything that is not a dotted name."""
    while isinstance(name, cst.Attribute):
        name = name.value
    return name.value if isinstance(name, cst.Name) else ""


def imported_roots(module: cst.Module) -> frozenset[str]:
    """Top-level packages named by the module's absolute imports, at any depth (imports inside
    functions count: ``import torch`` in a helper still makes its arrays torch tensors)."""
    roots: set[str] = set()
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Import):
            roots.update(root_name(alias.name) for alias in node.names)
        elif isinstance(node, cst.ImportFrom):
            if node.module is not None and not node.relative:
                roots.add(root_name(node.module))
        elif isinstance(node, (cst.Module, cst.IndentedBlock, cst.SimpleStatementLine, cst.If, cst.Try, cst.With,
                               cst.FunctionDef, cst.ClassDef, cst.ExceptHandler, cst.Else, cst.Finally)):
            stack.extend(node.children)
    return frozenset(roots)
