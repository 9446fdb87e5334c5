"""A fix that needs an array is offered only for an array by evidence, whatever the scope.

Under ``--scope all`` the checks take an unannotated parameter (and an attribute set from one)
for an array; chainer's ``graph_optimizations/static_graph.py`` fills a Python list of
variables element by element, and ``--fix --unsafe-fixes`` made that ``self.in_vars[:] = None``
(``TypeError``; 37 of chainer's tests failed). Each fixer kind that writes whole-array code is
checked here on such a list, with an array made by ``np.zeros`` next to it as the control that
is still fixed.
"""

from __future__ import annotations

import dataclasses

import pytest

from scalarlint.config import Config

ALL = dataclasses.replace(Config(), scope="all")

GRAPH = """\
import numpy as np


class Graph:
    def __init__(self, in_vars, weights, items):
        self.in_vars = in_vars
        self.weights = weights
        self.items = items
        self.grads = np.zeros(len(in_vars))

    def clear(self):
        for n in range(len(self.in_vars)):
            self.in_vars[n] = None

    def reset(self):
        for n in range(len(self.grads)):
            self.grads[n] = 0.0

    def total(self):
        return sum(self.items)

    def last_big(self, y):
        idx = -1
        for i in range(len(self.weights)):
            if self.weights[i] > y:
                idx = i
        return idx
"""


def _run(text: str) -> dict:
    namespace: dict = {}
    exec(compile(text, "graph", "exec"), namespace)
    return namespace


def test_lists_of_objects_are_not_rewritten_as_arrays(snip) -> None:
    outcome = snip.fixed(GRAPH, unsafe=True, config=ALL)
    assert outcome.error is None
    text = outcome.text
    assert "self.in_vars[:]" not in text and "self.in_vars[n] = None" in text  # element loop
    assert "return sum(self.items)" in text  # builtin reduction of a list
    assert "for i in range(len(self.weights)):" in text  # search over a list
    # the control: an array made by np.zeros is still vectorized
    assert "self.grads[:] = 0.0" in text and "self.grads[n] = 0.0" not in text


def test_the_fixed_code_still_runs_on_lists() -> None:
    from scalarlint.analysis.sources import SourceFile
    from scalarlint.fixers.engine import fix_source

    fixed = fix_source(SourceFile("graph.py", GRAPH, "utf-8", GRAPH.encode()), ALL, True).text
    graph = _run(fixed)["Graph"]([object(), object()], [1.0, 3.0, 2.0], [1, 2])
    graph.clear()
    assert graph.in_vars == [None, None]
    assert graph.total() == 3
    assert graph.last_big(1.5) == 2 and graph.last_big(5.0) == -1


@pytest.mark.parametrize("scope", ["rules", "all"])
def test_no_array_fix_for_a_guessed_array_in_a_rule(snip, scope: str) -> None:
    """Inside an AD rule too: a helper's parameter that only holds objects stays a list."""
    text = """\
    import numpy as np
    from chainer import function_node


    class Clear(function_node.FunctionNode):
        def __init__(self, slots):
            self.slots = slots

        def backward(self, indexes, grad_outputs):
            for k in range(len(self.slots)):
                self.slots[k] = None
            return grad_outputs
    """
    config = dataclasses.replace(Config(), scope=scope)
    outcome = snip.fixed(text, unsafe=True, config=config)
    assert "self.slots[:]" not in outcome.text
    assert "self.slots[k] = None" in outcome.text
