"""One host copy before a loop, so that the loop reads elements on the host (SL101, SL104, SL105).

What it rewrites
    A loop over data that reads single elements of arrays it never writes (ROI bounds, batch
    indices, per-element weights) syncs once per element read: each read is a device-to-host
    copy of one number. The loop keeps its shape; each such array is copied to the host once,
    right before the loop, with ``to_host`` (``scalarlint.runtime``'s, or the vendored helper's
    where ``allow-scalar-import`` names it), and the loop reads the copy::

        for i in range(n_rois):               rois_host = to_host(rois)
            y0 = int(rois[i, 0] * scale)  ->  for i in range(n_rois):
                                                  y0 = int(rois_host[i, 0] * scale)

    A one-dimensional array the loop iterates (``for i, n in enumerate(lengths)``) is iterated
    from its copy in the same way. One transfer replaces one sync per element. The findings it
    answers are those the copy removes: the reads of the copied arrays, their unpacking into
    Python names, the iteration, a loop whose only element accesses are such reads, and host
    conversions (``int``, ``round``, Python's ``max``, tests in ``if``, slice bounds) of values
    computed only from such elements and host numbers.

When it is offered
    Inside a loop over data (the outermost one of the function: the copy is made once per call
    of the rule), for arrays that the loop reads one element (or one unpacked row) at a time, or
    iterates when they are one-dimensional by evidence (rows of a matrix would become host
    arrays beside device ones), and uses in no other way than ``len()``, ``.shape``, ``.ndim``,
    ``.size`` and ``.dtype``: an array the loop writes, rebinds, slices or hands to a function
    keeps its device reads. And only where every value read is used as one number
    (``number_uses``): the checks cannot always tell an element of an array of unknown rank
    from a row of a batch, and a row copied to the host would meet device arrays.
    Writes are never answered (SL102): the array written stays on the device.

Applicability
    A fallback (``Fix.fallback``): where a vectorizing fixer rewrites the same loop, the fix
    loop takes that rewrite instead. Unsafe, and display-only when importing ``to_host`` would add a dependency the project does
    not declare (``runtime_dependency``, as for ``allow_scalar``). On NumPy the values read are
    the same numbers; but they are host NumPy scalars where they were 0-d device arrays: mixed
    with device arrays they take part as Python numbers (CuPy, PyTorch), a PyTorch value is
    detached from autograd (a double backward through those reads loses them), and under
    ``jax.jit`` the copy fails. The whole array is copied, however few of its elements the loop
    reads. A reviewer decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.kinds import Doubt
from scalarlint.analysis.syntax import call_name
from scalarlint.analysis.tree import walk
from scalarlint.diagnostics import Applicability, Edit, Fix
from scalarlint.vendored import inspect_copy
from scalarlint.vendored.locate import module_file, setting_module

from .cst_helpers import ancestors, assignments_of
from .loop_names import loops_around
from .number_uses import name_used_as_number, used_as_number
from .outcomes import Declined
from .runtime_import import imported_name
from .statements import replace_statements

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

NAME = "to_host"
FIRST_VERSION_WITH_IT = 2  # of the vendored helper
HOST_ATTRIBUTES = frozenset({"shape", "ndim", "size", "dtype"})
# Python's own functions of numbers: host numbers in, host numbers out
HOST_BUILTINS = frozenset({"int", "float", "round", "max", "min", "abs", "bool", "divmod", "pow", "len"})
ITERATED = "iterated"
OLD_HELPER = "the vendored helper predates `to_host`: run `scalarlint vendor` to update it"


class HoistPlan:
    """What one loop's host copies are: the loop, the copied arrays (name -> copy's name), the
    element reads and the iterations of one-dimensional arrays that move to the copies. Worked
    out once per loop."""

    def __init__(
        self, loop: cst.For | cst.While, copies: dict[str, str], reads: list[cst.Subscript], iterated: list[cst.Name]
    ) -> None:
        self.loop = loop
        self.copies = copies
        self.reads = reads
        self.iterated = iterated  # ``for v in lengths``: the iterable's name, which moves to the copy


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix] | Declined:
    loop = _outermost_data_loop(analyzer, finding.node)
    if loop is None:
        return []
    plan = _plan(analyzer, loop)
    if plan is None or not _answers(finding, analyzer, plan):
        return []
    cache = analyzer.context.inference.cache
    key = ("host-copy-fix", loop)
    if key not in cache:  # one rewrite of the loop, shared by every finding it answers
        cache[key] = _loop_fixes(analyzer, plan)
    return cache[key]  # type: ignore[return-value]


def _loop_fixes(analyzer: AnalyzedFile, plan: HoistPlan) -> list[Fix] | Declined:
    module_path = setting_module(analyzer.config.allow_scalar_import)
    if _helper_lacks_it(analyzer, module_path):
        return Declined(OLD_HELPER)
    configured = analyzer.config.allow_scalar_import_configured
    name, import_edit, blocked = imported_name(analyzer, plan.loop, module_path, NAME, configured)
    if name is None:
        return []
    edit = _edit(analyzer, plan, name)
    if edit is None:
        return []
    copied = ", ".join(f"`{array}`" for array in plan.copies)
    message = f"Copy {copied} to the host once before the loop (`{name}`) and read elements there: one transfer, not one sync per element"
    edits = (edit,) if import_edit is None else (import_edit, edit)
    if blocked is not None:
        return [Fix(Applicability.DISPLAY_ONLY, f"{message}; {blocked}", edits, fallback=True)]
    return [Fix(Applicability.UNSAFE, message + " (the values become host NumPy scalars)", edits, fallback=True)]


def _outermost_data_loop(analyzer: AnalyzedFile, node: cst.CSTNode) -> cst.For | cst.While | None:
    """The outermost ``for``/``while`` statement over data around ``node`` within its function."""
    found: cst.For | cst.While | None = None
    function = next((a for a in ancestors(analyzer, node) if isinstance(a, (cst.FunctionDef, cst.Lambda))), None)
    for loop in loops_around(analyzer, node):
        if not isinstance(loop, (cst.For, cst.While)) or not analyzer.context.is_data_loop(loop):
            continue
        inside = next((a for a in ancestors(analyzer, loop) if isinstance(a, (cst.FunctionDef, cst.Lambda))), None)
        if inside is function:
            found = loop
    return found


def _plan(analyzer: AnalyzedFile, loop: cst.For | cst.While) -> HoistPlan | None:
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
    taken = _names_taken(analyzer, loop)
    copies: dict[str, str] = {}
    kept: list[cst.Subscript] = []
    walked: list[cst.Name] = []
    for array in dict.fromkeys([*reads, *iterated]):
        subscripts, loops = reads.get(array, []), iterated.get(array, [])
        first = subscripts[0].value if subscripts else loops[0]
        if array in refused or not _device_array(analyzer, first):
            continue
        if loops and inference.kind(first).rank != 1:
            continue  # rows of a matrix would become host arrays next to device ones
        if not loops and not any(inference.selects_element(s) or _unpacked(analyzer, s) for s in subscripts):
            continue
        if not all(used_as_number(analyzer, s) for s in subscripts) or not all(_elements_used_as_numbers(analyzer, n) for n in loops):
            continue  # a row or a slab handed on whole: a host copy would mix host and device arrays
        copies[array] = _fresh(f"{array}_host", taken)
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


def _device_array(analyzer: AnalyzedFile, name: cst.BaseExpression) -> bool:
    """An array the checks read as a device array: one by evidence, or a rule's or helper's
    parameter (``batch_sizes``), whose element reads they report. (Had it been a tuple after
    all, ``to_host`` makes a NumPy array of it, with the same values.)"""
    kind = analyzer.context.inference.kind(name)
    return kind.is_array and kind.doubt <= Doubt.PARAMETER


def _names_taken(analyzer: AnalyzedFile, loop: cst.CSTNode) -> set[str]:
    scope = analyzer.scopes.get(loop)
    taken = {n.value for n in walk(analyzer.module) if isinstance(n, cst.Name)} if scope is None else set()
    while scope is not None:
        taken.update(a.name for a in scope.assignments)
        taken.update(a.node.value for a in scope.accesses if isinstance(a.node, cst.Name))
        scope = None if scope.parent is scope else scope.parent
    return taken


def _fresh(name: str, taken: set[str]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}{number}", number + 1
    taken.add(candidate)
    return candidate


# -- which findings the copies answer -------------------------------------------------------
def _answers(finding: Finding, analyzer: AnalyzedFile, plan: HoistPlan) -> bool:
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
    moved = {id(n) for n in plan.iterated}
    names = [n for n in walk(iterable) if isinstance(n, cst.Name)]
    arrays = [n for n in names if id(n) in moved or _device_array(analyzer, n)]
    return bool(arrays) and all(id(n) in moved for n in arrays)


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
    for assignment in assignments:
        target = assignment.node
        if target in seen:
            continue  # a value carried around the loop: host when every other source is
        seen.add(target)
        header = _for_header(analyzer, target)
        if header is not None:
            if not _iterates_only_copies(analyzer, plan, header.iter):
                return False  # an element of a device array, or of something else
            continue
        source = _assigned_value(analyzer, target)
        if source is None or not _host_after(analyzer, plan, source, seen):
            return False
    return True


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


# -- the edit -----------------------------------------------------------------------------
def _edit(analyzer: AnalyzedFile, plan: HoistPlan, to_host: str) -> Edit | None:
    """The loop, its copied reads renamed, after one ``copy = to_host(array)`` per array
    (comments above the loop stay above the copies)."""
    moved = {id(read) for read in plan.reads}
    walked = {id(name) for name in plan.iterated}

    class ReadTheCopies(cst.CSTTransformer):
        def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.Subscript:
            if id(original) in moved and isinstance(updated.value, cst.Name):
                return updated.with_changes(value=cst.Name(plan.copies[updated.value.value]))
            return updated

        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
            return updated.with_changes(value=plan.copies[updated.value]) if id(original) in walked else updated

    new_loop = plan.loop.visit(ReadTheCopies())
    assert isinstance(new_loop, (cst.For, cst.While))
    copies = [
        cst.SimpleStatementLine(body=[cst.Assign(
            targets=[cst.AssignTarget(cst.Name(copy))],
            value=cst.Call(func=cst.Name(to_host), args=[cst.Arg(cst.Name(array))]),
        )])
        for array, copy in plan.copies.items()
    ]
    return replace_statements(analyzer, plan.loop, plan.loop, [*copies, new_loop.with_changes(leading_lines=())])


def _helper_lacks_it(analyzer: AnalyzedFile, module_path: str) -> bool:
    """Whether the configured helper module is in the project but has no ``to_host``: a
    vendored copy older than v2, or the user's own module without one."""
    if module_path == "scalarlint.runtime":
        return False
    found = module_file(module_path, Path(analyzer.config.root))
    if found is None:
        return False  # an installed package: its import is the user's to check
    copy = inspect_copy(found)
    if copy is None:
        return True
    if copy.version is not None:
        return copy.version < FIRST_VERSION_WITH_IT
    try:
        return f"def {NAME}(" not in found.read_text(encoding="utf-8")
    except OSError:
        return True
