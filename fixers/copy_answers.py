"""Which findings one loop's host copies answer: those the copies remove.

The reads of the copied arrays (SL101), their unpacking into Python names and the iteration of
a copied array, by name or copied in place in the loop's header (SL104), a loop whose element accesses all move to the copies (SL104 at its
header), and host conversions (SL105: ``int``, ``round``, Python's ``max``, tests in ``if``,
slice bounds) of values computed only from such elements and host numbers (``_host_after``).
Writes are never answered (SL102): the array written stays on the device. What is claimed here
is checked against a re-check of the fixed code in ``tests/fixers/test_fix_host_copy.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.syntax import call_name
from scalarlint.analysis.tree import walk

from .copy_plan import HoistPlan, is_device_array
from .cst_helpers import ancestors, assignments_of, within

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

# Python's own functions of numbers: host numbers in, host numbers out
HOST_BUILTINS = frozenset({"int", "float", "round", "max", "min", "abs", "bool", "divmod", "pow", "len"})


def answers(finding: Finding, analyzer: AnalyzedFile, plan: HoistPlan) -> bool:
    node = finding.node
    if finding.code == "SL101":
        return isinstance(node, cst.Subscript) and any(node is read for read in plan.reads)
    if finding.code == "SL104":
        if isinstance(node, cst.Assign):
            return any(node.value is read for read in plan.reads)
        if _iterates_only_copies(analyzer, plan, node):
            return True
        return _loop_reads_only_copies(finding, analyzer, plan)
    if finding.code == "SL105":
        values = [a.value for a in node.args] if isinstance(node, cst.Call) else [node]
        return bool(values) and all(_host_after(analyzer, plan, v, set()) for v in values)
    return False


def _iterates_only_copies(analyzer: AnalyzedFile, plan: HoistPlan, iterable: cst.CSTNode) -> bool:
    """A loop header (``enumerate(lengths)``) whose every array is iterated from its copy."""
    if any(_iterated_whole(iterable) is copied for copied in plan.copied_in_place):
        return True
    moved = {id(n) for n in plan.iterated}
    names = [n for n in walk(iterable) if isinstance(n, cst.Name)]
    arrays = [n for n in names if id(n) in moved or is_device_array(analyzer, n)]
    return bool(arrays) and all(id(n) in moved for n in arrays)


def _iterated_whole(iterable: cst.CSTNode) -> cst.CSTNode:
    """What a loop's header iterates: the argument of ``enumerate(x)``, else the iterable."""
    if isinstance(iterable, cst.Call) and call_name(iterable.func) == ["enumerate"] and iterable.args:
        return iterable.args[0].value
    return iterable


def _loop_reads_only_copies(finding: Finding, analyzer: AnalyzedFile, plan: HoistPlan) -> bool:
    """An element loop (SL104 at its header) whose element accesses all move to the copies."""
    loop = analyzer.parents.get(finding.node)
    if not isinstance(loop, (cst.For, cst.While)):
        return False
    moved = {id(read) for read in plan.reads}
    accesses = [
        s for s in walk(loop.body)
        if isinstance(s, cst.Subscript) and analyzer.context.inference.selects_element(s)
    ]
    return bool(accesses) and all(id(s) in moved for s in accesses)


def _host_after(analyzer: AnalyzedFile, plan: HoistPlan, value: cst.BaseExpression, seen: set[cst.CSTNode]) -> bool:
    """Whether ``value`` is a host number once the copies are read: computed from copied
    reads, host numbers and Python or module functions of them only."""
    kind = analyzer.context.inference.kind(value)
    if not kind.is_device or kind.doubt:
        return True
    if isinstance(value, cst.Subscript):
        return any(value is read for read in plan.reads)
    if isinstance(value, cst.Name):
        return _name_host_after(analyzer, plan, value, seen)
    if isinstance(value, cst.Call):
        return _call_host_after(analyzer, plan, value, seen)
    if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.BooleanOperation, cst.IfExp)):
        parts = [c for c in value.children if isinstance(c, cst.BaseExpression)]
        parts += [c.comparator for c in getattr(value, "comparisons", ())]
        return all(_host_after(analyzer, plan, p, seen) for p in parts)
    return False


def _name_host_after(analyzer: AnalyzedFile, plan: HoistPlan, name: cst.Name, seen: set[cst.CSTNode]) -> bool:
    if name.value in plan.copies:
        return False  # the whole array, not one of its elements
    assignments = assignments_of(analyzer, name)
    if not assignments:
        return False
    rebinding = _rebinding_loop(analyzer, name)
    for assignment in assignments:
        target = assignment.node
        if target in seen:
            continue  # a value carried around the loop: host when every other source is
        seen.add(target)
        header = _for_header(analyzer, target)
        if header is not None and rebinding is not None and not within(analyzer, header, rebinding):
            continue  # another loop's binding: this loop's header rebinds the name before its body runs
        if header is not None:
            if not _iterates_only_copies(analyzer, plan, header.iter):
                return False  # an element of a device array, or of something else
            continue
        source = _assigned_value(analyzer, target)
        if source is None or not _host_after(analyzer, plan, source, seen):
            return False
    return True


def _rebinding_loop(analyzer: AnalyzedFile, read: cst.Name) -> cst.For | None:
    """The innermost ``for`` whose body holds ``read`` and whose target binds its name: of the
    name's bindings by ``for`` headers, only it and those inside its body reach the read."""
    child: cst.CSTNode = read
    for parent in ancestors(analyzer, read):
        if isinstance(parent, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return None
        if isinstance(parent, cst.For) and child is parent.body and any(
            isinstance(n, cst.Name) and n.value == read.value for n in walk(parent.target)
        ):
            return parent
        child = parent
    return None


def _for_header(analyzer: AnalyzedFile, target: cst.CSTNode) -> cst.For | None:
    """The ``for`` statement whose target binds ``target``, if any."""
    for parent in ancestors(analyzer, target):
        if isinstance(parent, cst.For):
            return parent if any(n is target for n in walk(parent.target)) else None
        if isinstance(parent, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
            return None
    return None


def _assigned_value(analyzer: AnalyzedFile, target: cst.CSTNode) -> cst.BaseExpression | None:
    """What an assignment of ``target`` stores: the value of ``target = v`` or ``target += v``,
    the whole right side of an unpacking (``a, b = rois[i]``)."""
    for parent in ancestors(analyzer, target):
        if isinstance(parent, cst.Assign):
            return parent.value
        if isinstance(parent, (cst.AugAssign, cst.AnnAssign)):
            return parent.value
        if isinstance(parent, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
            return None
    return None


def _call_host_after(analyzer: AnalyzedFile, plan: HoistPlan, call: cst.Call, seen: set[cst.CSTNode]) -> bool:
    """Python's number functions, the array module's functions and the file's own helpers give
    host numbers for host numbers (``int(numpy.ceil(h / n))``, ``_get_bounds(y, height)``)."""
    parts = call_name(call.func)
    local = isinstance(call.func, cst.Name) and parts is not None and parts[0] not in HOST_BUILTINS
    module = analyzer.context.inference.module_call(call) is not None
    if not (parts and (parts[-1] in HOST_BUILTINS or module or local or parts[-1] == "range")):
        return False
    return all(_host_after(analyzer, plan, a.value, seen) for a in call.args)
