"""0-d views for one-element reads whose value is kept (SL101).

What it rewrites
    A read of one element by host integers that is bound to a name or returned, where the value
    then only meets device code, becomes a 0-d view of a size-1 slice::

        y = x[i]                    ->  y = xp.reshape(x[i:i + 1 or None], ())
        return A[i, j]              ->  return xp.reshape(A[i:i + 1 or None, j:j + 1 or None], ())

    The slice is a kernel on the device and the reshape a view: no scalar leaves the device and
    strict backends accept it. ``slice_view`` leaves such reads alone because its size-1 views
    would change the value's shape from ``()`` to ``(1,)``; the reshape keeps it ``()``.

When it is offered
    The read is the whole value of ``name = ...`` or of ``return ...``, or one value of an
    unpacking ``a, b = A[0, 0], A[0, 1]`` (each read its own fix); every index is a host
    integer (``i:i + 1 or None`` is right for every sign); it is not inside a loop over data (one
    view per element is still one launch per element); an array module alias is in scope; and
    for a name, every use of it is device code: arithmetic and elementwise array functions that
    end in an assignment, a ``return``, a returned tuple or an array module call, or the whole
    index of a one-axis subscript (``x[mid]``: a gather by a 0-d device index). A use in an
    ``if``, a ``range``, an ``int()`` or an index would sync there instead, so it is not offered.

Applicability
    Unsafe: on NumPy the value becomes a 0-d array instead of a NumPy scalar (the same number;
    ``isinstance(y, float)`` and hashing differ), and an index out of bounds gives an error
    from ``reshape`` (no element to reshape) instead of ``IndexError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.diagnostics import Applicability, Fix

from .array_evidence import known_array
from .edits import replace_expression
from .elementwise import elementwise_parent, module_function
from .index_facts import deferred_to_search
from .namespaces import array_namespace_alias
from .slice_view import sliced

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

MESSAGE = "Keep the element on the device as a 0-d view (`xp.reshape(x[i:i + 1 or None], ())`)"


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    read = finding.node
    if not isinstance(read, cst.Subscript) or analyzer.context.in_data_loop(read):
        return []
    if not analyzer.context.inference.selects_element(read) or not known_array(analyzer, read.value):
        return []
    if deferred_to_search(analyzer, read):
        return []
    parent = analyzer.parents.get(read)
    if isinstance(parent, cst.Element):  # a, b = A[0, 0], A[0, 1]: the name at the same place
        name = _unpacked_name(analyzer, parent)
        if name is None or not _stays_on_device(analyzer, name):
            return []
    elif isinstance(parent, cst.Assign):
        if len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
            return []
        if not _stays_on_device(analyzer, parent.targets[0].target):
            return []
    elif not (isinstance(parent, cst.Return) and parent.value is read):
        return []
    xp = array_namespace_alias(analyzer, read)
    view = sliced(analyzer, read)
    if xp is None or view is None:
        return []
    reshape = cst.Call(
        func=cst.Attribute(value=cst.Name(xp), attr=cst.Name("reshape")),
        args=[cst.Arg(view), cst.Arg(cst.Tuple(elements=[], lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))],
    )
    return [Fix(Applicability.UNSAFE, MESSAGE, (replace_expression(analyzer, read, reshape),))]


def _unpacked_name(analyzer: AnalyzedFile, element: cst.Element) -> cst.Name | None:
    """In ``a, b = A[0, 0], A[0, 1]``, the name bound to the element's value."""
    values = analyzer.parents.get(element)
    assign = analyzer.parents.get(values) if values is not None else None
    if not (isinstance(values, cst.Tuple) and isinstance(assign, cst.Assign) and assign.value is values and len(assign.targets) == 1):
        return None
    targets = assign.targets[0].target
    if not (isinstance(targets, (cst.Tuple, cst.List)) and len(targets.elements) == len(values.elements)):
        return None
    if any(isinstance(e, cst.StarredElement) for e in (*targets.elements, *values.elements)):
        return None
    position = next(i for i, e in enumerate(values.elements) if e is element)
    name = targets.elements[position].value
    return name if isinstance(name, cst.Name) else None


def _stays_on_device(analyzer: AnalyzedFile, target: cst.Name) -> bool:
    """Every use of the name bound here ends in device code, never on the host."""
    scope = analyzer.scopes.get(target)
    if scope is None:
        return False
    assignments = [a for a in scope.assignments[target.value] if getattr(a, "node", None) is target]
    if len(assignments) != 1:
        return False
    references = list(assignments[0].references)
    return bool(references) and all(_device_use(analyzer, access.node) for access in references)


def _device_use(analyzer: AnalyzedFile, node: cst.CSTNode) -> bool:
    child = node
    parent = analyzer.parents.get(child)
    if isinstance(parent, cst.Index) and isinstance(analyzer.parents.get(parent), cst.SubscriptElement):
        element = analyzer.parents.get(parent)
        subscript = analyzer.parents.get(element)
        # the whole index of a one-axis subscript: a gather or scatter by a 0-d device index
        return isinstance(subscript, cst.Subscript) and len(subscript.slice) == 1
    while parent is not None and elementwise_parent(analyzer, child, parent):
        child, parent = parent, analyzer.parents.get(parent)
    if isinstance(parent, cst.Arg):
        call = analyzer.parents.get(parent)
        return isinstance(call, cst.Call) and module_function(analyzer, call) is not None and not parent.star
    if isinstance(parent, (cst.Assign, cst.AugAssign)):
        return parent.value is child
    if isinstance(parent, cst.Return):
        return True
    if isinstance(parent, cst.Element):
        container = analyzer.parents.get(parent)
        return isinstance(container, cst.Tuple) and isinstance(analyzer.parents.get(container), cst.Return)
    return False
