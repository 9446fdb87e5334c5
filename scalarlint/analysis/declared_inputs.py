"""The ranks an op declares for the arrays one of its methods receives.

PyTensor's simple ops list their input types in a class attribute (``itypes = [pt.dvector,
pt.dscalar, pt.dmatrix]``), and ``perform(self, node, inputs, output_storage)`` then receives
arrays of exactly those ranks in ``inputs``: ``params, t0, y = inputs`` binds a vector, a 0-d
array and a matrix, and ``inputs[2]`` is the matrix. Which method, which attribute and which
type names mean which rank are the framework's (``ClassConvention.declared_inputs`` and
``type_ranks``); this module reads the class body. A type that is not a name of the table (a
variable, a call) says nothing about its position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.frameworks import CLASS_CONVENTIONS
from scalarlint.analysis.syntax import final_name

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView

Ranks = tuple["int | None", ...]
# method name -> (class attribute, positional parameter after ``self``, rank of each type name)
DECLARING: dict[str, tuple[str, int, dict[str, int]]] = {
    method: (attribute, position, convention.type_ranks)
    for convention in CLASS_CONVENTIONS
    for method, (attribute, position) in convention.declared_inputs.items()
}


def declared_ranks(inf: "InferenceView", holder: cst.Name) -> Ranks | None:
    """The declared rank of each array ``holder`` holds, when it is the parameter a method
    receives its arrays in and the method's class declares their types; None otherwise."""
    param = inf.parameter_of(holder)
    function = inf.enclosing_function(holder)
    if param is None or not isinstance(function, cst.FunctionDef) or function.name.value not in DECLARING:
        return None
    attribute, position, ranks = DECLARING[function.name.value]
    positional = [*function.params.posonly_params, *function.params.params]
    if len(positional) <= position + 1 or positional[position + 1] is not param:
        return None
    owner = inf.facts.enclosing_class(function)
    if owner is None or inf.parents.get(function) is not owner.body:
        return None  # a method of the class itself, not a function nested in one
    key = ("declared inputs", owner, attribute)
    if key not in inf.cache:
        inf.cache[key] = _class_declaration(owner, attribute, ranks)
    return inf.cache[key]  # type: ignore[no-any-return]


def _class_declaration(owner: cst.ClassDef, attribute: str, ranks: dict[str, int]) -> Ranks | None:
    """``itypes = [pt.dvector, pt.dmatrix]`` in the class body: the rank of each entry."""
    for statement in owner.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if (
                isinstance(small, cst.Assign) and isinstance(small.value, (cst.List, cst.Tuple))
                and any(isinstance(t.target, cst.Name) and t.target.value == attribute for t in small.targets)
            ):
                return tuple(_type_rank(e.value, ranks) for e in small.value.elements)
    return None


def _type_rank(entry: cst.BaseExpression, ranks: dict[str, int]) -> int | None:
    """``pt.dvector`` -> 1: the type's name, bare or after its one-letter dtype prefix."""
    name = final_name(entry)
    if name is None:
        return None
    if name in ranks:
        return ranks[name]
    return ranks.get(name[1:])
