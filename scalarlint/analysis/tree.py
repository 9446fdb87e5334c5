"""Small walks over libcst trees shared by the checks and the fixers.

libcst computes ``node.children`` by rebuilding the node through a visitor, so children are
read with ``fast_walk.child_nodes`` instead (the same nodes, off the fields). ``parent_map``
reads every node's children once anyway, so it keeps them: later walks of the same tree (loop
bodies, function bodies, module facts) read the kept lists. The cache holds one tree (the one
being analysed, kept alive by the cache itself so node ids stay unique).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import libcst as cst

from scalarlint.analysis.fast_walk import child_nodes

_cache = threading.local()


def children(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """``node.children``, from the kept lists (no ``TRIVIA``) when ``node`` belongs to the last
    indexed tree."""
    below = kept_children().get(id(node))
    return below if below is not None else child_nodes(node)


def kept_children() -> dict[int, Sequence[cst.CSTNode]]:
    """The kept lists of the last indexed tree, by node id (empty when none): for hot walks
    that look children up inline, falling back to ``child_nodes`` for other nodes."""
    return getattr(_cache, "children", None) or {}


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``node`` and every node below it, in source order (parents before children); in the
    last indexed tree, without the ``TRIVIA`` (``walk_all`` includes them)."""
    kept = kept_children()
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        below = kept.get(id(current))
        stack.extend(reversed(below if below is not None else child_nodes(current)))


# Whitespace, comments and punctuation: nothing the analysis reads is below them, and they are
# about half of a tree's nodes (114,000 of numpy's test_multiarray.py's 267,000 are
# ``SimpleWhitespace``), so the kept children leave them out and every later walk skips them.
TRIVIA: frozenset[type] = frozenset({
    cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.TrailingWhitespace, cst.EmptyLine, cst.Newline, cst.Comment,
    cst.Comma, cst.Dot, cst.Colon, cst.Semicolon, cst.AssignEqual, cst.LeftParen, cst.RightParen,
    cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace, cst.RightCurlyBrace,
})


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
    later walks of the same tree (per thread)."""
    parents: dict[cst.CSTNode, cst.CSTNode] = {}
    kept: dict[int, Sequence[cst.CSTNode]] = {}
    order: list[cst.CSTNode] = []
    stack = [root]
    pop, push, record, link, together = stack.pop, stack.extend, order.append, parents.update, dict.fromkeys  # (hot loop)
    trivia = TRIVIA
    while stack:
        node = pop()
        record(node)
        below = [child for child in child_nodes(node) if type(child) not in trivia]
        kept[id(node)] = below
        if below:
            link(together(below, node))
            push(reversed(below))
    _cache.root, _cache.children, _cache.preorder = root, kept, order
    return parents


def preorder(root: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """Every node of ``root``'s tree in source order (parents before children): the kept list
    when ``root`` is the tree ``parent_map`` last indexed, else a walk."""
    if getattr(_cache, "root", None) is root:
        return _cache.preorder  # type: ignore[no-any-return]
    return list(walk(root))


def release() -> None:
    """Drop the kept children of the last indexed tree (so the tree can be freed)."""
    _cache.root, _cache.children, _cache.preorder = None, None, None


def is_inside(node: cst.CSTNode, region: cst.CSTNode, parents: dict[cst.CSTNode, cst.CSTNode]) -> bool:
    """``node`` is ``region`` or lies below it."""
    current: cst.CSTNode | None = node
    while current is not None:
        if current is region:
            return True
        current = parents.get(current)
    return False
