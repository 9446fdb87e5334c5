"""libcst's scope analysis and child lists without rebuilding the tree on every walk, and
without changing libcst itself.

A libcst visit is built for transformers: every node visited, even by a read-only
``CSTVisitor``, has its children visited through ``_visit_and_replace_children``, which
constructs (and validates) a fresh copy of the node that is then thrown away. That rebuild was
most of the second pass's time: ``ScopeProvider`` walks the tree with two visitors (expression
contexts, then scopes), and ``node.children`` is computed the same way.

This module keeps libcst's analysis and changes only how the project walks, through its own
entry points (nothing here assigns to a libcst class or module: other code in the process,
fixers' transformers included, sees libcst exactly as installed):

- ``child_nodes``: a node's children in libcst's own order, read off its fields. The order of
  each node class is recorded once per process from libcst itself (the field names its
  ``_visit_and_replace_children`` announces through ``on_visit_attribute``), so it follows
  whatever libcst version is installed.
- ``expression_contexts``: ``ExpressionContextProvider``'s result, from a plain walk with a
  table of the nodes that give their fields another context (that visitor builds a new visitor
  for every assignment target, attribute and subscript, so it cannot be walked faster from
  outside without replacing it).
- ``resolve_scopes``: ``ScopeProvider``'s result, computed by libcst's own scope visitor. That
  visitor calls ``node.visit(self)`` on parts of the tree itself; its subclass here answers
  libcst's ``on_visit`` by walking the part with ``child_nodes`` and returning ``False``, so
  libcst never rebuilds anything below (the callbacks run in libcst's order all the same).
- ``resolve_positions``: ``PositionProvider``'s result, without the extra walk
  ``MetadataWrapper`` makes.
- ``break_scope_cycles``: lets a finished analysis be freed without the cyclic collector.

It uses libcst internals (``_visit_and_replace_children``, the scope visitor, the providers'
``_computed`` tables). A libcst without them (``SUPPORTED`` false) gets libcst's own public API
for every answer here: slower, the same results.

The children, contexts, scopes and positions are checked against libcst's own results on every
node of the project's code and the corpora (``tests/checker/test_fast_walk.py``).
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import libcst as cst
from libcst.metadata import CodeRange, ExpressionContext, ExpressionContextProvider, MetadataWrapper, PositionProvider, ScopeProvider
from libcst.metadata.scope_provider import Scope, ScopeVisitor

from scalarlint.analysis.node_types import kinds

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


def child_fields(node: cst.CSTNode) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``_fields_of(node)``, recorded once per node class: the fields ``child_nodes`` reads, in
    libcst's order, and the maybe-fields it checks after them."""
    found = _FIELDS.get(type(node))
    if found is None:
        with _FIELDS_LOCK:
            found = _FIELDS.setdefault(type(node), _fields_of(node))
    return found


_READERS: dict[type, tuple[Callable[[cst.CSTNode], tuple[Any, ...]], tuple[str, ...]]] = {}


def _reader_for(node: cst.CSTNode) -> tuple[Callable[[cst.CSTNode], tuple[Any, ...]], tuple[str, ...]]:
    """One ``attrgetter`` over the class's announced fields (their values in one C call) and
    its maybe-fields, made once per node class."""
    announced, maybe = child_fields(node)
    return _READERS.setdefault(type(node), (fields_getter(announced), maybe))


def fields_getter(names: Sequence[str]) -> Callable[[cst.CSTNode], tuple[Any, ...]]:
    """The values of fields ``names`` of a node, as a tuple, in one C call."""
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda n: (one(n),)
    if names:
        return operator.attrgetter(*names)
    return lambda n: ()


_SENTINEL = cst.MaybeSentinel.DEFAULT


_LOAD, _STORE, _DEL = ExpressionContext.LOAD, ExpressionContext.STORE, ExpressionContext.DEL

# The node classes ``ExpressionContextProvider`` gives a context (its documented set).
_GIVEN_A_CONTEXT: frozenset[type] = frozenset({cst.Name, cst.Attribute, cst.Subscript, cst.Tuple, cst.List, cst.StarredElement})

# The node classes whose fields that provider visits selectively: the fields it visits, in its
# order, each with the context it gives them (None: the node's own). Fields left out are not
# visited: their names get no context (an attribute's ``attr``, a definition's type
# parameters) or they hold no name at all (whitespace, operators). Every other class passes its
# own context to all its children.
_FIELD_CONTEXTS: dict[type, tuple[tuple[str, ExpressionContext | None], ...]] = {
    cst.Name: (),
    cst.Attribute: (("value", _LOAD),),
    cst.Subscript: (("value", _LOAD), ("slice", _LOAD)),
    cst.Assign: (("targets", _STORE), ("value", None)),
    cst.AnnAssign: (("target", _STORE), ("annotation", None), ("value", None)),
    cst.AugAssign: (("target", _STORE), ("value", None)),
    cst.NamedExpr: (("target", _STORE), ("value", None)),
    cst.AsName: (("name", _STORE),),
    cst.CompFor: (("target", _STORE), ("iter", None), ("ifs", None), ("inner_for_in", None)),
    cst.For: (("target", _STORE), ("iter", None), ("body", None), ("orelse", None)),
    cst.Del: (("target", _DEL),),
    cst.ClassDef: (("name", _STORE), ("body", None), ("bases", None), ("keywords", None), ("decorators", None)),
    cst.FunctionDef: (("name", _STORE), ("params", None), ("body", None), ("decorators", None), ("returns", None)),
    cst.Param: (("name", _STORE), ("annotation", None), ("default", None)),
}


def expression_contexts(module: cst.Module, kept: Mapping[int, Sequence[cst.CSTNode]] | None = None) -> dict[cst.CSTNode, ExpressionContext]:
    """``ExpressionContextProvider``'s result for ``module`` (the same nodes, in the same order),
    from one walk: libcst's visitor builds a new visitor for each target, attribute and
    subscript, whose walks rebuild every node below them. ``kept``: children already read,
    by node id (others are read with ``child_nodes``)."""
    found: dict[cst.CSTNode, ExpressionContext] = {}
    _walk_contexts(module, _LOAD, found, kept or {})
    return found


def _walk_contexts(node: cst.CSTNode, context: ExpressionContext, found: dict[cst.CSTNode, ExpressionContext], kept: Mapping[int, Sequence[cst.CSTNode]]) -> None:
    """``node``'s context and those below it, into ``found`` (in preorder, as libcst's)."""
    kind = type(node)
    if kind in _GIVEN_A_CONTEXT:
        found[node] = context
    fields = _FIELD_CONTEXTS.get(kind)
    if fields is None:
        below = kept.get(id(node))
        for child in below if below is not None else child_nodes(node):
            _walk_contexts(child, context, found, kept)
        return
    for name, given in fields:
        value = getattr(node, name)
        if given is None:
            given = context
        if type(value) is tuple or type(value) is list:
            for item in value:
                _walk_contexts(item, given, found, kept)
        elif value is not None and value is not _SENTINEL:
            _walk_contexts(value, given, found, kept)


_ASSIGNMENT_LIKE = kinds(*_ASSIGNMENT_LIKE_NODES)
_Callbacks = tuple[Any, Any, bool]  # visit_<Class>, leave_<Class> (or None), assignment-like
_SCOPE_CALLBACKS: dict[type, _Callbacks] = {}


def _callbacks(node_class: type) -> _Callbacks:
    """``ScopeVisitor``'s callbacks for ``node_class``, looked up once per node class (libcst
    formats the names and looks them up on every node, and tests every node against fourteen
    abstract classes)."""
    name = node_class.__name__
    found = (getattr(ScopeVisitor, f"visit_{name}", None), getattr(ScopeVisitor, f"leave_{name}", None), node_class in _ASSIGNMENT_LIKE)
    return _SCOPE_CALLBACKS.setdefault(node_class, found)


class _ScopeWalk(ScopeVisitor):
    """libcst's scope visitor, walked by ``_walk_scope`` (same callbacks, same order). Its own
    callbacks visit parts of the tree with ``node.visit(self)``: libcst's ``visit`` asks
    ``on_visit`` whether to visit the children, and this one walks them itself and says no,
    so libcst goes straight on to ``on_leave`` without rebuilding the part. Defines no
    ``visit_``/``leave_`` callbacks of its own (``_callbacks`` reads ``ScopeVisitor``'s)."""

    def __init__(self, provider: ScopeProvider, kept: Mapping[int, Sequence[cst.CSTNode]]) -> None:
        super().__init__(provider)
        self.kept = kept

    def on_visit(self, node: cst.CSTNode) -> bool:
        """A part the scope visitor visits itself: its callback, then its subtree walked here;
        False, so that libcst's ``visit`` rebuilds nothing (it calls ``on_leave`` next)."""
        visit = (_SCOPE_CALLBACKS.get(type(node)) or _callbacks(type(node)))[0]
        if visit is None or visit(self, node) is not False:
            kept = self.kept
            below = kept.get(id(node))
            for child in below if below is not None else child_nodes(node):
                _walk_scope(child, self, kept)
        return False

    def on_leave(self, original_node: cst.CSTNode) -> None:
        """``ScopeVisitor.on_leave`` with the callbacks looked up once per node class."""
        _, leave, assignment_like = _SCOPE_CALLBACKS.get(type(original_node)) or _callbacks(type(original_node))
        scope = self.scope
        self.provider._computed[original_node] = scope  # ``set_metadata``
        if assignment_like:
            scope._assignment_count += 1
        if leave is not None:
            leave(self, original_node)


def _walk_scope(node: cst.CSTNode, visitor: _ScopeWalk, kept: Mapping[int, Sequence[cst.CSTNode]]) -> None:
    """``visitor.on_visit`` and ``on_leave`` around ``node``'s subtree, inline (the hot path:
    one table lookup per node, no method calls but the callbacks)."""
    calls = _SCOPE_CALLBACKS.get(type(node))
    if calls is None:
        calls = _callbacks(type(node))
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


def resolve_scopes(module: cst.Module, kept: Mapping[int, Sequence[cst.CSTNode]] | None = None) -> Mapping[cst.CSTNode, Scope | None]:
    """``MetadataWrapper(module).resolve(ScopeProvider)``: the same visitor on the same tree,
    run directly (no batched walks, no per-file method discovery). ``kept``: children already
    read, by node id (``tree.kept_children()`` after ``parent_map``)."""
    if not SUPPORTED:
        return MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    below_of = kept or {}
    scopes = ScopeProvider()
    scopes.metadata = {ExpressionContextProvider: expression_contexts(module, below_of)}
    visitor = _ScopeWalk(scopes, below_of)  # what ScopeProvider.visit_Module does, walked here
    _walk_scope(module, visitor, below_of)
    visitor.infer_accesses()
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

