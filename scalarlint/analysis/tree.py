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
from collections.abc import Iterator, Sequence

import libcst as cst

from scalarlint.analysis.fast_walk import child_nodes

_cache = threading.local()


def children(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """``node.children`` but the ``TRIVIA``, in order (read from the kept lists when ``node``
    belongs to the tree ``parent_map`` indexed last: the same list, no reading of fields)."""
    below = kept_children().get(id(node))
    return below if below is not None else _without_trivia(node)


def _without_trivia(node: cst.CSTNode) -> list[cst.CSTNode]:
    """What ``parent_map`` keeps for ``node``: its children but the ``TRIVIA``."""
    trivia = TRIVIA
    return [child for child in child_nodes(node) if type(child) not in trivia]


def kept_children() -> dict[int, Sequence[cst.CSTNode]]:
    """The kept lists of the last indexed tree, by node id (empty when none): for hot walks
    that look children up inline, falling back to ``child_nodes`` for other nodes."""
    return getattr(_cache, "children", None) or {}


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``node`` and every node below it but the ``TRIVIA``, in source order (parents before
    children); ``walk_all`` includes the trivia. The kept lists, where ``node`` has them, only
    spare reading the fields."""
    kept = kept_children()
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        below = kept.get(id(current))
        stack.extend(reversed(below if below is not None else _without_trivia(current)))


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
    later walks of the same tree (per thread): they then read the lists instead of the fields,
    and find the same nodes."""
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
    """``list(walk(root))``: every node of ``root``'s tree but the ``TRIVIA``, in source order
    (parents before children); the kept list when ``root`` is the tree ``parent_map`` indexed
    last."""
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
