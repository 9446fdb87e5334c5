"""Indices kept on the device: ``i = int(xp.argmax(x))`` loses the ``int`` (SL101, SL102).

What it rewrites
    An index computed on the device and converted to a host ``int`` only to index arrays::

        i = int(xp.argmax(x))          ->  i = xp.argmax(x)
        m = x[i]                           m = x[i]          (a gather by a 0-d index)
        dx[i] = dy                         dx[i] = dy        (a scatter)

    ``int()`` waits for the device and copies the index to the host, and every ``x[i]`` after it
    is a scalar access. With the 0-d index left on the device, the reads and writes are one
    gather and one scatter kernel each, and nothing syncs.

When it is offered
    The name is bound once, to ``int(...)`` of the array module's ``argmax`` or ``argmin``
    without an axis (a 0-d result), and every use of the name is the whole index of a
    subscript or a value returned (alone or in a returned tuple). Slice views and 0-d views of
    such reads are not offered (``slice_view`` and ``zero_d_view`` defer to this fix): a
    device slice bound would sync.

Applicability
    Unsafe: the name is now a 0-d device array, not a Python ``int``, so a caller that receives
    it (``findmax`` returns it) gets an array; ``x[i]`` returns a 0-d array rather than a NumPy
    scalar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis.syntax import call_name
from scalarlint.diagnostics import Applicability, Fix

from .array_evidence import known_array
from .cst_helpers import assignments_of, binding_value
from .edits import replace_expression
from .elementwise import module_function
from .index_facts import index_values

if TYPE_CHECKING:
    from scalarlint.analysis.file_view import AnalyzedFile
    from scalarlint.checks.base import Finding

MESSAGE = "Keep the index on the device: drop `int()` around `{call}` (reads and writes become a gather and a scatter)"
_INDEX_FUNCTIONS = ("argmax", "argmin")


def fixes(finding: Finding, analyzer: AnalyzedFile) -> list[Fix]:
    node = finding.node
    values = index_values(node) if isinstance(node, cst.Subscript) else None
    if not values:
        return []
    for value in values:
        conversion = host_conversion(analyzer, value)
        if conversion is not None:
            inner = conversion.args[0].value
            edit = replace_expression(analyzer, conversion, inner)
            message = MESSAGE.format(call=analyzer.module.code_for_node(inner))
            return [Fix(Applicability.UNSAFE, message, (edit,))]
    return []


def host_conversion(analyzer: AnalyzedFile, index: cst.BaseExpression) -> cst.Call | None:
    """For an index name bound by ``i = int(xp.argmax(...))`` and used only as an index or
    returned: that ``int(...)`` call; else None."""
    if not isinstance(index, cst.Name):
        return None
    assignments = assignments_of(analyzer, index)
    if not assignments or len(assignments) != 1:
        return None
    binding = assignments[0]
    value = binding_value(analyzer, binding.node)
    if not (isinstance(value, cst.Call) and call_name(value.func) == ["int"] and len(value.args) == 1):
        return None
    inner = value.args[0].value
    if value.args[0].keyword or value.args[0].star or not isinstance(inner, cst.Call):
        return None
    if module_function(analyzer, inner) not in _INDEX_FUNCTIONS or len(inner.args) != 1 or inner.args[0].keyword:
        return None
    scope = analyzer.scopes.get(binding.node)
    if scope is None or len([a for a in scope.assignments[index.value]]) != 1:
        return None
    if not all(_index_or_returned(analyzer, access.node) for access in binding.references):
        return None
    return value


def _index_or_returned(analyzer: AnalyzedFile, name: cst.CSTNode) -> bool:
    parent = analyzer.parents.get(name)
    if isinstance(parent, cst.Index):
        element = analyzer.parents.get(parent)
        subscript = analyzer.parents.get(element) if element is not None else None
        # a 0-d array indexes an array, but is no key of a dict (unhashable)
        return isinstance(element, cst.SubscriptElement) and isinstance(subscript, cst.Subscript) and known_array(analyzer, subscript.value)
    while isinstance(parent, (cst.Element, cst.Tuple)):
        parent = analyzer.parents.get(parent)
    return isinstance(parent, cst.Return)
