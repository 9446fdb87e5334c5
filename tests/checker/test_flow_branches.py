"""Which bindings reach a use across the branches of an ``if`` (``analysis.flow.Reaching``)."""

from __future__ import annotations

import textwrap

import libcst as cst

from scalarlint.analysis.fast_walk import resolve_scopes
from scalarlint.analysis.flow import Reaching
from scalarlint.analysis.tree import parent_map


def _reaching_rows(source: str, row: int) -> list[int]:
    """The rows of the bindings of ``x`` that reach the read of ``x`` on ``row``."""
    module = cst.parse_module(textwrap.dedent(source))
    parents = parent_map(module)
    scopes = resolve_scopes(module)
    wrapper = cst.MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(cst.metadata.PositionProvider)
    for node, scope in scopes.items():
        if isinstance(node, cst.Name) and node.value == "x" and positions[node].start.line == row and scope is not None:
            accesses = [a for a in scope.accesses["x"] if a.node is node]
            if accesses:
                found = Reaching(parents).reaching(node, list(accesses[0].referents))
                return sorted(positions[a.node].start.line for a in found)
    raise AssertionError(f"no read of x on row {row}")


def test_a_binding_in_the_other_branch_does_not_reach() -> None:
    source = """
    def f(a):
        x = a[0]
        if a.ndim:
            x = 1
        else:
            use(x)
    """
    assert _reaching_rows(source, 7) == [3]


def test_an_elif_is_another_branch_too() -> None:
    source = """
    def f(a):
        x = a[0]
        if a.ndim == 1:
            x = 1
        elif a.ndim == 2:
            use(x)
    """
    assert _reaching_rows(source, 7) == [3]


def test_a_loop_around_the_if_carries_the_other_branch() -> None:
    source = """
    def f(a):
        x = a[0]
        for k in range(3):
            if k == 0:
                x = 1
            else:
                use(x)
    """
    assert _reaching_rows(source, 8) == [3, 6]


def test_a_binding_in_the_test_reaches_both_branches() -> None:
    source = """
    def f(a):
        x = a[0]
        if (x := a[1]) is not None:
            pass
        else:
            use(x)
    """
    assert 4 in _reaching_rows(source, 7)
