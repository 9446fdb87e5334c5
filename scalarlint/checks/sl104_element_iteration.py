"""SL104 element-iteration: iterating a device array element by element in Python.

Everything about SL104 starts here: this module is the check (what it matches, its documentation in
``INFO.doc``, and in ``INFO.fixers`` the modules of ``fixers/`` that rewrite its findings); its
fixtures and their ``--diff`` snapshots are in ``tests/checks/SL104/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import libcst as cst

from scalarlint.analysis.kinds import Doubt, Origin, Tag
from scalarlint.analysis.loop_range import range_info
from scalarlint.analysis.search_picks import search_pick
from scalarlint.analysis.syntax import call_name, integer_value, is_name, is_range_name, positional
from scalarlint.analysis.tree import is_inside, walk
from scalarlint.checks.base import CheckContext, CheckInfo, Finding, Match, element_accesses, short
from scalarlint.diagnostics import Severity

INFO = CheckInfo(
    code="SL104",
    name="element-iteration",
    summary="Iterating an array in Python (for loops, comprehensions, builtin sum/max/sorted/list/...)",
    doc="""\
## What it flags
Python-level iteration over a device array inside an AD rule: `for v in x`,
`enumerate(x)`/`zip(x, y)` over arrays, comprehensions over arrays, `*x` unpacking, unpacking
a row (`a, b, c = x[i]`, or `ix, iy, iz = index` with `index` computed from one read of the
data; not a parameter or a call's result, which are tuples as often), unpacking a name that
holds a one-axis device array for certain (`ix, iy, iz = point` for a row `point` of a matrix a
loop iterates; `w, x, y, z = q` for a parameter that a `vectorize(signature="(q)->(q)")`
decorator gives one core axis), the arrays of a tuple unpacked in turn (`(r,), (l,) =
jnp.where(mask, size=1)`: each index array is iterated), and
the builtins `sum`, `max`, `min`, `any`, `all`, `sorted`, `list`, `tuple`, `map`, `filter`,
`iter` applied to an array.

Element loops too: `for i in range(x.size)`, `range(len(x))`, `range(n)` with `n` from a
shape, `np.ndindex(x.shape)`, the entries of device data copied to the host
(`for i in idx.cpu().numpy():`, `for ii in order.asnumpy()[:k]:`), comprehensions over them
and `while i < n:` counting up to such a bound (or to an element of the data), whose body
reads or writes single
elements; and a `range` loop over a setting (`for outh in range(self.outh):`) whose variable is
one of the indices of the single elements its body reads or writes (`top[i, d, outh, w]`): one
trip per element along that axis (`range(3)`, kernel taps, is never one). They are reported
once, at the loop header, naming the arrays; the element accesses inside keep their own findings (SL101, SL102, SL105). Loops over axes, layers, kernel taps or
other small structural counts, and loops whose body handles rows or slabs, are not element
loops.

## Why it hurts on a GPU
Iterating a CuPy or PyTorch CUDA array yields one 0-d (or row) view per element: a kernel
launch each, and a sync each time Python looks at the value (`max` compares on the host).
Builtin `sum(x)` adds elements one at a time in Python. Strict backends raise.

## Example
```python
def pullback(dy):
    total = sum(x)                      # SL104
    return (xp.asarray([v * dy for v in x]),)   # SL104
```

## What to write instead
The array module's reductions and elementwise arithmetic: `xp.sum(x)`, `xp.max(x)`,
`xp.any(mask)`, `xp.sort(x)`, `x * dy`. They stay on the device and return 0-d arrays.
""",
    fixers=(
        "running_scan",
        "product_of_others",
        "suffix_sum",
        "outer_sum",
        "scatter_add",
        "array_reduction",
        "host_copy",
        "iterated_copy",
    ),
)


@dataclass(frozen=True)
class BuiltinIteration(Match):
    """SL104's match for ``sum(x)``, ``max(x)``, ``list(x)``, ...: a Python builtin iterating a
    device array; ``builtin`` is its name (the reduction fixer rewrites the ones it knows)."""

    builtin: str


@dataclass(frozen=True)
class ElementLoop(Match):
    """SL104's match for a loop whose body reads or writes one element per trip (the finding
    is on the loop header): its evidence comes from the element accesses in the body."""

NODE_TYPES = (cst.For, cst.CompFor, cst.While, cst.Call, cst.StarredElement, cst.Assign)

# Builtins that only make sense on numbers: worth reporting even for a parameter that is an
# array only by assumption (it might be a tuple; ``sum``/``max`` of it still suggests data).
NUMERIC_BUILTINS = frozenset({"sum", "max", "min", "any", "all", "sorted"})
BUILTINS = frozenset({"sum", "max", "min", "any", "all", "sorted", "list", "tuple", "map", "filter", "iter", "set", "reversed", "enumerate", "zip", "frozenset"})
# functions that return one index array per axis (unpacked in turn, each array is iterated)
INDEX_TUPLE_FUNCTIONS = frozenset({"where", "nonzero"})


def _iterated_arrays(iterable: cst.BaseExpression, ctx: CheckContext) -> list[cst.BaseExpression]:
    if isinstance(iterable, cst.Call):
        name = call_name(iterable.func)
        if name in (["enumerate"], ["zip"], ["reversed"], ["iter"]):
            return [a for a in positional(iterable) for a in _iterated_arrays(a, ctx)] + _zipped_vectors(iterable, ctx)
        # for v in X.flatten(), for b in torch.unique(idx): a call whose result is an array
        # is iterated like a name holding it
    kind = ctx.inference.kind(iterable)
    return [iterable] if kind.tag is Tag.ARRAY and not kind.doubt else []


def _zipped_vectors(call: cst.Call, ctx: CheckContext) -> list[cst.BaseExpression]:
    """``zip(*idxs)`` with ``idxs = xp.unravel_index(xp.arange(n), shape)``: a tuple of
    one-axis device arrays walked in lockstep, one element of each per trip."""
    found: list[cst.BaseExpression] = []
    for arg in call.args:
        if arg.star == "*" and arg.keyword is None:
            kind = ctx.inference.kind(arg.value)
            if kind.tag is Tag.ARRAY_SEQ and kind.rank == 1 and not kind.doubt:
                found.append(arg.value)
    return found


def check(node: cst.CSTNode, ctx: CheckContext) -> Iterable[Finding]:
    if ctx.is_claimed(node):
        return
    if isinstance(node, cst.While):
        yield from _element_loop(node, ctx)
        return
    if isinstance(node, (cst.For, cst.CompFor)):
        arrays = _iterated_arrays(node.iter, ctx)
        if arrays and _yields_matrices(node, ctx):
            arrays = []  # for a in batch: xp.linalg.eigh(a): one slab per trip, not one element
        if arrays:  # nothing is claimed: a mask or an element read inside the iterable keeps its finding
            yield Finding(
                INFO.code,
                node.iter,
                f"Python iteration over the array `{short(ctx, arrays[0])}`: one view and one sync per element; "
                "use vectorized array operations",
                Severity.ERROR,
                at=arrays[0],  # a header over several lines: the line that names the array
            )
            return
        yield from _element_loop(node, ctx)
        return
    if isinstance(node, cst.Assign):
        yield from _unpacking(node, ctx)
        return
    if isinstance(node, cst.StarredElement):
        kind = ctx.inference.kind(node.value)
        if kind.tag is Tag.ARRAY and not kind.doubt:
            yield Finding(INFO.code, node, f"unpacking the array `{short(ctx, node.value)}` iterates it element by element", Severity.ERROR)
        return
    assert isinstance(node, cst.Call)
    name = call_name(node.func)
    if name is None or len(name) != 1 or name[0] not in BUILTINS or not ctx.inference.is_builtin(node.func):
        return  # DeZero's own ``sum(x, axis=0)`` shadows the builtin
    args = positional(node)
    if name[0] in ("max", "min") and len(args) != 1:
        return  # max(a, b) compares its arguments; it iterates nothing
    candidates = args[1:] if name[0] in ("map", "filter") else args[:1]
    if name[0] in ("enumerate", "zip", "reversed", "iter"):
        parent = ctx.parents.get(node)
        if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is node:
            return  # reported once, at the loop
    for arg in candidates:
        kind = ctx.inference.kind(arg)
        if kind.tag is Tag.ARRAY and (not kind.doubt or (kind.doubt is Doubt.PARAMETER and name[0] in NUMERIC_BUILTINS)):
            ctx.claim(arg)
            yield Finding(
                INFO.code,
                node,
                f"builtin `{name[0]}()` iterates the array `{short(ctx, arg)}` in Python, one element at a time; "
                f"use the array module's reduction (e.g. `xp.{_replacement(name[0])}`)",
                Severity.ERROR,
                match=BuiltinIteration(name[0]),
            )
            return


MATRIX_USES = frozenset({"shape", "T", "mT", "reshape", "ndim", "transpose", "dot"})


def _yields_matrices(node: cst.For | cst.CompFor, ctx: CheckContext) -> bool:
    """The loop variable is used as an array of rank >= 1 in the body: ``v.shape``, ``v.T``,
    ``v[:, 0]``, ``v @ w``, ``xp.linalg.f(v)``. Then an array of unknown rank is iterated by rows."""
    target = node.target
    if not isinstance(target, cst.Name):
        return False
    name = target.value
    body: cst.CSTNode = node.body if isinstance(node, cst.For) else ctx.parents.get(node, node)
    for sub in walk(body):
        if isinstance(sub, cst.Attribute) and sub.attr.value in MATRIX_USES and is_name(sub.value, name):
            return True
        if isinstance(sub, cst.Subscript) and is_name(sub.value, name) and any(isinstance(e.slice, cst.Slice) for e in sub.slice):
            return True
        if isinstance(sub, cst.BinaryOperation) and isinstance(sub.operator, cst.MatrixMultiply) and (is_name(sub.left, name) or is_name(sub.right, name)):
            return True
        if isinstance(sub, cst.Call) and "linalg" in (call_name(sub.func) or []) and any(is_name(a.value, name) for a in sub.args):
            return True
    return False


def _counts_elements(iterable: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``range(...)`` bounded by a data size, ``reversed`` of one, ``ndindex(...)`` of sizes,
    and the entries of device data copied to the host (``for ii in order.asnumpy():``, a slice
    or ``enumerate`` of such a copy): one trip per entry of the data."""
    kind = ctx.inference.kind(iterable)
    if kind.tag is Tag.ARRAY and kind.doubt == Doubt.HOST_COPY:
        return True
    if not isinstance(iterable, cst.Call):
        return False
    parts = call_name(iterable.func)
    args = positional(iterable)
    if parts in (["reversed"], ["enumerate"]) and args:
        return _counts_elements(args[0], ctx)
    if is_range_name(parts):
        return ctx.inference.range_over_data(iterable, least=Origin.SIZE) or any(
            ctx.inference.may_count_data(a, Origin.DATA) for a in args
        )
    if parts and parts[-1] in ("ndindex", "nditer") and args:
        return True
    return False


def _counts_up_to_data(test: cst.BaseExpression, ctx: CheckContext) -> bool:
    """``while iy < roi_bin_grid_h:``: a counter compared with a bound that counts data (a
    data size, or an element of the data on some path), the ``while`` form of ``range``."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    if not isinstance(test.comparisons[0].operator, (cst.LessThan, cst.LessThanEqual)) or not isinstance(test.left, cst.Name):
        return False
    bound = test.comparisons[0].comparator
    return ctx.inference.may_count_data(bound, Origin.DATA) or ctx.inference.is_element_value(bound)


def _element_loop(node: cst.For | cst.CompFor | cst.While, ctx: CheckContext) -> Iterable[Finding]:
    """A loop over data sizes whose body touches single elements: one trip per element."""
    if isinstance(node, cst.While):
        header, counts = node.test, _counts_up_to_data(node.test, ctx)
    else:
        header, counts = node.iter, _counts_elements(node.iter, ctx)
    if not counts and not _counted_by_setting(node):
        return
    body: cst.CSTNode = node.body if isinstance(node, (cst.For, cst.While)) else ctx.parents.get(node, node)
    accesses = element_accesses(body, ctx)
    if isinstance(node, cst.CompFor):
        accesses = [a for a in accesses if not is_inside(a, node.iter, ctx.parents)]
    if not counts:
        accesses = [a for a in accesses if _indexed_by(a, node.target)]
    if not accesses:
        return
    names = []
    for access in accesses:
        name = short(ctx, access.value, 20)
        if name not in names:
            names.append(name)
    shown = ", ".join(f"`{n}`" for n in names[:3]) + (", ..." if len(names) > 3 else "")
    yield Finding(
        INFO.code,
        header,  # the loop header, not the whole loop: editors underline one line
        f"element loop over {shown}: runs once per element, each trip a kernel launch and often a sync; "
        "write it as whole-array operations",
        Severity.ERROR,
        match=ElementLoop(),
    )


def _counted_by_setting(node: cst.For | cst.CompFor | cst.While) -> bool:
    """``for outh in range(self.outh):`` (a bound the inference cannot call a data size) and not
    ``range(3)`` (kernel taps): such a loop is an element loop only where its variable indexes
    the element accesses themselves (``_indexed_by``), one trip per element along that axis."""
    if isinstance(node, cst.While) or not isinstance(node.target, cst.Name):
        return False
    scan = range_info(node.iter)
    return scan is not None and integer_value(scan.stop) is None


def _indexed_by(access: cst.Subscript, target: cst.BaseAssignTargetExpression) -> bool:
    """``top[i_roi, outd, outh, outw]`` for the loop variable ``outh``: the variable, alone or
    in arithmetic (``E[i - 1, j]``), is one of the access's indices."""
    if not isinstance(target, cst.Name):
        return False
    for element in access.slice:
        index = element.slice
        if isinstance(index, cst.Index) and _arithmetic_of(index.value, target.value):
            return True
    return False


def _arithmetic_of(value: cst.BaseExpression, name: str) -> bool:
    if isinstance(value, cst.Name):
        return value.value == name
    if isinstance(value, cst.BinaryOperation):
        return _arithmetic_of(value.left, name) or _arithmetic_of(value.right, name)
    if isinstance(value, cst.UnaryOperation):
        return _arithmetic_of(value.expression, name)
    return False


def _replacement(builtin: str) -> str:
    return {"sorted": "sort", "list": "asarray", "tuple": "asarray", "map": "vectorized ops", "filter": "where"}.get(builtin, builtin)


def _unpacking(node: cst.Assign, ctx: CheckContext) -> Iterable[Finding]:
    """``a, b, c = x[i]``: unpacking a row iterates it. (``gy, = gy`` unpacks a tuple of
    cotangents far more often than an array, and a name bound to what a call returned is a
    tuple as often: a name is a row only where the inference took it for one element of a
    device array, ``ix, iy, iz = index`` after ``index = (points[i] / s).astype(int)``.)"""
    if not any(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets):
        return
    value = node.value
    kind = ctx.inference.kind(value)
    row_of_data = isinstance(value, cst.Subscript) and (
        ctx.inference.selects_element(value) or (kind.tag is Tag.ARRAY and not kind.doubt)
    ) or (
        # (unpacking proves a row of the array the element was read from)
        isinstance(value, cst.Name) and kind.tag is Tag.DEVICE_SCALAR and not kind.doubt
        and ctx.inference.parameter_of(value) is None
    ) or (
        # (a name the inference holds for a one-axis device array for certain: a row of a
        # matrix a loop iterates, a parameter a ``vectorize`` signature gives one core axis)
        isinstance(value, cst.Name) and kind.tag is Tag.ARRAY and kind.rank == 1 and not kind.doubt
    )
    if kind.tag is Tag.ARRAY_SEQ and not kind.doubt and _index_arrays(value) and _unpacks_its_parts(node):
        yield Finding(
            INFO.code,
            node,
            f"unpacking the arrays of `{short(ctx, value)}` in turn reads their elements one by one on the host; keep them as arrays",
            ctx.severity_for(node),
        )
        return
    if row_of_data:
        if not (isinstance(value, cst.Subscript) and search_pick(value, ctx.inference) is not None):
            ctx.claim(value)  # (x, y = argwhere(mask)[0] unpacks the first hit of a search: SL103's too)
        yield Finding(
            INFO.code,
            node,
            f"unpacking `{short(ctx, value)}` reads its elements one by one on the host; keep them as array slices",
            ctx.severity_for(node),
        )


def _unpacks_its_parts(node: cst.Assign) -> bool:
    """``(r,), (l,) = jnp.where(mask, size=1)``: a target that is a tuple of tuples unpacks each
    part of the sequence again; the parts of a sequence of arrays are arrays."""
    return any(
        isinstance(t.target, (cst.Tuple, cst.List)) and any(isinstance(e.value, (cst.Tuple, cst.List)) for e in t.target.elements)
        for t in node.targets
    )


def _index_arrays(value: cst.BaseExpression) -> bool:
    """``xp.where(mask)``, ``xp.nonzero(x)``, ``x.nonzero()``: a tuple of index arrays, one per
    axis (a name or another call may hold nested tuples, as residuals do)."""
    return isinstance(value, cst.Call) and (call_name(value.func) or [""])[-1] in INDEX_TUPLE_FUNCTIONS
