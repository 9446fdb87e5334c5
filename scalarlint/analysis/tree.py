"""Small walks over libcst trees shared by the checks and the fixers.

libcst computes ``node.children`` by rebuilding the node through a visitor, so children are
read with ``fast_walk.child_nodes`` instead (the same nodes, off the fields). ``walk`` and
``children`` leave out the ``TRIVIA`` (whitespace, comments, punctuation) wherever the node is:
what they return depends on the node alone. ``parent_map`` reads every node's children once
anyway, so it keeps them (the trivia left out, as ``children`` gives them): later walks of the
same tree read the kept lists instead of the fields. That memo, per thread, holds one tree (the
one being analysed, kept alive by the memo itself so node ids stay unique); it only saves time,
and a walk answers the same with it, without it, or after ``release``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, MutableMapping, Sequence

import libcst as cst

from scalarlint.analysis.fast_walk import child_nodes
from scalarlint.analysis.kept_fields import kept_nodes

_cache = threading.local()


def children(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """``node.children`` but the ``TRIVIA``, in order (read from the kept lists when ``node``
    belongs to the tree ``parent_map`` indexed last: the same list, no reading of fields)."""
    below = kept_children().get(id(node))
    return below if below is not None else kept_nodes(node)



def kept_children() -> dict[int, Sequence[cst.CSTNode]]:
    """The kept lists of the last indexed tree, by node id (empty when none): for hot walks
    that look children up inline, falling back to ``child_nodes`` for other nodes."""
    return getattr(_cache, "children", None) or {}


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``node`` and every node below it but the ``TRIVIA``, in source order (parents before
    children); ``walk_all`` includes the trivia. For a node of the tree ``parent_map`` indexed
    last that is a slice of the kept source order (a subtree is a run of it); elsewhere the kept
    lists, where a node has them, only spare reading the fields."""
    span = _kept_span(node)
    return iter(span) if span is not None else _walk(node)


def _kept_span(node: cst.CSTNode) -> list[cst.CSTNode] | None:
    """``list(walk(node))`` cut from the kept source order: from ``node`` to its last
    descendant (the last kept child's last kept child, and so on); None when ``node`` is not
    in the tree ``parent_map`` indexed last."""
    order = getattr(_cache, "preorder", None)
    if not order:
        return None
    where = order_index(order[0])
    start = where.get(id(node))
    if start is None or order[start] is not node:
        return None
    kept = _cache.children
    last, below = node, kept[id(node)]
    while below:
        last = below[-1]
        below = kept[id(last)]
    return order[start : where[id(last)] + 1]


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``walk`` read off the kept lists (where a node has them) or the fields."""
    kept = kept_children()
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        below = kept.get(id(current))
        stack.extend(reversed(below if below is not None else kept_nodes(current)))


def walk_all(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``node`` and every node below it, comments and whitespace included, in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(child_nodes(current)))


def parent_map(root: cst.CSTNode) -> dict[cst.CSTNode, cst.CSTNode]:
    """Child -> parent for the whole tree but its ``TRIVIA``; a plain walk is about 3x cheaper
    than libcst's ParentNodeProvider, which pays for a full visitor dispatch per node. Keeps
    every node's children (but the trivia), and every node in source order (``preorder``), for
    later walks of the same tree (per thread): they then read the lists instead of the fields,
    and find the same nodes."""
    parents: dict[cst.CSTNode, cst.CSTNode] = {}
    kept: dict[int, Sequence[cst.CSTNode]] = {}
    order: list[cst.CSTNode] = []
    stack = [root]
    pop, push, record, link, together = stack.pop, stack.extend, order.append, parents.update, dict.fromkeys  # (hot loop)
    read = kept_nodes  # (only the fields that can hold more than trivia: ``kept_fields``)
    while stack:
        node = pop()
        record(node)
        below = read(node)
        kept[id(node)] = below
        if below:
            link(together(below, node))
            push(reversed(below))
    _cache.root, _cache.children, _cache.preorder, _cache.where = root, kept, order, None
    return parents


def preorder(root: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """``list(walk(root))``: every node of ``root``'s tree but the ``TRIVIA``, in source order
    (parents before children); the kept list when ``root`` is the tree ``parent_map`` indexed
    last."""
    if getattr(_cache, "root", None) is root:
        return _cache.preorder  # type: ignore[no-any-return]
    return list(walk(root))


def order_index(root: cst.CSTNode) -> dict[int, int]:
    """Node id -> its position in ``preorder(root)``; made once per tree for the tree
    ``parent_map`` indexed last (shared by ``walk`` and the flow analysis)."""
    if getattr(_cache, "root", None) is not root:
        return {id(node): k for k, node in enumerate(preorder(root))}
    where = getattr(_cache, "where", None)
    if where is None:
        where = _cache.where = {id(node): k for k, node in enumerate(_cache.preorder)}
    return where  # type: ignore[no-any-return]


def release() -> None:
    """Drop the kept children of the last indexed tree (so the tree can be freed)."""
    _cache.root, _cache.children, _cache.preorder, _cache.where = None, None, None, None


def is_inside(node: cst.CSTNode, region: cst.CSTNode, parents: dict[cst.CSTNode, cst.CSTNode]) -> bool:
    """``node`` is ``region`` or lies below it."""
    current: cst.CSTNode | None = node
    while current is not None:
        if current is region:
            return True
        current = parents.get(current)
    return False


def names_in(cache: MutableMapping[object, object], function: cst.CSTNode | None, question: str, pick: Callable[[cst.CSTNode], str | None]) -> frozenset[str]:
    """The names ``pick`` finds in the nodes of ``function``, walked once per function and
    question (``cache``: the analysis's own, ``Inference.cache``)."""
    if function is None:
        return frozenset()
    found = cache.get((question, function))
    if found is None:
        found = frozenset(n for n in map(pick, walk(function)) if n is not None)
        cache[(question, function)] = found
    return found  # type: ignore[return-value]
