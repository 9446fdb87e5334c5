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

The module is the fix; which arrays are copied is ``copy_plan``'s, which findings the copies
answer ``copy_answers``'s. How a fix imports ``to_host`` (``to_host_fixes``) is shared with
``iterated_copy``, which copies an array where a loop's header iterates it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.diagnostics import Applicability, Edit, Fix
from scalarlint.vendored import inspect_copy
from scalarlint.vendored.locate import configured_file, setting_module

from .copy_answers import answers
from .copy_plan import HoistPlan, outermost_data_loop, plan_for
from .outcomes import Declined
from .runtime_import import imported_name
from .statements import renamed_statement

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

NAME = "to_host"
FIRST_VERSION_WITH_IT = 2  # of the vendored helper
OLD_HELPER = "the vendored helper predates `to_host`: run `scalarlint vendor` to update it"


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix] | Declined:
    loop = outermost_data_loop(analyzer, finding.node)
    if loop is None:
        return []
    plan = plan_for(analyzer, loop)
    if plan is None or not answers(finding, analyzer, plan):
        return []
    cache = analyzer.context.inference.cache
    key = ("host-copy-fix", loop)
    if key not in cache:  # one rewrite of the loop, shared by every finding it answers
        cache[key] = _loop_fixes(analyzer, plan)
    return cache[key]  # type: ignore[return-value]


def _loop_fixes(analyzer: AnalyzedFile, plan: HoistPlan) -> list[Fix] | Declined:
    copied = ", ".join(f"`{array}`" for array in plan.copies)
    return to_host_fixes(
        analyzer, plan.loop, lambda name: _edit(analyzer, plan, name),
        lambda name: f"Copy {copied} to the host once before the loop (`{name}`) and read elements there: one transfer, not one sync per element",
    )


def to_host_fixes(
    analyzer: AnalyzedFile, anchor: cst.CSTNode, edit_for: Callable[[str], Edit | None], message_for: Callable[[str], str]
) -> list[Fix] | Declined:
    """The fix that calls ``to_host`` (its local name given to ``edit_for``) at ``anchor``:
    unsafe and a fallback, with the import of the configured helper where it is missing;
    display-only when that import would add an undeclared dependency; declined when the
    vendored helper predates ``to_host``. ``message_for`` says what the fix does, given that name."""
    module_path = setting_module(analyzer.config.allow_scalar_import)
    if _helper_lacks_it(analyzer):
        return Declined(OLD_HELPER)
    configured = analyzer.config.allow_scalar_import_configured
    name, import_edit, blocked = imported_name(analyzer, anchor, module_path, NAME, configured)
    if name is None:
        return []
    edit = edit_for(name)
    if edit is None:
        return []
    message = message_for(name)
    edits = (edit,) if import_edit is None else (import_edit, edit)
    if blocked is not None:
        return [Fix(Applicability.DISPLAY_ONLY, f"{message}; {blocked}", edits, fallback=True)]
    return [Fix(Applicability.UNSAFE, message + " (the values become host NumPy scalars)", edits, fallback=True)]


def _edit(analyzer: AnalyzedFile, plan: HoistPlan, to_host: str) -> Edit | None:
    """The loop, its copied reads renamed, after one ``copy = to_host(array)`` per array
    (comments above the loop stay above the copies)."""
    renames = [(read.value, plan.copies[read.value.value]) for read in plan.reads if isinstance(read.value, cst.Name)]
    renames += [(name, plan.copies[name.value]) for name in plan.iterated]
    copies = [f"{copy} = {to_host}({array})" for array, copy in plan.copies.items()]
    return renamed_statement(analyzer, plan.loop, renames, copies)


def _helper_lacks_it(analyzer: AnalyzedFile) -> bool:
    """Whether the configured helper module is in the project but has no ``to_host``: a
    vendored copy older than v2, or the user's own module without one."""
    found = configured_file(analyzer.config)
    if found is None:
        return False  # scalarlint.runtime, or an installed package: its import is the user's to check
    try:
        stamp = found.stat().st_mtime_ns
    except OSError:
        return True
    return _file_lacks_to_host(str(found), stamp)


@functools.lru_cache(maxsize=16)
def _file_lacks_to_host(path: str, mtime_ns: int) -> bool:
    """``_helper_lacks_it`` for one version of the file (``mtime_ns``): read once per run, not
    once per loop that gets a copy."""
    copy = inspect_copy(Path(path))
    if copy is None:
        return True
    if copy.version is not None:
        return copy.version < FIRST_VERSION_WITH_IT
    try:
        return f"def {NAME}(" not in Path(path).read_text(encoding="utf-8")
    except OSError:
        return True
