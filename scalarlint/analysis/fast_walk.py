"""libcst's scope analysis and child lists without rebuilding the tree on every walk.

A libcst visit is built for transformers: every node visited, even by a read-only
``CSTVisitor``, has its children visited through ``_visit_and_replace_children``, which
constructs (and validates) a fresh copy of the node that is then thrown away. That rebuild was
most of the second pass's time: ``ScopeProvider`` walks the tree four times (two batched walks
and the walks of its own two visitors, expression contexts and scopes), and ``node.children``
is computed the same way.

This module keeps libcst's analysis and changes only how it walks:

- ``child_nodes``: a node's children in libcst's own order, read off its fields. The order of
  each node class is recorded once per process from libcst itself (the field names its
  ``_visit_and_replace_children`` announces through ``on_visit_attribute``), so it follows
  whatever libcst version is installed.
- ``resolve_scopes``: ``ScopeProvider``'s result for a module, computed by libcst's own
  expression-context and scope visitors, walked with ``child_nodes`` instead of rebuilding
  every node. Those visitors call ``node.visit(self)`` on parts of the tree themselves, so
  importing this module replaces ``CSTNode.visit`` process-wide with a wrapper: for exactly
  those two visitor classes (``_READ_ONLY_VISITORS``, exact types, no subclasses) it walks
  with ``_walk``; every other visitor, transformers included, runs libcst's ``visit``
  untouched.
- ``resolve_positions``: ``PositionProvider``'s result, without the extra walk
  ``MetadataWrapper`` makes.
- ``break_scope_cycles``: lets a finished analysis be freed without the cyclic collector.

It uses libcst internals (``_visit_and_replace_children``, the scope visitor, the providers'
``_computed`` tables). A libcst without them (``SUPPORTED`` false) gets libcst's own public API
for every answer here: slower, the same results.

The children, scopes and positions are checked against libcst's own results on every node of
the project's code and the corpora (``tests/checker/test_fast_walk.py``).
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import libcst as cst
from libcst.metadata import CodeRange, ExpressionContextProvider, MetadataWrapper, PositionProvider, ScopeProvider
from libcst.metadata.expression_context_provider import ExpressionContextVisitor
from libcst.metadata.scope_provider import Scope, ScopeVisitor

try:  # libcst internals this module relies on; without them it falls back to libcst's own API
    from libcst.metadata.scope_provider import _ASSIGNMENT_LIKE_NODES
except ImportError:  # pragma: no cover - another libcst
    _ASSIGNMENT_LIKE_NODES = ()

SUPPORTED = bool(
    _ASSIGNMENT_LIKE_NODES
    and hasattr(cst.CSTNode, "_visit_and_replace_children")
    and hasattr(ScopeVisitor, "infer_accesses")
    and hasattr(PositionProvider, "_gen_impl")
)

_FIELDS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}
_FIELDS_LOCK = threading.Lock()


class _FieldRecorder(cst.CSTVisitor):
    """Collects the field names one node's ``_visit_and_replace_children`` announces, in order,
    without descending into the children."""

    def __init__(self, node: cst.CSTNode) -> None:
        super().__init__()
        self.node = node
        self.fields: list[str] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        return False

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if node is self.node and attribute not in self.fields:
            self.fields.append(attribute)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        return None


def _fields_of(node: cst.CSTNode) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The child-holding fields of ``type(node)`` in visiting order, recorded from libcst, and
    the fields it may have skipped: libcst does not announce an f-string's ``format_spec`` when
    it is ``None``, so a field that is ``None`` here and was not announced may hold children
    on another node of the class (it comes last there; ``child_nodes`` checks its values)."""
    recorder = _FieldRecorder(node)
    node._visit_and_replace_children(recorder)
    maybe = tuple(
        name for name in getattr(type(node), "__dataclass_fields__", {}) if name not in recorder.fields and getattr(node, name, 0) is None
    )
    return tuple(recorder.fields), maybe


def child_nodes(node: cst.CSTNode) -> Sequence[cst.CSTNode]:
    """``node.children`` (the same nodes in the same order) without rebuilding ``node``."""
    if not SUPPORTED:
        return node.children
    reader = _READERS.get(type(node))
    if reader is None:
        reader = _reader_for(node)
    read, maybe = reader
    out: list[cst.CSTNode] = []
    for value in read(node):
        # exact type tests: ``isinstance`` against libcst's abstract classes is what a walk
        # spends most on. A child field holds a node, a sequence of nodes, None or the sentinel.
        if value is None or value is _SENTINEL:
            continue
        if type(value) is tuple or type(value) is list:
            out.extend(value)
        else:
            out.append(value)
    for name in maybe:
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            out.append(value)
        elif isinstance(value, (tuple, list)):
            out.extend(v for v in value if isinstance(v, cst.CSTNode))
    return out


_READERS: dict[type, tuple[Callable[[cst.CSTNode], tuple[Any, ...]], tuple[str, ...]]] = {}


def _reader_for(node: cst.CSTNode) -> tuple[Callable[[cst.CSTNode], tuple[Any, ...]], tuple[str, ...]]:
    """One ``attrgetter`` over the class's announced fields (their values in one C call) and
    its maybe-fields, made once per node class."""
    with _FIELDS_LOCK:
        announced, maybe = _FIELDS.setdefault(type(node), _fields_of(node))
        if len(announced) == 1:
            one = operator.attrgetter(announced[0])
            read: Callable[[cst.CSTNode], tuple[Any, ...]] = lambda n: (one(n),)  # noqa: E731
        elif announced:
            read = operator.attrgetter(*announced)
        else:
            read = lambda n: ()  # noqa: E731
        return _READERS.setdefault(type(node), (read, maybe))


_SENTINEL = cst.MaybeSentinel.DEFAULT


def _subclasses(classes: tuple[type, ...]) -> frozenset[type]:
    """``classes`` and every class derived from them: exact-type tests stand for ``isinstance``."""
    found: set[type] = set()
    todo = list(classes)
    while todo:
        cls = todo.pop()
        if cls not in found:
            found.add(cls)
            todo.extend(cls.__subclasses__())
    return frozenset(found)


class _ScopeWalk(ScopeVisitor):
    """libcst's scope visitor, walked by ``_walk_scope`` with its per-node dispatch looked up
    once per node class (the base class formats and looks up ``visit_<Class>``/``leave_<Class>``
    on every node and tests each node against fourteen abstract-class ``isinstance`` checks).
    Same callbacks, same order."""


_ASSIGNMENT_LIKE = _subclasses(_ASSIGNMENT_LIKE_NODES)
_Callbacks = tuple[Any, Any, bool]  # visit_<Class>, leave_<Class> (or None), assignment-like
_CONTEXT_CALLBACKS: dict[type, _Callbacks] = {}
_SCOPE_CALLBACKS: dict[type, _Callbacks] = {}


def _callbacks(table: dict[type, _Callbacks], visitor_class: type, node_class: type) -> _Callbacks:
    """``visitor_class``'s callbacks for ``node_class``, looked up once per node class (libcst
    formats the names and looks them up on every node)."""
    name = node_class.__name__
    found = (getattr(visitor_class, f"visit_{name}", None), getattr(visitor_class, f"leave_{name}", None), node_class in _ASSIGNMENT_LIKE)
    return table.setdefault(node_class, found)


_READ_ONLY_VISITORS: frozenset[type] = frozenset({ScopeVisitor, _ScopeWalk, ExpressionContextVisitor})
_libcst_visit = cst.CSTNode.visit


def _walk(node: cst.CSTNode, visitor: cst.CSTVisitor, kept: Mapping[int, Sequence[cst.CSTNode]]) -> None:
    """What libcst's ``visit`` does for a read-only visitor, minus the rebuilt copies. These
    visitors define no attribute callbacks that can fire (the scope visitor's ``ClassDef.bases``
    callbacks never run: it visits a class's parts itself), so none are called. ``kept``:
    children already read, by node id (others are read with ``child_nodes``)."""
    kind = type(visitor)
    if kind is ExpressionContextVisitor:
        _walk_context(node, visitor, kept)
    elif kind is _ScopeWalk:
        _walk_scope(node, visitor, kept)  # type: ignore[arg-type]
    else:  # libcst's own ScopeVisitor: its own dispatch
        if visitor.on_visit(node):
            below = kept.get(id(node))
            for child in below if below is not None else child_nodes(node):
                _walk(child, visitor, kept)
        visitor.on_leave(node)


def _walk_context(node: cst.CSTNode, visitor: cst.CSTVisitor, kept: Mapping[int, Sequence[cst.CSTNode]]) -> None:
    """``CSTVisitor``'s ``on_visit``/``on_leave`` for the expression-context visitor (which
    overrides neither), inline."""
    calls = _CONTEXT_CALLBACKS.get(type(node))
    if calls is None:
        calls = _callbacks(_CONTEXT_CALLBACKS, ExpressionContextVisitor, type(node))
    visit, leave, _ = calls
    if visit is None or visit(visitor, node) is not False:
        below = kept.get(id(node))
        for child in below if below is not None else child_nodes(node):
            _walk_context(child, visitor, kept)
    if leave is not None:
        leave(visitor, node)


def _walk_scope(node: cst.CSTNode, visitor: _ScopeWalk, kept: Mapping[int, Sequence[cst.CSTNode]]) -> None:
    """``ScopeVisitor``'s ``on_visit``/``on_leave``, inline: the node's scope recorded on
    leaving it, and the scope's count of assignment-like nodes kept."""
    calls = _SCOPE_CALLBACKS.get(type(node))
    if calls is None:
        calls = _callbacks(_SCOPE_CALLBACKS, ScopeVisitor, type(node))
    visit, leave, assignment_like = calls
    if visit is None or visit(visitor, node) is not False:
        below = kept.get(id(node))
        for child in below if below is not None else child_nodes(node):
            _walk_scope(child, visitor, kept)
    scope = visitor.scope
    visitor.provider._computed[node] = scope  # ``set_metadata``
    if assignment_like:
        scope._assignment_count += 1
    if leave is not None:
        leave(visitor, node)


_walking = threading.local()  # the kept children of the ``resolve_scopes`` running in this thread


def _visit(self: cst.CSTNode, visitor: Any) -> Any:
    if SUPPORTED and type(visitor) in _READ_ONLY_VISITORS:
        _walk(self, visitor, getattr(_walking, "kept", None) or {})
        return self
    return _libcst_visit(self, visitor)


def _install() -> None:
    """Route the two read-only scope visitors through ``_walk``, and hash nodes in C (idempotent)."""
    if SUPPORTED and cst.CSTNode.visit is not _visit:
        cst.CSTNode.visit = _visit  # type: ignore[method-assign]
    _hash_by_identity_in_c()


def _hash_by_identity_in_c() -> None:
    """libcst gives every node class a Python ``__hash__`` returning ``id(self)`` (its nodes
    are equal only by identity). The analysis keys dicts by node millions of times (parents,
    scopes, memos), and each lookup ran that Python function. ``object.__hash__`` is also an
    identity hash, computed in C: same equality, same behaviour, a different hash value. Every
    class libcst gave its hash gets ``object``'s, ``CSTNode`` included (later subclasses copy
    it from there)."""
    python_hash = _LIBCST_HASH
    if python_hash is None:  # pragma: no cover - another libcst
        return
    todo: list[type] = [cst.CSTNode]
    seen: set[type] = set()
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        todo.extend(cls.__subclasses__())
        if cls.__dict__.get("__hash__") is python_hash:
            cls.__hash__ = object.__hash__  # type: ignore[method-assign,assignment]


_LIBCST_HASH = cst.CSTNode.__dict__.get("__hash__")


_install()


def resolve_scopes(module: cst.Module, kept: Mapping[int, Sequence[cst.CSTNode]] | None = None) -> Mapping[cst.CSTNode, Scope | None]:
    """``MetadataWrapper(module).resolve(ScopeProvider)``: the same visitors on the same tree,
    run directly (no batched walks, no per-file method discovery). ``kept``: children already
    read, by node id (``tree.kept_children()`` after ``parent_map``)."""
    if not SUPPORTED:
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    previous = getattr(_walking, "kept", None)
    _walking.kept = kept
    try:
        contexts = ExpressionContextProvider()
        contexts.visit_Module(module)
        scopes = ScopeProvider()
        scopes.metadata = {ExpressionContextProvider: contexts._computed}
        visitor = _ScopeWalk(scopes)  # what ScopeProvider.visit_Module does, with the faster visitor
        module.visit(visitor)
        visitor.infer_accesses()
    finally:
        _walking.kept = previous
    return scopes._computed


def resolve_positions(module: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    """``MetadataWrapper(module).resolve(PositionProvider)``: libcst's own position pass (one
    code generation of the module), without the empty batched walk ``MetadataWrapper`` runs
    after it, which rebuilt every node for nothing and cost as much as the positions."""
    if not SUPPORTED:
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    positions = PositionProvider()
    positions._computed = {}
    positions._gen_impl(module)
    return positions._computed


def break_scope_cycles(scopes: Mapping[cst.CSTNode, Scope | None]) -> None:
    """Empty the scope graph of a finished analysis. Scopes, assignments and accesses point at
    each other (and the global scope at itself), and a function's scope holds its whole subtree:
    left alone, every analysed tree waits for the cyclic garbage collector, whose passes then
    cost a tenth of a run. Emptied, the tree is freed as soon as the analysis is dropped. The
    mapping is unusable afterwards. Best effort: a libcst whose scopes keep their tables
    elsewhere is left to the collector."""
    try:
        _empty_scopes(scopes)
    except AttributeError:  # pragma: no cover - another libcst
        pass


def _empty_scopes(scopes: Mapping[cst.CSTNode, Scope | None]) -> None:
    every: dict[int, Scope] = {}
    for scope in scopes.values():
        while scope is not None and id(scope) not in every:
            every[id(scope)] = scope
            parent = scope.parent
            scope = parent if parent is not scope else None
    for scope in every.values():
        for access in scope.accesses:
            access.referents.clear()  # type: ignore[attr-defined]
        for assignment in scope.assignments:
            assignment.references.clear()  # type: ignore[attr-defined]
        for table in (scope._assignments, scope._accesses_by_name, scope._accesses_by_node):
            table.clear()

