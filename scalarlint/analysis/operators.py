"""What Python operators give: arithmetic, comparisons, unary operators and tuple displays.

Arrays broadcast (``x * dy`` keeps ``x``'s shape family), a 0-d device value stays one
(``xmin * scale``), host ints stay host ints with the tightest origin and bound, a tuple of host
ints is a shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from scalarlint.analysis import kinds as K
from scalarlint.analysis.kinds import ELEMENT, Doubt, Kind, Origin, Tag, least_doubt

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView

ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power, cst.FloorDivide, cst.Modulo)


def binary_kind(inf: "InferenceView", node: cst.BinaryOperation) -> Kind:
    left, right = inf.kind(node.left), inf.kind(node.right)
    if isinstance(node.operator, cst.MatrixMultiply):
        return K.array() if left.is_device or right.is_device else K.UNKNOWN
    repeated = _repeated_display(node, left, right)
    if repeated is not None:
        return repeated  # [None] * B: Python repeats the list (B a count, whatever a caller passes)
    if _element_times_setting(left, right, node):
        element = left if left.tag is Tag.DEVICE_SCALAR else right
        return K.Kind(Tag.DEVICE_SCALAR, origin=element.origin)  # rois[n, 0] * spatial_scale
    if left.tag is Tag.ARRAY or right.tag is Tag.ARRAY:
        ranks = [k.rank for k in (left, right) if k.tag is Tag.ARRAY]
        others = [k for k in (left, right) if k.tag is not Tag.ARRAY]
        if any(k.tag in (Tag.UNKNOWN, Tag.CONTAINER, Tag.OBJECT) for k in others) and not isinstance(
            node.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power)
        ):
            return K.array()
        rank = max(ranks) if None not in ranks else None  # type: ignore[type-var]
        if len(ranks) == 2 and ranks[0] != ranks[1]:
            rank = None if None in ranks else max(ranks)  # type: ignore[type-var]
        boolean = isinstance(node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)) and all(
            k.boolean for k in (left, right) if k.is_device
        )
        key = next((k.key for k in (left, right) if k.tag is Tag.ARRAY and k.key), None)
        return K.array(rank, boolean, least_doubt((left, right)), key)
    if left.tag is Tag.DEVICE_SCALAR or right.tag is Tag.DEVICE_SCALAR:
        scalars = [k for k in (left, right) if k.tag is Tag.DEVICE_SCALAR]
        other = right if left.tag is Tag.DEVICE_SCALAR else left
        origin = max(k.origin for k in scalars)
        doubt = least_doubt(scalars)
        if other.tag in (Tag.HOST_INT, Tag.HOST_SCALAR, Tag.DEVICE_SCALAR):
            return K.Kind(Tag.DEVICE_SCALAR, origin=origin, doubt=doubt)
        if origin >= ELEMENT and other.tag is Tag.UNKNOWN and isinstance(node.operator, ARITHMETIC):
            return K.Kind(Tag.DEVICE_SCALAR, origin=origin, doubt=doubt)  # xmin * inf.spatial_scale
        return K.UNKNOWN
    if left.is_host_int and right.tag is Tag.UNKNOWN and isinstance(node.operator, (cst.Modulo, cst.FloorDivide)):
        return K.host_int(left.origin)  # pw = i % pooled_width: index arithmetic
    if left.is_host_int and right.is_host_int:
        if isinstance(node.operator, (cst.Divide,)):
            return K.Kind(Tag.HOST_SCALAR, origin=max(left.origin, right.origin))
        shifted = isinstance(node.operator, (cst.Add, cst.Subtract)) and all(k.key or k.origin == Origin.LITERAL for k in (left, right))
        return K.host_int(max(left.origin, right.origin), K.shared_key((left, right)) if shifted else None)
    if left.tag is Tag.SHAPE and right.tag is Tag.SHAPE and isinstance(node.operator, cst.Add):
        return K.SHAPE
    if {left.tag, right.tag} <= {Tag.HOST_INT, Tag.HOST_SCALAR}:
        return K.Kind(Tag.HOST_SCALAR, origin=max(left.origin, right.origin))
    return K.UNKNOWN

def _repeated_display(node: cst.BinaryOperation, left: Kind, right: Kind) -> Kind | None:
    """``[None] * B``, ``(0,) * ndim``: a list or tuple display times a count is a repeated
    sequence (a shape where the display is one). Only an operand certain to be an array
    (``[1.0] * x`` with ``x`` a known array broadcasts) makes it an array; a rule's parameter
    that merely may be one does not. None: not a repeated display."""
    if not isinstance(node.operator, cst.Multiply):
        return None
    for display, kind, other in ((node.left, left, right), (node.right, right, left)):
        if isinstance(display, (cst.List, cst.Tuple)) and not (other.tag is Tag.ARRAY and not other.doubt):
            return K.SHAPE if kind.tag is Tag.SHAPE else K.CONTAINER
    return None


def _element_times_setting(left: Kind, right: Kind, node: cst.BinaryOperation) -> bool:
    """One element of an array and a helper's parameter of unknown rank in arithmetic
    (``bottom_rois[n, 0] * spatial_scale``): the parameter is more likely a setting passed along
    than an array the element broadcasts against, so the result stays one element."""
    if not isinstance(node.operator, ARITHMETIC):
        return False
    kinds = {left.tag, right.tag}
    if kinds != {Tag.DEVICE_SCALAR, Tag.ARRAY}:
        return False
    element = left if left.tag is Tag.DEVICE_SCALAR else right
    other = right if element is left else left
    return element.origin >= ELEMENT and not element.doubt and other.doubt == Doubt.PARAMETER and other.rank is None


def unary_kind(inf: "InferenceView", node: cst.UnaryOperation) -> Kind:
    inner = inf.kind(node.expression)
    if isinstance(node.operator, cst.Not):
        return K.HOST_SCALAR if not inner.is_device else K.UNKNOWN
    return inner

def comparison_kind(inf: "InferenceView", node: cst.Comparison) -> Kind:
    operands = [inf.kind(node.left), *[inf.kind(c.comparator) for c in node.comparisons]]
    if any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in node.comparisons):
        return K.HOST_SCALAR
    arrays = [k for k in operands if k.tag is Tag.ARRAY]
    if arrays:
        ranks = [k.rank for k in arrays]
        key = next((k.key for k in arrays if k.key), None)
        return K.array(ranks[0] if len(set(ranks)) == 1 else None, boolean=True, doubt=least_doubt(arrays), key=key)
    scalars = [k for k in operands if k.tag is Tag.DEVICE_SCALAR]
    if scalars:
        return K.Kind(Tag.DEVICE_SCALAR, boolean=True, origin=max(k.origin for k in scalars), doubt=least_doubt(scalars))
    if all(k.tag in (Tag.HOST_INT, Tag.HOST_SCALAR) for k in operands):
        return K.HOST_SCALAR
    return K.UNKNOWN

def sequence_kind(inf: "InferenceView", node: cst.Tuple | cst.List) -> Kind:
    elements = [e.value for e in node.elements if not isinstance(e, cst.StarredElement)]
    if len(elements) != len(node.elements):
        return K.CONTAINER
    kinds = [inf.kind(e) for e in elements]
    if kinds and all(k.is_host_int for k in kinds):
        return K.Kind(Tag.SHAPE, rank=len(kinds), origin=max(k.origin for k in kinds))
    if kinds and all(k.is_device or k.is_none for k in kinds) and any(k.is_device for k in kinds):
        return K.ARRAY_SEQ
    return K.CONTAINER
