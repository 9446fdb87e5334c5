"""SL103 search-loop: scanning elements in Python to find an index (findfirst/findlast).

Everything about SL103 starts here: this module is the check (what it matches, its documentation in
``INFO.doc``, and in ``INFO.fixers`` the modules of ``fixers/`` that rewrite its findings); its
fixtures and their ``--diff`` snapshots are in ``tests/checks/SL103/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import libcst as cst

from scalarlint.analysis.loop_range import RangeInfo, range_info
from scalarlint.analysis.search_picks import literal_pick, search_pick
from scalarlint.analysis.syntax import call_name, is_name, is_range_name, positional
from scalarlint.analysis.tree import walk
from scalarlint.checks.base import CheckContext, CheckInfo, Finding, Match, short
from scalarlint.diagnostics import Severity

INFO = CheckInfo(
    code="SL103",
    name="search-loop",
    summary="A loop, generator or comprehension that scans elements for an index",
    doc="""\
## What it flags
findfirst/findlast written in Python inside an AD rule:
- a `for i in range(...)` loop (or `for i, v in enumerate(x)`) whose body tests an element
  (`if abs(x[i]) == y:`, `if v == m:`) and then remembers `i` in a name, `break`s or `return`s
  (an index written into an array element, `owner[cell] = i`, fills a table: SL104's element loop);
- a `while` loop stepping an index while it tests elements that move with it (`while t < T:`
  against a bound read once before the loop is SL105's host test);
- `next(i for i in range(n) if x[i] == m)`, `[i for i in ... if ...][-1]`, `max(i for ...)`;
- `xp.flatnonzero(mask)[-1]`, `xp.nonzero(mask)[0][0]`, `xp.where(mask)[0][-1]`,
  `xp.argwhere(mask)[0]` (also where the picked row is unpacked, `r, c = xp.argwhere(m)[0]`,
  which SL104 reports too).

## Why it hurts on a GPU
Every iteration reads one element: a kernel launch and a device-to-host sync **per element**
(the element reads in the test are reported too, as SL101)
(the Julia report that started this project: `findlast` in ChainRules' `norm(x, Inf)`
pullback fails with "Scalar indexing is disallowed"). The `nonzero` forms sync once but
produce a data-dependent shape, which strict backends and graph capture reject.

## Example
```python
def pullback(dy):
    i = -1
    for j in range(len(x)):
        if abs(x[j]) == y:      # SL103
            i = j
    dx = xp.zeros_like(x)
    dx[i] = xp.sign(x[i]) * dy
    return (dx,)
```

## What to write instead
Keep the search on the device: with `mask = xp.abs(x) == y`, the first match is
`xp.argmax(mask)` and the last is `n - 1 - xp.argmax(xp.flip(mask))`, both 0-d device
arrays. Use that index directly (`dx[i] = v` is a scatter kernel) or one-hot
`xp.where(xp.arange(n) == i, v, 0)`; never as a slice bound (that syncs). If no element may
match, the result differs (argmax returns 0): check `xp.any(mask)` on the device.
""",
    fixers=(
        "vectorized_search",
        "while_search",
    ),
    fixes_supersede=True,  # the found index becomes a device index: its uses need new fixes
)


@dataclass(frozen=True)
class SearchLoop(Match):
    """SL103's match: a findfirst/findlast search, as the check worked it out.

    ``last``: it finds the last match (the message's findlast); ``subject``: the element read
    the search tests (``x[i]``, or the element value of an enumerate scan), or the
    ``nonzero``-style call; ``index``: the name that walks the elements (the loop variable,
    the ``while`` counter, the comprehension's target; None for ``nonzero(mask)[0][0]``);
    ``reverse``: the loop walks backwards (``reversed(range(...))``, a step of ``-1``, a
    ``while`` counter that counts down); ``branch``: the ``if`` of a ``for`` search that
    remembers the index; ``scan``: what a ``for`` or a comprehension over ``range(...)``
    walks (the axis length, the direction, the start), None for other loops and other starts.
    """

    last: bool
    subject: cst.BaseExpression
    index: str | None = None
    reverse: bool = False
    branch: cst.If | None = None
    scan: RangeInfo | None = None

NODE_TYPES = (cst.For, cst.While, cst.Call, cst.Subscript)


def check(node: cst.CSTNode, ctx: CheckContext) -> Iterable[Finding]:
    if ctx.is_claimed(node):
        return
    if isinstance(node, cst.For):
        yield from _for_loop(node, ctx)
    elif isinstance(node, cst.While):
        yield from _while_loop(node, ctx)
    elif isinstance(node, cst.Call):
        yield from _generator_search(node, ctx)
    elif isinstance(node, cst.Subscript):
        yield from _nonzero_search(node, ctx)


def _loop_index(node: cst.For, ctx: CheckContext) -> tuple[str, bool] | None:
    """The loop variable and whether the loop runs backwards, for loops over element indices."""
    it = node.iter
    reverse = False
    enumerated = _enumerate_scan(node, ctx)
    if enumerated is not None:
        return enumerated, False
    if isinstance(it, cst.Call) and call_name(it.func) == ["reversed"] and positional(it):
        it, reverse = positional(it)[0], True
    if not (isinstance(it, cst.Call) and is_range_name(call_name(it.func)) and isinstance(node.target, cst.Name)):
        return None
    args = positional(it)
    if len(args) == 3 and isinstance(args[2], cst.UnaryOperation) and isinstance(args[2].operator, cst.Minus):
        reverse = not reverse
    return node.target.value, reverse


def nodes_of_type(node: cst.CSTNode, kind: type) -> list:  # type: ignore[type-arg]
    """Every node of ``kind`` in ``node`` (itself included): what ``libcst.matchers.findall``
    gives, without importing the matchers (a sixth of the checker's start-up)."""
    return [n for n in walk(node) if isinstance(n, kind)]


def _enumerate_scan(node: cst.For, ctx: CheckContext) -> str | None:
    """``for i, v in enumerate(x)`` over a device array: the index name (tests read ``v``)."""
    it = node.iter
    target = node.target
    if not (isinstance(it, cst.Call) and call_name(it.func) == ["enumerate"] and positional(it)):
        return None
    if not (isinstance(target, cst.Tuple) and len(target.elements) == 2):
        return None
    index, value = (e.value for e in target.elements)
    if not (isinstance(index, cst.Name) and isinstance(value, cst.Name)):
        return None
    if not ctx.inference.kind(positional(it)[0]).is_array:
        return None
    return index.value


def _element_reads(expr: cst.CSTNode, index_name: str, ctx: CheckContext) -> list[cst.CSTNode]:
    """Element reads of device arrays in ``expr`` whose index uses ``index_name``."""
    found: list[cst.CSTNode] = []
    for sub in nodes_of_type(expr, cst.Subscript):
        assert isinstance(sub, cst.Subscript)
        names = {n.value for n in nodes_of_type(sub.slice[0], cst.Name)} if sub.slice else set()
        if index_name in names and ctx.inference.selects_element(sub):
            found.append(sub)
    if not found:  # enumerate scans test the element itself: ``if v == m``
        found = [n for n in nodes_of_type(expr, cst.Name) if ctx.inference.is_element_value(n)]
    return found


def _remembers(body: cst.CSTNode, index_name: str) -> tuple[bool, bool]:
    """(stores or returns the index, leaves the loop early) within an ``if`` body."""
    stores = bool(
        any(isinstance(n, cst.Assign) and _kept_aside(n) and is_name(n.value, index_name) for n in walk(body))
        or any(isinstance(n, cst.Return) and n.value is not None and is_name(n.value, index_name) for n in walk(body))
        or any(
            isinstance(n, cst.Assign) and _kept_aside(n) and isinstance(n.value, cst.BinaryOperation) and is_name(n.value.left, index_name)
            for n in walk(body)
        )
    )
    leaves = bool(nodes_of_type(body, cst.Break) or nodes_of_type(body, cst.Return))
    if leaves and not stores:  # found it, used it, left: `out[i] = g; break`
        stores = any(is_name(n, index_name) for n in walk(body))
    return stores, leaves


def _for_loop(node: cst.For, ctx: CheckContext) -> Iterable[Finding]:
    loop = _loop_index(node, ctx)
    if loop is None:
        return
    index_name, reverse = loop
    for branch in nodes_of_type(node.body, cst.If):
        assert isinstance(branch, cst.If)
        reads = _element_reads(branch.test, index_name, ctx)
        if not reads:
            continue
        stores, leaves = _remembers(branch.body, index_name)
        if not stores:
            continue
        last = (reverse and leaves) or (not reverse and not leaves)
        style = "findlast" if last else "findfirst"
        ctx.claim_node(node)
        ctx.claim_node(branch.test)  # the predicate's sync is the search's, not SL105's
        # the array read, or the element value itself (``if v == m`` in an enumerate scan)
        array = short(ctx, _searched(reads[0]))
        yield Finding(
            INFO.code,
            node,
            f"{style}-style search loop over `{array}`: one kernel launch and one sync per element; "
            f"use `{'n - 1 - xp.argmax(xp.flip(mask))' if last else 'xp.argmax(mask)'}` on the device",
            Severity.ERROR,
            match=SearchLoop(last, reads[0], index_name, reverse, branch, range_info(node.iter)),
        )
        return


def _searched(read: cst.BaseExpression) -> cst.BaseExpression:
    """The array a search reads: ``x`` of ``x[i]``, or the element value itself (``if v == m``
    in an enumerate scan, ``while t < T`` over a value read before the loop)."""
    return read.value if isinstance(read, cst.Subscript) else read


def _while_loop(node: cst.While, ctx: CheckContext) -> Iterable[Finding]:
    steps = [
        n for n in nodes_of_type(node.body, cst.AugAssign)
        if isinstance(n.target, cst.Name) and isinstance(n.operator, (cst.AddAssign, cst.SubtractAssign))
    ]
    for step in steps:
        assert isinstance(step, cst.AugAssign) and isinstance(step.target, cst.Name)
        reads = [read for read in _element_reads(node.test, step.target.value, ctx) if _stepped(read, node)]
        if reads:
            ctx.claim_node(node.test)
            down = isinstance(step.operator, cst.SubtractAssign)  # counting down finds the last match
            style = "findlast" if down else "findfirst"
            yield Finding(
                INFO.code,
                node,
                f"{style}-style `while` search over `{short(ctx, _searched(reads[0]))}`: one sync per element; "
                "build a mask and use `xp.argmax` on the device",
                Severity.ERROR,
                match=SearchLoop(down, reads[0], step.target.value, reverse=down),
            )
            return


def _stepped(read: cst.CSTNode, loop: cst.While) -> bool:
    """A read the loop's trips move along: an element read (its index holds the step), or an
    element value the body binds again (``v = x[i]`` after ``i += 1``). ``while t < T:``
    over a bound ``T`` read once before the loop is a test of a value that never moves: an
    integration loop, SL105's host test, not a search."""
    if not isinstance(read, cst.Name):
        return True
    return any(
        isinstance(target, cst.Name) and target.value == read.value
        for assign in nodes_of_type(loop.body, cst.Assign) for t in assign.targets
        for target in walk(t.target)
    )


def _kept_aside(assign: cst.Assign) -> bool:
    """The index is kept in a name or an attribute (``last = i``, ``self.best = i``), as a
    search keeps what it found; written into an array element (``owner[b, x, y] = i``) it is
    a per-element table being filled, an element loop (SL104), not a search."""
    return all(isinstance(target.target, (cst.Name, cst.Attribute)) for target in assign.targets)


def _generator_search(node: cst.Call, ctx: CheckContext) -> Iterable[Finding]:
    name = call_name(node.func)
    if name not in (["next"], ["max"], ["min"], ["list"], ["sorted"]) or not node.args:
        return
    gen = node.args[0].value
    if not isinstance(gen, (cst.GeneratorExp, cst.ListComp)):
        return
    finding = _comprehension_search(gen, ctx, node, last=name == ["max"])
    if finding is not None:
        yield finding


def _comprehension_search(gen: cst.GeneratorExp | cst.ListComp, ctx: CheckContext, report: cst.CSTNode, last: bool) -> Finding | None:
    comp = gen.for_in
    if not (isinstance(comp.target, cst.Name) and isinstance(gen.elt, cst.Name) and gen.elt.value == comp.target.value):
        return None
    reads = [r for cond in comp.ifs for r in _element_reads(cond.test, comp.target.value, ctx)]
    if not reads:
        return None
    ctx.claim_node(comp)
    for cond in comp.ifs:
        ctx.claim_node(cond.test)  # the predicate's sync is the search's, not SL105's
    style = "findlast" if last else "findfirst"
    return Finding(
        INFO.code,
        report,
        f"{style}-style search over `{short(ctx, getattr(reads[0], 'value', reads[0]))}` in a generator: one sync per element; "
        "use `xp.argmax(mask)` on the device",
        Severity.ERROR,
        match=SearchLoop(last, reads[0], comp.target.value, scan=range_info(comp.iter)),
    )


def _nonzero_search(node: cst.Subscript, ctx: CheckContext) -> Iterable[Finding]:
    """``flatnonzero(mask)[-1]``, ``nonzero(mask)[0][0]``, ``[i for ... if ...][-1]``."""
    if isinstance(node.value, cst.ListComp):
        last = literal_pick(node)
        finding = _comprehension_search(node.value, ctx, node, last=last) if last is not None else None
        if finding is not None:
            yield finding
        return
    pick = search_pick(node, ctx.inference)
    if pick is None:
        return
    value, last = pick
    ctx.claim(node)
    style = "findlast" if last else "findfirst"
    yield Finding(
        INFO.code,
        node,
        f"{style} through `{short(ctx, value)}`: a sync and a data-dependent shape; "
        f"use `{'n - 1 - xp.argmax(xp.flip(mask))' if last else 'xp.argmax(mask)'}` on the device",
        Severity.ERROR,
        match=SearchLoop(last, value),
    )
