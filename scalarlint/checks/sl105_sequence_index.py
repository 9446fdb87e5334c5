"""SL105's reading of a Python list or tuple at a device index: ``NAMES[k]`` with ``k`` a tensor.

A Python sequence asks its index for a host int (``__index__``): a 0-d tensor, CuPy or JAX
array given as the index of a list is copied to the host and waited for, in every framework
(a device array indexed by one gathers instead, which is ``element_index``'s business). Lookup
tables of enum values, names or settings indexed by a saved tensor are the usual case::

    class CameraTypes:
        __types = [Perspective, Orthographic]

        @staticmethod
        def of(index: tf.Tensor):
            return CameraTypes.__types[index]     # int(index): a sync

Only sequences this module can see are lists or tuples count (a display bound to the name, a
class attribute read through its class): a dict hashes a tensor by identity, with no sync.
"""

from __future__ import annotations

from typing import Iterable

import libcst as cst

from scalarlint.analysis.kinds import Tag
from scalarlint.checks.base import CheckContext, Finding, short

CODE = "SL105"
_SEQUENCES = (cst.List, cst.Tuple)


def sequence_index(node: cst.Subscript, ctx: CheckContext) -> Iterable[Finding]:
    """``table[k]``: a list or tuple display indexed by a device array or device scalar the
    inference is sure of."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return
    index = node.slice[0].slice.value
    kind = ctx.inference.kind(index)
    if kind.tag not in (Tag.ARRAY, Tag.DEVICE_SCALAR) or kind.doubt or kind.boolean or ctx.is_claimed(index):
        return
    if not _python_sequence(node.value, ctx):
        return
    yield Finding(
        CODE,
        node,
        f"indexing the Python sequence `{short(ctx, node.value)}` with the device value `{short(ctx, index)}` "
        "reads it back as a host int (`__index__`, a sync); keep the index on the host, or gather from an array",
        ctx.severity_for(node),
    )


def _python_sequence(value: cst.BaseExpression, ctx: CheckContext) -> bool:
    """A list or tuple display, a name every reaching binding of which assigns one, or a
    class attribute assigned one in its class body (``Table.__names``)."""
    if isinstance(value, _SEQUENCES):
        return True
    if isinstance(value, cst.Name):
        values = ctx.inference.reaching_values(value)
        return bool(values) and all(isinstance(v, _SEQUENCES) for v in values)
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name):
        owner = ctx.inference.definition_of(value.value)
        return isinstance(owner, cst.ClassDef) and isinstance(_class_attribute(owner, value.attr.value), _SEQUENCES)
    return False


def _class_attribute(owner: cst.ClassDef, name: str) -> cst.BaseExpression | None:
    """What the class body assigns ``name`` (its one plain assignment), else None."""
    found: list[cst.BaseExpression] = []
    for statement in owner.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign) and any(isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets):
                found.append(small.value)
    return found[0] if len(found) == 1 else None
