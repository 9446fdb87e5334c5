"""``fast_walk`` must give exactly libcst's answers: the same children in the same order, the
same expression contexts as ``ExpressionContextProvider``, and the same scopes, assignments,
accesses and referents as ``ScopeProvider`` run by libcst's own (rebuilding) visit. Checked on
every node of the project's own code, the corpora and a file of awkward syntax. (That libcst
itself is left as installed: ``test_no_libcst_patches.py``.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import libcst as cst
import pytest
from libcst.metadata import BuiltinAssignment, ExpressionContextProvider, MetadataWrapper, PositionProvider, ScopeProvider

from scalarlint.analysis import fast_walk
from scalarlint.analysis.syntax_versions import parse_module
from scalarlint.analysis.kept_fields import TRIVIA
from scalarlint.analysis.tree import kept_children, parent_map, release

ROOT = Path(__file__).resolve().parents[2]

AWKWARD = '''
import os.path as osp, numpy as np
from . import sibling
from .pkg import (a as b, c)
from typing import *
x: "np.ndarray" = np.zeros(3)
y = f"{x!r:>{width}.{prec}f} {x=} {x:{'w'}} {{}}" f'{x}' "plain"
z = [i for i in range(3) if i for j in range(i)]
w = {k: v for k, v in zip("ab", "cd")}
g = (lambda q, *r, s=1, **t: q + s)(1)
def outer(a, /, b, *, c: "int" = 0) -> "list[int]":
    n = 0
    def inner():
        nonlocal n
        global x
        n += 1
        return n
    class Local(sibling.Base, metaclass=type):
        attr: int = 1
        def method(self) -> None:
            print(__class__, attr if False else None)
    match a:
        case [1, *rest] if rest:
            pass
        case {"k": v, **kw}:
            pass
        case Local(attr=3) | None:
            pass
        case _:
            pass
    try:
        pass
    except* ValueError as e:
        del e
    with open(osp.join("a", "b")) as (fh):
        if (m := len(fh.read())) > 2:
            return [m]
    async def co():
        async with ctx() as k:
            async for item in k:
                await item
    return [a, b, c, inner()]
type Alias[T: int = str] = list[T]
def generic[U, *Ts, **P](u: U) -> U:
    return u
class Box[V]:
    def get(self) -> V: ...
'''


def _sources() -> list[tuple[str, str]]:
    folders = ["scalarlint", "fixers", "rules", "examples", "tests/corpus", "tests/chainrules_corpus"]
    out = [("awkward", AWKWARD)]
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            out.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    return out


SOURCES = _sources()


def _all_nodes(module: cst.Module) -> list[cst.CSTNode]:
    out, stack = [], [module]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_child_nodes_are_libcsts_children(name: str, text: str) -> None:
    module = parse_module(text)
    for node in _all_nodes(module):
        mine, theirs = fast_walk.child_nodes(node), node.children
        assert len(mine) == len(theirs) and all(a is b for a, b in zip(mine, theirs)), type(node).__name__


def _canonical(module: cst.Module, scopes: Mapping[cst.CSTNode, Any]) -> tuple[object, ...]:
    """The scope metadata as plain data: node numbers instead of objects."""
    number = {id(node): n for n, node in enumerate(_all_nodes(module))}
    scope_number: dict[int, int] = {}

    def node_id(node: object) -> str:
        """Its number in the tree; a node the scope visitor parsed itself (a string annotation)
        by its code."""
        found = number.get(id(node))
        if found is not None:
            return str(found)
        return "parsed:" + cst.Module([]).code_for_node(node) if isinstance(node, cst.CSTNode) else repr(node)

    def scope_id(scope: Any) -> object:
        if scope is None:
            return None
        return scope_number.setdefault(id(scope), len(scope_number))

    in_order = sorted(scopes.items(), key=lambda item: (number.get(id(item[0]), len(number)), node_id(item[0])))
    per_node = [(node_id(node), scope_id(scope)) for node, scope in in_order]
    every_scope = {id(s): s for s in scopes.values() if s is not None}
    details = []
    for scope in sorted(every_scope.values(), key=lambda s: scope_id(s)):  # type: ignore[arg-type, return-value]
        assignments = sorted((a.name, node_id(a.node), type(a).__name__) for a in scope.assignments)
        accesses = sorted((node_id(a.node), tuple(sorted(_referent(r, node_id) for r in a.referents))) for a in scope.accesses)
        details.append((scope_id(scope), type(scope).__name__, node_id(getattr(scope, "node", None)), scope_id(scope.parent), assignments, accesses))
    return tuple(per_node), tuple(details)


def _referent(assignment: Any, node_id: Any) -> str:
    if isinstance(assignment, BuiltinAssignment):
        return "builtin:" + assignment.name
    return str(node_id(assignment.node))


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_resolve_scopes_is_libcsts_scope_provider(name: str, text: str) -> None:
    module = parse_module(text)
    fast = fast_walk.resolve_scopes(module)
    reference = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)  # libcst's own rebuilding visit
    assert _canonical(module, fast) == _canonical(module, reference)


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_expression_contexts_are_libcsts_provider(name: str, text: str) -> None:
    """The same nodes with the same contexts, in the same order, with and without kept children."""
    module = parse_module(text)
    reference = list(MetadataWrapper(module, unsafe_skip_copy=True).resolve(ExpressionContextProvider).items())
    assert list(fast_walk.expression_contexts(module).items()) == reference
    try:
        parent_map(module)
        assert list(fast_walk.expression_contexts(module, kept_children()).items()) == reference
    finally:
        release()


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_resolve_positions_is_libcsts_position_provider(name: str, text: str) -> None:
    module = parse_module(text)
    fast = fast_walk.resolve_positions(module)
    reference = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert len(fast) == len(reference)
    assert all(fast[node] == span for node, span in reference.items())


@pytest.mark.parametrize("name,text", [("awkward", AWKWARD), *[(n, t) for n, t in SOURCES if len(t) > 4000][:20]], ids=lambda v: v if isinstance(v, str) and len(v) < 80 else "")
def test_resolve_scopes_with_kept_children_is_the_same_but_for_the_trivia(name: str, text: str) -> None:
    """The kept children leave whitespace, comments and punctuation out: their nodes get no
    scope, and every other node, assignment and access is as in the full walk."""
    module = parse_module(text)
    try:
        parent_map(module)
        kept = fast_walk.resolve_scopes(module, kept_children())
    finally:
        release()
    full = fast_walk.resolve_scopes(module)
    trivia = {id(node) for node in _all_nodes(module) if type(node) in TRIVIA}  # (string annotations, parsed by the visitor, have their own)
    assert trivia and not any(id(node) in trivia for node in kept)
    assert _canonical(module, kept) == _canonical(module, {n: s for n, s in full.items() if id(n) not in trivia})


def test_other_visitors_still_rebuild_and_transform() -> None:
    """Only the project's own scope walk takes the short path: a transformer still replaces
    nodes, and a plain visitor hears every field announced."""

    class Rename(cst.CSTTransformer):
        def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
            return updated_node.with_changes(value="renamed") if original_node.value == "x" else updated_node

    class Count(cst.CSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.attributes = 0

        def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
            self.attributes += 1

    module = parse_module("x = x + 1\n")
    assert module.visit(Rename()).code == "renamed = renamed + 1\n"
    counter = Count()
    module.visit(counter)
    assert counter.attributes > 0  # libcst's own visit announces every field


def test_fields_are_recorded_from_libcst_once_per_class() -> None:
    module = parse_module('v = f"{a:{b}}" + f"{c!r}"\n')
    formatted = [n for n in _all_nodes(module) if isinstance(n, cst.FormattedStringExpression)]
    assert len(formatted) == 3  # a with a nested spec, b inside it, c with a conversion
    for node in formatted:
        assert [id(c) for c in fast_walk.child_nodes(node)] == [id(c) for c in node.children]
    announced, maybe = fast_walk._FIELDS[cst.FormattedStringExpression]
    assert "expression" in announced and "conversion" not in announced


def test_without_libcst_internals_the_answers_come_from_libcsts_own_api(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another libcst (``SUPPORTED`` false): the same children, scopes and positions, from the
    public API."""
    module = parse_module(AWKWARD)
    fast_scopes = _canonical(module, fast_walk.resolve_scopes(module))
    fast_positions = dict(fast_walk.resolve_positions(module))
    monkeypatch.setattr(fast_walk, "SUPPORTED", False)
    assert _canonical(module, fast_walk.resolve_scopes(module)) == fast_scopes
    assert dict(fast_walk.resolve_positions(module)) == fast_positions
    for node in _all_nodes(module):
        assert list(fast_walk.child_nodes(node)) == list(node.children)


def test_resolving_scopes_builds_no_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """The speed the walk is for: no part of the tree is rebuilt, neither by the walk nor by the
    parts the scope visitor visits itself (``node.visit(self)``: class bases, decorators,
    comprehensions, call arguments, ...). Counted, in this test only, at node construction."""
    text = AWKWARD.replace('"np.ndarray"', "np.ndarray").replace('"int"', "int").replace('"list[int]"', "list[int]")
    module = parse_module(text)
    built: list[str] = []
    original = cst.CSTNode.__post_init__
    monkeypatch.setattr(cst.CSTNode, "__post_init__", lambda node: (built.append(type(node).__name__), original(node))[1])
    scopes = fast_walk.resolve_scopes(module)
    assert built == [] and len(scopes) > 100
    MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    assert built  # libcst's own walk does rebuild (the count works)
