"""The value a search leaves when nothing matches, kept by its vectorized form.

``idx = -1; for i in range(len(x)): if x[i] > y: idx = i`` returns ``-1`` when no element
matches, but ``argmax`` of an all-false mask is ``0`` (so the last-match form gives
``n - 1``). The fix therefore writes ``xp.where(xp.any(mask), <index>, -1)``: one more
reduction, still on the device, no sync, the same result on every backend. The not-found
value may be an integer literal, a name or a size (``n``, ``len(x)``, ``x.shape[0]``) and
sums or differences of those; it is re-read after the loop, so a value other than a literal
must be bound on the line just before it. ``None`` cannot be a device value: such a search
is not rewritten, and the report says why. Neither is a search with no value before it
(nothing matching leaves the name unbound; the vector form would invent an index).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from scalarlint.analysis.syntax import call_name, integer_value

from .cst_helpers import ancestors
from .edits import bare, xp_call
from .index_facts import index_values
from .statements import block_siblings

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile

NONE_REASON = "the search leaves `None` when nothing matches, which a device index cannot hold (use an integer such as `-1`)"
UNBOUND_REASON = "nothing sets `{name}` before the search for when nothing matches (bind it, e.g. `{name} = -1`, on the line before)"
MOVED_REASON = "the value `{name}` keeps when nothing matches is bound away from the loop (bind it on the line before)"


@dataclass(frozen=True)
class Initial:
    """``name = value`` before a search loop: the statement, its value, and whether it is the
    statement just before the loop."""

    statement: cst.SimpleStatementLine
    value: cst.BaseExpression
    adjacent: bool


def is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def device_sentinel(expr: cst.BaseExpression, literal_only: bool = False) -> bool:
    """An integer the vector form can hold: a literal, or (unless ``literal_only``) a name, a
    size (``len(x)``, ``x.shape[0]``) or a sum or difference of such."""
    if integer_value(expr) is not None:
        return True
    if literal_only:
        return False
    if isinstance(expr, cst.Name):
        return expr.value not in ("None", "True", "False")
    if isinstance(expr, cst.Attribute):
        return isinstance(expr.value, (cst.Name, cst.Attribute)) and device_sentinel(expr.value)
    if isinstance(expr, cst.Call):
        args = expr.args
        return call_name(expr.func) == ["len"] and len(args) == 1 and not args[0].keyword and not args[0].star and _plain(args[0].value)
    if isinstance(expr, cst.Subscript):
        values = index_values(expr)
        shape = isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "shape" and _plain(expr.value.value)
        return bool(shape and values and len(values) == 1 and integer_value(values[0]) is not None)
    if isinstance(expr, cst.BinaryOperation):
        return isinstance(expr.operator, (cst.Add, cst.Subtract)) and device_sentinel(expr.left) and device_sentinel(expr.right)
    return False


def _plain(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) or isinstance(expr, cst.Attribute) and _plain(expr.value)


def initial_value(analyzer: AnalyzedFile, loop: cst.For, name: str) -> Initial | None:
    """The one ``name = value`` statement before ``loop`` in its block, if the name has no
    other binding than that and the loop's own."""
    siblings = block_siblings(analyzer, loop)
    scope = analyzer.scopes.get(loop)
    if siblings is None or scope is None:
        return None
    position = next((k for k, s in enumerate(siblings) if s is loop), 0)
    outside = [a for a in scope.assignments[name] if isinstance(a, Assignment) and not any(p is loop for p in ancestors(analyzer, a.node))]
    if len(outside) != 1:
        return None
    for k in range(position - 1, -1, -1):
        statement = siblings[k]
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 and isinstance(statement.body[0], cst.Assign)):
            continue
        assign = statement.body[0]
        if len(assign.targets) == 1 and assign.targets[0].target is outside[0].node:
            return Initial(statement, assign.value, k == position - 1)
    return None


def decline_reason(analyzer: AnalyzedFile, loop: cst.For, name: str) -> str | None:
    """Why a search storing ``name`` keeps its loop for the not-found value, or None if it need not."""
    initial = initial_value(analyzer, loop, name)
    if initial is None:
        return UNBOUND_REASON.format(name=name)
    if is_none(initial.value):
        return NONE_REASON
    if not device_sentinel(initial.value, literal_only=not initial.adjacent):
        return MOVED_REASON.format(name=name)
    return None


def keep_sentinel(xp: str, mask: cst.BaseExpression, found: cst.BaseExpression, sentinel: cst.BaseExpression, last: bool) -> cst.BaseExpression:
    """``xp.where(xp.any(mask), found, sentinel)``; ``found`` alone where they agree anyway
    (a first match with the not-found value ``0``: ``argmax`` of an all-false mask)."""
    if not last and integer_value(sentinel) == 0:
        return found
    return xp_call(xp, "where", xp_call(xp, "any", bare(mask)), found, bare(sentinel))
