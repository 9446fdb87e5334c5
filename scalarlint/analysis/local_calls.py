"""Which function of this module a call runs.

``helper(...)`` and ``self.method(...)``, and calls on an object the function built from a
class of the same module: ``w = Solver(...); w.run(x)`` runs ``Solver.run``, and
``idx = Index(...); idx(t, u)`` runs ``Index.__call__``, and so does ``idx(t, u)`` with a
parameter annotated ``idx: Index``. The inference asks this to take a
call's kind from what the function returns; nothing here knows about kinds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

import libcst as cst

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView


def local_function(inf: "InferenceView", call: cst.Call) -> cst.FunctionDef | None:
    func = call.func
    if isinstance(func, cst.Name):
        node = inf.definition_of(func)
        if isinstance(node, cst.FunctionDef):
            return node
        return _method_of_instance(inf, node, "__call__")  # idx = Index(...); idx(t, u)
    if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
        return None
    if func.value.value == "self":
        owner = inf.facts.enclosing_class(call)
        return _method(owner, func.attr.value) if owner is not None else None
    if func.value.value == "cls":  # cls.helper(x) in a classmethod: the class's own method
        owner = inf.facts.enclosing_class(call)
        return _method(owner, func.attr.value) if owner is not None else None
    bound = inf.definition_of(func.value)
    if isinstance(bound, cst.ClassDef):  # Node.weight_rate_spikes(x): a static or class method
        return _method(bound, func.attr.value)
    return _method_of_instance(inf, bound, func.attr.value)  # w = Solver(...); w.run(x)


def _method_of_instance(inf: "InferenceView", target: cst.CSTNode | None, method: str) -> cst.FunctionDef | None:
    """``method`` of the class of this module that ``target = Class(...)`` instantiates, or that
    a parameter is annotated with (``idx: Index``)."""
    if isinstance(target, cst.Param) and target.annotation is not None and isinstance(target.annotation.annotation, cst.Name):
        owner = inf.definition_of(target.annotation.annotation)
        return _method(owner, method) if isinstance(owner, cst.ClassDef) else None
    if not isinstance(target, cst.Name):
        return None
    value = assigned_value(target, inf.parents)
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Name):
        return None
    owner = inf.definition_of(value.func)
    return _method(owner, method) if isinstance(owner, cst.ClassDef) else None


def _method(owner: cst.ClassDef, name: str) -> cst.FunctionDef | None:
    for stmt in owner.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
            return stmt
    return None


def assigned_value(target: cst.CSTNode | None, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> cst.BaseExpression | None:
    """``v`` of ``target = v`` for a plain assignment to a single target, else None."""
    holder = parents.get(target) if target is not None else None
    assign = parents.get(holder) if isinstance(holder, cst.AssignTarget) else None
    return assign.value if isinstance(assign, cst.Assign) else None
