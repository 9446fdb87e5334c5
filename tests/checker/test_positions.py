"""``StatementPositions`` gives exactly libcst's ``PositionProvider`` positions, computed one
class member or top-level statement at a time, and falls back to the statement around it, then
to the whole module, when its shortcut cannot be trusted."""

from __future__ import annotations

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from scalarlint.analysis.positions import StatementPositions
from scalarlint.analysis.syntax_versions import parse_module
from scalarlint.analysis.tree import parent_map, release
from test_fast_walk import AWKWARD, SOURCES  # the same files the fast walk is checked on

EDGES = {
    "decorators and comments": "# header\n\n@a  # one\n# between\n@b\n\ndef f():\n    pass\n\n\n# lead\nclass C:\n    x = 1\n",
    "several statements on a line": "import os; x = 1; y = [\n  2,\n]\ndef g(): return x\nif x: y = 3\n",
    "no trailing newline": "x = 1\ny = x[0]",
    "no trailing newline after a block": "def f(a):\n    return a[0]",
    "crlf": "x = 1\r\n\r\n# c\r\ndef f(a):\r\n    return a[0]\r\n",
    "continuations and strings": 'x = 1 + \\\n    2\ns = """a\nb\n"""\nt = s[0]\n',
    "form feed": "x = 1\n\x0c\ndef f():\n    return x\n",
    "only comments": "# nothing\n\n# here\n",
    "awkward": AWKWARD,
    "class members": (
        "class C(Base):\n    '''doc'''\n    a = 1; b = 2\n\n    # about f\n    @staticmethod\n    # between\n"
        "    @other\n    def f(x):\n        return x[0]\n        # f's footer\n\n    class Inner:\n"
        "        def g(self, y):\n            return y[1]\n\n    def h(self):  # same line\n        pass\n"
        "    # the class's footer\n\nclass D: pass\n"
    ),
    "tab-indented class": "class C:\n\tdef f(self, x):\n\t\treturn x[0]\n\n\tdef g(self):\n\t\tpass\n",
    "class without a trailing newline": "class C:\n    def f(self):\n        pass\n    def g(self, x):\n        return x[0]",
}


def _libcst_positions(module: cst.Module) -> dict[cst.CSTNode, object]:
    return dict(MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider))


def _checked(text: str) -> bool:
    """Ask for the position of every node inside the module's statements (visiting the
    statements backwards, so each is positioned on its own), then of every other node, and
    compare each with libcst's. True when the statements alone never needed the whole module."""
    module = parse_module(text)
    try:
        parents = parent_map(module)
        positions = StatementPositions(module, parents, text)
        reference = _libcst_positions(module)
        inside = [node for node in reference if _top(node, parents, module) is not None]
        outside = [node for node in reference if _top(node, parents, module) is None]
        for node in reversed(inside):
            assert node in positions
            assert positions[node] == reference[node], type(node).__name__
        per_statement = not positions._whole
        for node in outside:
            assert positions[node] == reference[node], type(node).__name__
        return per_statement
    finally:
        release()


def _top(node: cst.CSTNode, parents: dict[cst.CSTNode, cst.CSTNode], module: cst.Module) -> cst.CSTNode | None:
    while parents.get(node) is not None and parents[node] is not module:
        node = parents[node]
    return node if parents.get(node) is module and isinstance(node, cst.BaseStatement) else None


@pytest.mark.parametrize("name", sorted(EDGES))
def test_positions_are_libcsts_on_awkward_layouts(name: str) -> None:
    assert _checked(EDGES[name]), "the per-statement path should have answered"


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_positions_are_libcsts_on_the_projects_code(name: str, text: str) -> None:
    assert _checked(text), "the per-statement path should have answered"


def test_a_statement_whose_code_is_not_at_its_row_falls_back_to_the_whole_module() -> None:
    text = "x = 1\ny = x[0]\n"
    module = parse_module(text)
    try:
        positions = StatementPositions(module, parent_map(module), text)
        positions._rows = {id(s): 1 for s in module.body}  # a wrong row for the second statement
        last = module.body[-1]
        assert positions[last] == _libcst_positions(module)[last]
        assert positions._whole
    finally:
        release()


def test_a_class_member_is_positioned_without_the_rest_of_its_class() -> None:
    text = "class C:\n    def f(self, x):\n        return x[0]\n\n    def g(self, y):\n        return y[1]\n"
    module = parse_module(text)
    try:
        positions = StatementPositions(module, parent_map(module), text)
        cls = module.body[0]
        f, g = cls.body.body  # type: ignore[attr-defined]
        reference = _libcst_positions(module)
        assert positions[g] == reference[g]
        assert f not in positions._computed and cls not in positions._computed
        assert positions[f] == reference[f]
        assert not positions._whole
    finally:
        release()


def test_nodes_of_another_tree_are_not_in_the_positions() -> None:
    text = "x = 1\n"
    module = parse_module(text)
    try:
        positions = StatementPositions(module, parent_map(module), text)
        assert cst.Name("x") not in positions
    finally:
        release()
