"""Rank evidence that a function states about its arrays, wherever they come from.

``B, C, H, W = x.shape`` says ``x`` has rank 4; ``assert x.ndim == 1`` and
``if x.ndim != 1: raise ...`` say rank 1 from there on; ``if x.ndim == 2:`` says rank 2 inside
its body; ``x[0, i, :50]`` says rank 3 at least. The facts are collected once per function (a
plain walk) and consulted when a name's own origin leaves its rank unknown. They are keyed by
name and bounded by the region they hold in, so a guard's body does not leak into its ``else``.
"""

from __future__ import annotations

from collections import defaultdict

import libcst as cst

from scalarlint.analysis.node_types import kinds
from scalarlint.analysis.tree import is_inside, walk

_FUNCTIONS = kinds(cst.FunctionDef, cst.Lambda)  # ``isinstance`` stand-in (``node_types``)


def ndim_of(node: cst.BaseExpression) -> str | None:
    """``x.ndim`` or ``len(x.shape)`` -> "x"."""
    if isinstance(node, cst.Attribute) and node.attr.value == "ndim" and isinstance(node.value, cst.Name):
        return node.value.value
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "len"
        and len(node.args) == 1
        and isinstance(node.args[0].value, cst.Attribute)
        and node.args[0].value.attr.value == "shape"
        and isinstance(node.args[0].value.value, cst.Name)
    ):
        return node.args[0].value.value.value
    return None


def _rank_test(test: cst.BaseExpression) -> tuple[str, int, bool] | None:
    """``x.ndim == 2`` -> ("x", 2, True); ``x.ndim != 1`` -> ("x", 1, False)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    name = ndim_of(test.left)
    if name is None or not isinstance(target.comparator, cst.Integer):
        return None
    if isinstance(target.operator, cst.Equal):
        return name, int(target.comparator.value), True
    if isinstance(target.operator, cst.NotEqual):
        return name, int(target.comparator.value), False
    return None


def _widens(element: cst.SubscriptElement) -> bool:
    """``...`` or ``None`` in an index: the number of indices no longer bounds the rank."""
    value = element.slice.value if isinstance(element.slice, cst.Index) else None
    return isinstance(value, cst.Ellipsis) or (isinstance(value, cst.Name) and value.value == "None")


def _raises(block: cst.BaseSuite) -> bool:
    return any(isinstance(n, cst.Raise) for n in walk(block))


def _shape_axis(node: cst.CSTNode) -> tuple[str, int] | None:
    """``q.shape[1]`` -> ("q", 2), ``q.shape[-3]`` -> ("q", 3): reading that axis works only on
    an array with at least that many axes."""
    if type(node) is not cst.Subscript or len(node.slice) != 1:  # type: ignore[attr-defined]
        return None
    value = node.value  # type: ignore[attr-defined]
    if not (isinstance(value, cst.Attribute) and value.attr.value == "shape" and isinstance(value.value, cst.Name)):
        return None
    index = node.slice[0].slice  # type: ignore[attr-defined]
    if not isinstance(index, cst.Index):
        return None
    number = index.value
    if isinstance(number, cst.Integer):
        return value.value.value, int(number.evaluated_value) + 1
    if isinstance(number, cst.UnaryOperation) and isinstance(number.operator, cst.Minus) and isinstance(number.expression, cst.Integer):
        return value.value.value, int(number.expression.evaluated_value)
    return None


class RankEvidence:
    """``rank_of(name, use)``: the rank stated for ``name`` in a region holding ``use``."""

    def __init__(self, parents: dict[cst.CSTNode, cst.CSTNode]) -> None:
        self.parents = parents
        self._by_function: dict[cst.CSTNode, dict[str, list[tuple[int, cst.CSTNode]]]] = {}
        self._widths: dict[cst.CSTNode, dict[str, int]] = {}

    def _facts(self, function: cst.CSTNode) -> dict[str, list[tuple[int, cst.CSTNode]]]:
        cached = self._by_function.get(function)
        if cached is not None:
            return cached
        facts: dict[str, list[tuple[int, cst.CSTNode]]] = defaultdict(list)
        for node in walk(function):
            kind = type(node)  # exact types: isinstance against libcst's abstract classes is slow
            if kind is cst.Assign and len(node.targets) == 1:  # type: ignore[attr-defined]
                target = node.targets[0].target
                value = node.value
                if (
                    isinstance(target, (cst.Tuple, cst.List))
                    and not any(isinstance(e, cst.StarredElement) for e in target.elements)
                    and isinstance(value, cst.Attribute)
                    and value.attr.value == "shape"
                    and isinstance(value.value, cst.Name)
                ):
                    facts[value.value.value].append((len(target.elements), function))
            elif kind is cst.Assert:
                found = _rank_test(node.test)  # type: ignore[attr-defined]
                if found and found[2]:
                    facts[found[0]].append((found[1], function))
            elif kind is cst.If:
                found = _rank_test(node.test)  # type: ignore[attr-defined]
                if found is None:
                    continue
                name, rank, equal = found
                if equal:
                    facts[name].append((rank, node.body))
                elif _raises(node.body):
                    facts[name].append((rank, function))
        self._by_function[function] = facts
        return facts

    def least_rank(self, name: str, use: cst.CSTNode) -> int:
        """The most axes ``name`` is indexed on anywhere in the function around ``use`` (0 if
        never): ``x[0, i, :50]`` needs rank 3. Accesses with ``...`` or ``None`` are skipped."""
        function = self.parents.get(use)
        while function is not None and type(function) not in _FUNCTIONS:
            function = self.parents.get(function)
        if function is None:
            return 0
        widths = self._widths.get(function)
        if widths is None:
            widths = {}
            rows: list[tuple[str, int, str]] = []  # c = cls[i]: (cls, 1, c)
            for node in walk(function):
                axis = _shape_axis(node)
                if axis is not None:  # q.shape[1] read: q has at least two axes
                    widths[axis[0]] = max(widths.get(axis[0], 0), axis[1])
                    continue
                if type(node) is cst.Subscript and type(node.value) is cst.Name and not any(_widens(e) for e in node.slice):  # type: ignore[attr-defined]
                    name_of = node.value.value  # type: ignore[attr-defined]
                    widths[name_of] = max(widths.get(name_of, 0), len(node.slice))  # type: ignore[attr-defined]
                    statement = self.parents.get(node)
                    picks = all(type(e.slice) is cst.Index for e in node.slice)  # type: ignore[attr-defined]  # x[::-1] keeps its axis
                    if picks and type(statement) is cst.Assign and len(statement.targets) == 1 and type(statement.targets[0].target) is cst.Name:  # type: ignore[attr-defined]
                        rows.append((name_of, len(node.slice), statement.targets[0].target.value))  # type: ignore[attr-defined]
            # c = cls[i]; c[0] = ...: the row c has an axis of its own, so cls has two
            for base, taken, row in rows:
                if row != base and widths.get(row, 0):  # not x = x[::-1]
                    widths[base] = max(widths.get(base, 0), taken + widths[row])
            self._widths[function] = widths
        return widths.get(name, 0)

    def rank_of(self, name: str, use: cst.CSTNode) -> int | None:
        region = self.parents.get(use)
        functions: list[cst.CSTNode] = []
        while region is not None:
            if type(region) in _FUNCTIONS:
                functions.append(region)
            region = self.parents.get(region)
        for function in functions:  # innermost first: closures see their rule's evidence
            for rank, holds_in in self._facts(function).get(name, []):
                if is_inside(use, holds_in, self.parents):
                    return rank
        return None
