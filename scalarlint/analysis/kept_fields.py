"""A node's children but the trivia, read off only the fields that can hold anything else.

``tree.parent_map`` keeps every node's children but the ``TRIVIA`` (whitespace, comments,
punctuation). Most fields of a libcst node class can hold nothing but trivia (``lpar``,
``rpar``, ``whitespace_before``, ``comma``: 504 of the 1,248 fields of libcst 1.9's classes,
by their annotations), and reading each of them on every node only to drop what it held was
most of ``parent_map``'s time. ``kept_nodes`` reads the other fields, in libcst's order
(``fast_walk.child_fields``), and still drops any trivia found in them: the same list as
``child_nodes`` filtered, for any tree libcst's parser builds (its nodes hold what their
annotations say). A field whose annotation names something unknown is read all the same.
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any

import libcst as cst

from scalarlint.analysis.fast_walk import SUPPORTED, child_fields, fields_getter
from scalarlint.analysis.node_types import kinds

# Whitespace, comments and punctuation: nothing the analysis reads is below them, and they are
# about half of a tree's nodes (114,000 of numpy's test_multiarray.py's 267,000 are
# ``SimpleWhitespace``), so the kept children leave them out and every later walk skips them.
TRIVIA: frozenset[type] = frozenset({
    cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.TrailingWhitespace, cst.EmptyLine, cst.Newline, cst.Comment,
    cst.Comma, cst.Dot, cst.Colon, cst.Semicolon, cst.AssignEqual, cst.LeftParen, cst.RightParen,
    cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace, cst.RightCurlyBrace,
})

_SENTINEL = cst.MaybeSentinel.DEFAULT
_Reader = tuple[Callable[[cst.CSTNode], tuple[Any, ...]], tuple[str, ...]]
_KEPT: dict[type, _Reader] = {}
_LOCK = threading.Lock()
_NO_NODES = (str, int, float, bool, type(None), cst.MaybeSentinel)  # field values that are never nodes


def kept_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    """``[c for c in child_nodes(node) if type(c) not in TRIVIA]``, reading only the fields
    whose annotation allows a node that is not trivia."""
    reader = _KEPT.get(type(node))
    if reader is None:
        if not SUPPORTED:
            return [child for child in node.children if type(child) not in TRIVIA]
        reader = _reader_for(node)
    read, maybe = reader
    trivia = TRIVIA
    out: list[cst.CSTNode] = []
    for value in read(node):
        if value is None or value is _SENTINEL:
            continue
        if type(value) is tuple or type(value) is list:
            out.extend([item for item in value if type(item) not in trivia])
        elif type(value) not in trivia:
            out.append(value)
    for name in maybe:  # (as ``child_nodes`` reads them)
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            if type(value) not in trivia:
                out.append(value)
        elif isinstance(value, (tuple, list)):
            out.extend(v for v in value if isinstance(v, cst.CSTNode) and type(v) not in trivia)
    return out


def _reader_for(node: cst.CSTNode) -> _Reader:
    """The getter of the class's announced fields that may hold more than trivia, and its
    maybe-fields; made once per node class."""
    announced, maybe = child_fields(node)
    with _LOCK:
        only_trivia = trivia_fields(type(node))
        kept = tuple(name for name in announced if name not in only_trivia)
        return _KEPT.setdefault(type(node), (fields_getter(kept), maybe))


def trivia_fields(node_class: type) -> frozenset[str]:
    """The fields of ``node_class`` whose annotation allows only ``TRIVIA`` nodes (or nothing
    but them and values that are no node: ``None``, ``MaybeSentinel``)."""
    if not is_dataclass(node_class):
        return frozenset()
    try:
        hints = typing.get_type_hints(node_class)
    except Exception:  # an annotation that cannot be resolved: read every field
        return frozenset()
    found = set()
    for field in fields(node_class):
        allowed = _node_classes(hints.get(field.name))
        if allowed and allowed <= TRIVIA:
            found.add(field.name)
    return frozenset(found)


def _node_classes(annotation: object) -> frozenset[type] | None:
    """The node classes a field annotation allows (empty: no node at all); None when the
    annotation is not understood (then the field counts as holding anything)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return frozenset()
    if origin is not None:  # Union, Optional, Sequence[...], tuple[...]
        found: set[type] = set()
        for part in typing.get_args(annotation):
            if part is Ellipsis:
                continue
            allowed = _node_classes(part)
            if allowed is None:
                return None
            found |= allowed
        return frozenset(found)
    if isinstance(annotation, type) and issubclass(annotation, cst.CSTNode):
        return kinds(annotation)
    if annotation in _NO_NODES:
        return frozenset()
    return None
