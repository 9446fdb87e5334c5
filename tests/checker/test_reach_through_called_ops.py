"""Ops a PyTensor rule builds and calls: ``grad`` of one ``Op`` builds another (``EvalRhs(solver)(x,
t)``, or ``backward = Backward(solver)`` then ``backward(...)``) whose ``perform`` computes the
gradient when the graph runs. Such an op has no ``grad`` of its own, so it holds no rule, but
its ``perform`` runs in the backward pass: it is reached as the rule's helper, with the roles
PyTensor gives ``perform`` (``inputs`` a list of arrays). An op nobody's rule calls stays out,
and so does a class with no framework base whose instance a rule calls without a ``__call__``."""

from __future__ import annotations

from pathlib import Path

from tree_samples import check_tree  # tests/checker is on sys.path

OPS = """\
import numpy as np
from pytensor.graph.op import Op


class EvalRhs(Op):
    def __init__(self, solver):
        self.solver = solver

    def perform(self, node, inputs, outputs):
        y, tvals = inputs
        out = np.empty(len(tvals))
        for i in range(len(tvals)):
            out[i] = self.solver.rhs(y, tvals[i])
        outputs[0][0] = out


class Backward(Op):
    def perform(self, node, inputs, outputs):
        grads, tvals = inputs
        out = np.zeros(len(tvals))
        for k in range(len(tvals)):
            out[k] = grads * tvals[k]
        outputs[0][0] = out


class Unused(Op):
    def perform(self, node, inputs, outputs):
        y, tvals = inputs
        outputs[0][0] = y * tvals[len(tvals) - 1]


class Plain:
    def perform(self, node, inputs, outputs):
        y, tvals = inputs
        outputs[0][0] = y * tvals[len(tvals) - 1]


class Solve(Op):
    def perform(self, node, inputs, outputs):
        outputs[0][0] = inputs[0]

    def grad(self, inputs, g):
        y, tvals = inputs
        backward = Backward()
        Plain()(y, tvals)
        return [EvalRhs(self.solver)(y, tvals) * g[0], backward(g[0], tvals)]
"""


def _line(fragment: str) -> int:
    return next(number for number, line in enumerate(OPS.splitlines(), start=1) if fragment in line)


def test_an_op_built_and_called_in_a_grad_has_its_perform_checked(tmp_path: Path) -> None:
    found = check_tree(tmp_path, {"ops.py": OPS})
    assert ("ops.py", _line("for i in range(len(tvals)):"), "SL104") in found
    assert ("ops.py", _line("out[i] = self.solver.rhs(y, tvals[i])"), "SL102") in found


def test_an_op_kept_in_a_name_then_called_is_reached_too(tmp_path: Path) -> None:
    found = check_tree(tmp_path, {"ops.py": OPS})
    assert ("ops.py", _line("for k in range(len(tvals)):"), "SL104") in found


def test_ops_no_rule_calls_and_plain_classes_stay_out(tmp_path: Path) -> None:
    found = check_tree(tmp_path, {"ops.py": OPS})
    unused = _line("class Unused(Op):")
    plain = _line("class Plain:")
    assert not [f for f in found if unused < f[1] < plain + 4]
