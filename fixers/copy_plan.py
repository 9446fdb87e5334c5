"""Which arrays a loop only reads one number at a time: the plan of the host-copy fix.

``host_copy`` copies such arrays to the host once before the loop. This module works out, once
per loop, which arrays qualify and which of the loop's reads and iterations move to the copies
(``HoistPlan``): the outermost loop over data of the function (the copy is then made once per
call of the rule); arrays read one element (or one unpacked row) at a time, or iterated when
one-dimensional by evidence, and used in no other way than ``len()``, ``.shape``, ``.ndim``,
``.size`` and ``.dtype``; and only where every value read is used as one number
(``number_uses``). An array the loop writes, rebinds, slices or hands to a function stays on
the device.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.kinds import Doubt
from scalarlint.analysis.syntax import call_name
from scalarlint.analysis.tree import walk

from .cst_helpers import ancestors
from .loop_names import fresh_name, loops_in_its_function, names_taken
from .number_uses import name_used_as_number, used_as_number

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile

HOST_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype"})
ITERATED = "iterated"


@dataclass(frozen=True, eq=False)
class HoistPlan:
    """What one loop's host copies are: the loop, the copied arrays (name -> copy's name), the
    element reads and the iterations of one-dimensional arrays that move to the copies; and
    the arrays copied where the loop's header iterates them (``iterated_copy``'s
    ``for f in to_host(factors.flip(0))``), which need no name."""

    loop: cst.For | cst.While
    copies: dict[str, str]
    reads: list[cst.Subscript]
    iterated: list[cst.Name]  # ``for v in lengths``: the iterable's name, which moves to the copy
    copied_in_place: tuple[cst.BaseExpression, ...] = ()


def outermost_data_loop(analyzer: AnalyzedFile, node: cst.CSTNode) -> cst.For | cst.While | None:
    """The outermost ``for``/``while`` statement over data around ``node`` within its function."""
    found: cst.For | cst.While | None = None
    for loop in loops_in_its_function(analyzer, node):
        if isinstance(loop, (cst.For, cst.While)) and analyzer.context.is_data_loop(loop):
            found = loop
    return found


def plan_for(analyzer: AnalyzedFile, loop: cst.For | cst.While) -> HoistPlan | None:
    """The loop's plan, worked out once per loop (every finding in it asks)."""
    cache = analyzer.context.inference.cache
    key = ("host-copy-plan", loop)
    if key not in cache:
        cache[key] = _make_plan(analyzer, loop)
    return cache[key]  # type: ignore[return-value]


def _make_plan(analyzer: AnalyzedFile, loop: cst.For | cst.While) -> HoistPlan | None:
    """The arrays ``loop`` only reads element by element, and those reads."""
    if not isinstance(analyzer.parents.get(loop), (cst.IndentedBlock, cst.Module)):
        return None
    reads: dict[str, list[cst.Subscript]] = {}
    iterated: dict[str, list[cst.Name]] = {}
    refused: set[str] = set()
    for name in _names(loop):
        use = _use_of(analyzer, name)
        if use is None:
            refused.add(name.value)
        elif isinstance(use, cst.Subscript):
            reads.setdefault(name.value, []).append(use)
        elif use == ITERATED:
            iterated.setdefault(name.value, []).append(name)
    inference = analyzer.context.inference
    taken = names_taken(analyzer, loop)
    copies: dict[str, str] = {}
    kept: list[cst.Subscript] = []
    walked: list[cst.Name] = []
    for array in dict.fromkeys([*reads, *iterated]):
        subscripts, loops = reads.get(array, []), iterated.get(array, [])
        first = subscripts[0].value if subscripts else loops[0]
        if array in refused or not is_device_array(analyzer, first):
            continue
        if loops and inference.kind(first).rank != 1:
            continue  # rows of a matrix would become host arrays next to device ones
        if not loops and not any(inference.selects_element(s) or _unpacked(analyzer, s) for s in subscripts):
            continue
        if not all(used_as_number(analyzer, s) for s in subscripts) or not all(_elements_used_as_numbers(analyzer, n) for n in loops):
            continue  # a row or a slab handed on whole: a host copy would mix host and device arrays
        copies[array] = fresh_name(f"{array}_host", taken)
        kept.extend(subscripts)
        walked.extend(loops)
    return HoistPlan(loop, copies, kept, walked) if copies else None


def _elements_used_as_numbers(analyzer: AnalyzedFile, iterated: cst.Name) -> bool:
    """``for i, n in enumerate(lengths)``: whether ``n`` (the element) is only used as a number."""
    loop = next(a for a in ancestors(analyzer, iterated) if isinstance(a, cst.For))
    target = loop.target
    if isinstance(loop.iter, cst.Call) and call_name(loop.iter.func) == ["enumerate"]:
        if not isinstance(target, cst.Tuple) or len(target.elements) != 2:
            return False
        target = target.elements[1].value
    return isinstance(target, cst.Name) and name_used_as_number(analyzer, target)


def _names(loop: cst.CSTNode) -> Iterable[cst.Name]:
    return (n for n in walk(loop) if isinstance(n, cst.Name))


def _use_of(analyzer: AnalyzedFile, name: cst.Name) -> cst.Subscript | str | None:
    """How the loop uses ``name``: an element or row read (the subscript), a host question of
    the whole array (``len(x)``, ``x.shape``: ``"host"``), or anything else (``None``: the
    array stays on the device). A name that is not a plain reference (an attribute's name,
    a keyword, a binding) is ``"host"`` when it binds nothing and ``None`` when it does."""
    parent = analyzer.parents.get(name)
    if isinstance(parent, cst.Attribute) and parent.attr is name:
        return "host"  # obj.rois: another value, named by the attribute
    if isinstance(parent, cst.Arg) and parent.keyword is name:
        return "host"
    if _bound(analyzer, name):
        return None
    if isinstance(parent, cst.Subscript) and parent.value is name:
        if analyzer.context.is_store_target(parent) or _written(analyzer, parent):
            return None
        element = analyzer.context.inference.selects_element(parent) or _unpacked(analyzer, parent)
        sliced = any(isinstance(n, cst.Slice) for part in parent.slice for n in walk(part))
        return parent if element and not sliced else None
    if isinstance(parent, cst.Attribute) and parent.value is name and parent.attr.value in HOST_ATTRIBUTES:
        return "host"
    if _iterated(analyzer, name):
        return ITERATED
    if isinstance(parent, cst.Arg):
        call = analyzer.parents.get(parent)
        if isinstance(call, cst.Call) and call_name(call.func) == ["len"]:
            return "host"
    return None


def _iterated(analyzer: AnalyzedFile, name: cst.Name) -> bool:
    """``for v in name``, ``for i, v in enumerate(name)``, ``reversed(name)``, ``zip(name, ...)``."""
    parent = analyzer.parents.get(name)
    if isinstance(parent, cst.For):
        return parent.iter is name
    if not isinstance(parent, cst.Arg) or parent.keyword is not None:
        return False
    call = analyzer.parents.get(parent)
    loop = analyzer.parents.get(call) if isinstance(call, cst.Call) else None
    return isinstance(loop, cst.For) and loop.iter is call and call_name(call.func) in (["enumerate"], ["reversed"], ["zip"])


def _bound(analyzer: AnalyzedFile, name: cst.Name) -> bool:
    """Whether ``name`` is bound here (an assignment, loop or ``with`` target, ``del``)."""
    for parent in ancestors(analyzer, name):
        if isinstance(parent, (cst.AssignTarget, cst.Del)):
            return True
        if isinstance(parent, (cst.For, cst.CompFor)) and any(n is name for n in walk(parent.target)):
            return True
        if isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is name:
            return True
        if isinstance(parent, cst.NamedExpr) and parent.target is name:
            return True
        if isinstance(parent, cst.AsName):
            return True
        if isinstance(parent, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
            return False
    return False


def _written(analyzer: AnalyzedFile, subscript: cst.Subscript) -> bool:
    parent = analyzer.parents.get(subscript)
    return isinstance(parent, (cst.AugAssign, cst.AssignTarget, cst.Del)) or (
        isinstance(parent, cst.AnnAssign) and parent.target is subscript
    )


def _unpacked(analyzer: AnalyzedFile, subscript: cst.Subscript) -> bool:
    """``y0, x0, y1, x1 = rois[i]``: a row read into Python names, one element each."""
    parent = analyzer.parents.get(subscript)
    return isinstance(parent, cst.Assign) and parent.value is subscript and all(
        isinstance(t.target, (cst.Tuple, cst.List)) for t in parent.targets
    )


def is_device_array(analyzer: AnalyzedFile, name: cst.BaseExpression) -> bool:
    """An array the checks read as a device array: one by evidence, or a rule's or helper's
    parameter (``batch_sizes``), whose element reads they report. (Had it been a tuple after
    all, ``to_host`` makes a NumPy array of it, with the same values.)"""
    kind = analyzer.context.inference.kind(name)
    return kind.is_array and kind.doubt <= Doubt.PARAMETER
