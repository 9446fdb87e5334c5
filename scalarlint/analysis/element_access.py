"""Questions about element access the checks ask of the inference: does ``x[i]`` pick one
element, is ``x[m]`` a boolean-mask read, is a value one element of a device array, does a
``range`` count the data. They combine the kinds ``Inference.kind`` gives with how the access
is written and used; ``Inference`` answers them by calling these functions, so that the
inference module holds the kind rules and this one the access rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import Assignment

from scalarlint.analysis.kinds import Doubt, Kind, Origin, Tag
from scalarlint.analysis import literal_reads
from scalarlint.analysis.masks import compared_to_mask, mask_name
from scalarlint.analysis.scalar_use import arithmetic_top
from scalarlint.analysis.syntax import call_name, integer_value, is_none, positional
from scalarlint.analysis.tree import walk

if TYPE_CHECKING:
    from scalarlint.analysis.inference_view import InferenceView

# what one reads off an array of rank >= 1 and never off one element
ARRAY_ONLY_USES = frozenset({"shape", "ndim", "T", "mT", "reshape", "transpose", "ravel", "flatten", "view",
                             "get_shape", "permute", "unsqueeze", "squeeze"})


def index_kinds(inf: "InferenceView", node: cst.Subscript) -> list[Kind] | None:
    """Kinds of the index elements; None when any element is a slice, ``...`` or ``None``."""
    values = _index_values(node)
    return [inf.kind(v) for v in values] if len(values) == len(node.slice) else None


def _index_values(node: cst.Subscript) -> list[cst.BaseExpression]:
    """The index elements that are values (not slices, ``...``, ``None``, tuples or starred)."""
    return [
        e.slice.value for e in node.slice
        if isinstance(e.slice, cst.Index) and e.slice.star is None
        and not isinstance(e.slice.value, (cst.Ellipsis, cst.Tuple)) and not is_none(e.slice.value)
    ]


def selects_element(inf: "InferenceView", node: cst.Subscript, converted: bool = False) -> bool:
    """True when ``node`` reads or writes exactly one element of a device array with host ints.

    With the rank unknown an int on the leading axis may pick a row or a slab; see
    ``_is_element`` for when it is taken as an element, plus two kinds of use: ``converted``
    (``float(x[0])`` only works on one element) and the scalar uses ``scalar_use`` finds.
    """
    if _used_as_an_array(inf, node):
        return False  # x[i].shape, x[i].reshape(...): a row or a slab, not one element
    base = inf.kind(node.value)
    if base.tag is Tag.ARRAY and base.doubt < Doubt.PYTHON_DATA and literal_reads.one_int_per_own_axis(node):
        return True
    if base.tag is Tag.UNKNOWN and _indexed_like_an_array(inf, node) and not _indexed_deeper(inf, node):
        return True
    if base.tag is Tag.UNKNOWN and _rank_stated(inf, node):
        return True
    if base.tag is not Tag.ARRAY or base.doubt >= Doubt.PYTHON_DATA:
        return False  # host bookkeeping (offset tables built with NumPy) is no device data
    indices = index_kinds(inf, node)
    if indices is not None and _taken_by_item(inf, node) and not any(k.tag in (Tag.ARRAY, Tag.DEVICE_SCALAR) for k in indices):
        return True  # crow[row_offset + rows].item(): indices the inference cannot follow, but no device index
    if not indices or not all(k.is_host_int or _read_back_index(inf, k) for k in indices):
        return False
    if base.rank is None and (_indexed_deeper(inf, node) or _indexed_once_named(inf, node)):
        return False  # output[0, i] beside output[0, i, :50], c = cls[i] then c[1:]: rows
    if base.rank is None and _chained_element(inf, node, indices):
        return True
    if is_element(base, indices) or converted:
        return True
    if base.rank is None and (literal_reads.reads_both_ends(inf, node) or _element_elsewhere(inf, node) or literal_reads.scalar_made(inf, node)):
        return True
    if base.rank is not None or base.doubt > Doubt.PARAMETER:
        return False
    if base.doubt == Doubt.PARAMETER:  # a helper's parameter: only numeric arithmetic vouches
        return inf.scalar_uses.numeric_use_as_scalar(node)
    return inf.used_as_scalar(node) or _stored_into_element(inf, node)


def _taken_by_item(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``x[...].item()``: ``.item()`` takes the one element of a one-element array, so the
    subscript reads one element whatever its indices' kinds (``selects_element`` still refuses
    a slice, and a device index: a gather, or a boolean mask, SL106's)."""
    attribute = inf.parents.get(node)
    call = inf.parents.get(attribute) if isinstance(attribute, cst.Attribute) else None
    return isinstance(call, cst.Call) and call.func is attribute and not call.args and attribute.attr.value == "item"  # type: ignore[union-attr]


def chained_indices(inf: "InferenceView", node: cst.Subscript, indices: list[Kind]) -> tuple[cst.BaseExpression, list[Kind]] | None:
    """``out_t[4][i]``: what the chain of subscripts ending in ``node`` starts from and every
    index along it (``indices``: ``node``'s own), when each one before ``node`` picks with host
    ints only; None for no chain."""
    inner = node.value
    chained = list(indices)
    while isinstance(inner, cst.Subscript):
        more = index_kinds(inf, inner)
        if not more or not all(k.is_host_int for k in more):
            return None
        chained = more + chained
        inner = inner.value
    return (inner, chained) if len(chained) > len(indices) else None


def _chained_element(inf: "InferenceView", node: cst.Subscript, indices: list[Kind]) -> bool:
    """``out_t[4][i]``: host ints chained on one array read as they would in one subscript
    (``out_t[4, i]``): one element when they index every axis of the array the chain starts
    from, its rank known or shown elsewhere in the function (``n = out_t.shape[1]``)."""
    chain = chained_indices(inf, node, indices)
    if chain is None:
        return False
    inner, chained = chain
    root = inf.kind(inner)
    if root.tag is not Tag.ARRAY or root.doubt >= Doubt.PYTHON_DATA:
        return False  # ``grads[0][i]``: the first of a tuple of arrays, then one index of unknown reach
    if root.rank is not None:
        return len(chained) >= root.rank
    if not isinstance(inner, cst.Name):
        return False
    # nested lists chain ints too (``blocks[i][k]``): the array must show its axes elsewhere in
    # the function (``out_t.shape[1]``, ``x[a, b]``), as many as the chain reads and no more
    return inf.evidence.least_rank(inner.value, node) == len(chained)


def _rank_stated(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``t = t_span[0]`` under ``elif len(t_span.shape) == 1:`` of a value the inference cannot
    follow (rebound by a call it cannot type): only an array has a shape, and the function
    states its rank, so host ints on every axis pick one element."""
    if not isinstance(node.value, cst.Name) or inf.enclosing_function(node) not in inf.checked_functions:
        return False
    rank = inf.evidence.rank_of(node.value.value, node)
    indices = index_kinds(inf, node)
    return rank is not None and bool(indices) and len(indices) >= rank and all(k.is_host_int for k in indices)  # type: ignore[union-attr]


def _element_elsewhere(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``betas[0]`` in a function that writes ``betas[idx(t, u)] = ...`` as one element: the
    array's element writes with as many host-int indices (not literals, which would prove
    nothing by themselves) show its rank, so a literal access with that many indices is one
    element too. Only literal accesses are decided so, and only by writes: a read may be a row
    of a list of rows, and an index that is itself a device value is a gather (``near-traced``)."""
    if not isinstance(node.value, cst.Name) or not all(_literal_index(e) for e in node.slice):
        return False
    function = inf.enclosing_function(node)
    if function is None:
        return False
    key = ("element-written names", function)
    names = inf.cache.get(key)
    if names is None:
        inf.cache[key] = frozenset()  # while collecting, a literal access met on the way proves nothing
        found = set()
        for other in walk(function):
            if (
                isinstance(other, cst.Subscript) and isinstance(other.value, cst.Name) and _written(inf, other)
                and not any(_literal_index(e) for e in other.slice)
                and all(k.is_host_int for k in index_kinds(inf, other) or [])
                and selects_element(inf, other)
            ):
                found.add((other.value.value, len(other.slice)))
        inf.cache[key] = names = frozenset(found)
    return (node.value.value, len(node.slice)) in names  # type: ignore[operator]


def written_as_elements(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``loglike = betas[0]`` where the function writes ``betas[idx(t, u)] = ...`` one element
    at a time: the value read is one element (``_element_elsewhere``), so what is computed from
    it is too (``if diff > 0.1:`` after ``diff = (loglike - other).abs()`` tests one number)."""
    base = inf.kind(node.value)
    return base.tag is Tag.ARRAY and base.rank is None and base.doubt < Doubt.PYTHON_DATA and _element_elsewhere(inf, node)


def _written(inf: "InferenceView", node: cst.Subscript) -> bool:
    parent = inf.parents.get(node)
    return isinstance(parent, cst.AssignTarget) or (isinstance(parent, cst.AugAssign) and parent.target is node)


def _literal_index(element: cst.SubscriptElement) -> bool:
    return isinstance(element.slice, cst.Index) and integer_value(element.slice.value) is not None


def _stored_into_element(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``b[0] = (y[1] - y[0]) / h[0]``: what is stored into one element of an array (alone
    or through arithmetic) is one element itself, whatever the rank of ``h``."""
    top = arithmetic_top(node, inf.parents)
    statement = inf.parents.get(top)
    if isinstance(statement, cst.Assign) and statement.value is top and len(statement.targets) == 1:
        target = statement.targets[0].target
    elif isinstance(statement, cst.AugAssign) and statement.value is top:
        target = statement.target
    else:
        return False
    return isinstance(target, cst.Subscript) and selects_element(inf, target)


def _indexed_deeper(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``output[0, i]`` beside ``output[0, i, :50]``: the name has more axes than this
    access indexes, so it picks a row (``RankEvidence.least_rank``)."""
    return isinstance(node.value, cst.Name) and inf.evidence.least_rank(node.value.value, node) > len(node.slice)


def _indexed_once_named(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``c = cls[i]`` and then ``c[0]`` or ``c[1:]``: what the name holds has axes of its own,
    so the read picked a row. Only a name bound once in its scope counts."""
    statement = inf.parents.get(node)
    if not isinstance(statement, cst.Assign) or statement.value is not node or len(statement.targets) != 1:
        return False
    target = statement.targets[0].target
    scope = inf.scopes.get(target) if isinstance(target, cst.Name) else None
    if scope is None or not isinstance(target, cst.Name):
        return False
    bindings = [a for a in scope[target.value] if isinstance(a, Assignment)]
    if len(bindings) != 1:
        return False
    return any(isinstance(inf.parents.get(use.node), cst.Subscript) and inf.parents[use.node].value is use.node
               for use in bindings[0].references)


def _read_back_index(inf: "InferenceView", index: Kind) -> bool:
    """An element of a device array used as an index where the framework reads it back to
    a host int (torch): the access then picks one element like a host int does."""
    return _is_element_kind(index) and inf.namespaces.index_reads_host()


def _used_as_an_array(inf: "InferenceView", node: cst.Subscript) -> bool:
    parent = inf.parents.get(node)
    return isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in ARRAY_ONLY_USES


def _indexed_like_an_array(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``state.errors[idx - 1, -1]`` of a value the inference cannot follow: an index of two
    or more host ints is a NumPy-style element access (lists and tuples reject it, and the
    rules of a checked function hold arrays unless proven otherwise), when one index walks
    the data (a row index of two small counts picks a slab). Pandas' ``.iloc``,
    ``.loc``, ``.at`` and ``.iat`` are not arrays."""
    if len(node.slice) < 2 or inf.enclosing_function(node) not in inf.checked_functions:
        return False
    value = node.value
    if isinstance(value, cst.Attribute) and value.attr.value in ("iloc", "loc", "at", "iat", "shape", "strides"):
        return False
    if isinstance(value, cst.Name) and value.value in ("self", "cls", "ctx"):
        return False
    indices = index_kinds(inf, node)
    if not indices:
        return False
    walks = Origin.STRUCTURAL if len(indices) >= 3 else Origin.DATA  # dZ[m, i, j, c] in a loop nest over a shape
    return all(k.is_host_int for k in indices) and any(k.origin >= walks for k in indices)


def is_element(base: Kind, indices: list[Kind]) -> bool:
    """Rank known: every axis indexed. Unknown: two or more ints, an int parameter
    (``getindex(x, i: int)``), or an index bounded by the array's own length
    (``for i in range(len(x)): x[i]``, ``dx = zeros_like(x); dx[i]``); an index bounded by
    another array's size may pick a row (``for b in range(B.shape[0]): A[b]``)."""
    if base.rank is not None:
        return len(indices) >= base.rank
    if len(indices) >= 2:
        return True
    index = indices[0]
    if index.origin == Origin.PARAM:
        return True
    return index.origin >= Origin.DATA and index.key is not None and index.key == base.key


def is_mask_index(inf: "InferenceView", node: cst.Subscript) -> bool:
    """``x[mask]`` with a boolean device array; ``x`` need not be known: only an array
    takes an array of booleans as its index (inside a checked function)."""
    base = inf.kind(node.value)
    if base.tag is not Tag.ARRAY and not (base.tag is Tag.UNKNOWN and inf.enclosing_function(node) in inf.checked_functions):
        return False
    if base.doubt >= Doubt.PYTHON_DATA:
        return False  # a host copy (``np.zeros`` after ``.asnumpy()`` in an MXNet op) or Python data
    indices = index_kinds(inf, node)
    masks = [k for k in map(inf.kind, _index_values(node)) if k.tag is Tag.ARRAY and k.boolean and k.doubt < Doubt.PYTHON_DATA]  # x[:, keep] too
    if masks and (base.tag is Tag.ARRAY or any(not k.doubt for k in masks)):
        return True
    if mask_name(node) is not None and indices is not None and len(indices) == 1 and indices[0].tag in (Tag.ARRAY, Tag.UNKNOWN):
        return not _cast_to_integers(inf, node.slice[0].slice.value)  # type: ignore[union-attr]
    return compared_to_mask(node, base)


INTEGER_DTYPES = frozenset({"int", "int8", "int16", "int32", "int64", "intp", "uint8", "long"})


def _cast_to_integers(inf: "InferenceView", index: cst.BaseExpression) -> bool:
    """``mask = inputs.eval.astype(np.int)`` (or ``.long()``): named a mask, but every binding
    reaching the index casts it to integers, so it is an index array, a gather."""
    if not isinstance(index, cst.Name):
        return False
    values = inf.reaching_values(index)
    return bool(values) and all(_integer_cast(v) for v in values)


def _integer_cast(value: cst.BaseExpression | None) -> bool:
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Attribute):
        return False
    method = value.func.attr.value
    if method in ("long", "int") and not value.args:
        return True
    if method != "astype" or not value.args:
        return False
    return (call_name(value.args[0].value) or [""])[-1] in INTEGER_DTYPES


def is_element_value(inf: "InferenceView", node: cst.BaseExpression) -> bool:
    """A 0-d device value that is one element of an array (not a reduction result)."""
    kind = inf.kind(node)
    return kind.is_element


def range_over_data(inf: "InferenceView", call: cst.Call, least: Origin = Origin.PARAM) -> bool:
    """``range(len(x))``, ``range(x.shape[0])``, ``range(n)`` with an int parameter ``n``
    (``least=Origin.SIZE``: also ``range(H)`` with ``B, C, H, W = x.shape``)."""
    return any(_counts_data(inf.kind(a), least) for a in positional(call))


def may_count_data(inf: "InferenceView", bound: cst.BaseExpression, least: Origin) -> bool:
    """Some assignment reaching ``bound`` makes it a data size (or an element of the data),
    and none says otherwise (``grid = int(ceil(h / n)) if ratio is None else inf.ratio[0]``):
    the other branches are only unknown. Used to call a loop an element loop, never to call
    an index one."""
    kinds = inf.reaching_kinds(bound) if isinstance(bound, cst.Name) else [inf.kind(bound)]  # len(t_span) - 1
    data = [k for k in kinds if (k.is_host_int and k.origin >= least) or _is_element_kind(k)]
    return bool(data) and all(k.tag in (Tag.HOST_INT, Tag.UNKNOWN) or _is_element_kind(k) for k in kinds)


def may_be_element(inf: "InferenceView", value: cst.BaseExpression) -> bool:
    """``grid = inf.ratio`` on one branch and ``numpy.ceil(height / n)`` on the other: on
    some path the name holds one element of a device array (elsewhere a setting or unknown),
    so testing it waits for the device on that path."""
    if is_element_value(inf, value):
        return True
    if not isinstance(value, cst.Name) or inf.kind(value).tag is not Tag.UNKNOWN:
        return False
    kinds = inf.reaching_kinds(value)
    return any(_is_element_kind(k) for k in kinds) and all(k.tag in (Tag.UNKNOWN, Tag.HOST_INT) or _is_element_kind(k) for k in kinds)


def _is_element_kind(kind: Kind) -> bool:
    """One element of a device array (not a reduction result, not a mask value)."""
    return kind.is_element and not kind.boolean


def _counts_data(bound: Kind, least: Origin) -> bool:
    """A range bound that counts data: a data-derived host int, or a length read from the
    device (``range(T)`` with ``T = input_lengths[mb]``)."""
    if bound.tag is Tag.DEVICE_SCALAR:
        return not bound.doubt
    return bound.is_host_int and bound.origin >= least
