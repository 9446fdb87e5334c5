"""Shared inputs for the rule tests: random cases and hard cases, per rule.

Loaded by path from the test modules (see ``load_cases`` there), so it works
under any pytest import mode. Every case builds fresh float64 NumPy inputs from
a fixed seed; the test modules convert them to other backends as needed.

``fd`` says whether central finite differences are valid at the case's input:
hard cases at kinks (ties of ``max``, ``|x|`` at 0, a clip bound) are not
differentiable there, so those are checked against their documented convention
in ``test_rules_conventions.py`` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scalarlint.rules import RULES


@dataclass(frozen=True)
class Case:
    """One call of one rule: ``RULES[rule](*make_args(), **kwargs)``."""

    rule: str
    name: str
    make_args: Callable[[], tuple[Any, ...]]
    kwargs: dict[str, Any] = field(default_factory=dict)
    fd: bool = True
    # picks the differentiable part of the output (findmax returns (value, index))
    output: Callable[[Any], Any] = field(default=lambda y: y)

    @property
    def id(self) -> str:
        return f"{self.rule}-{self.name}"


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def _normal(*shape: int, seed: int = 0) -> np.ndarray:
    return rng(seed).standard_normal(shape)


def _away_from_zero(*shape: int, seed: int = 0) -> np.ndarray:
    """Values with |v| in [0.5, 1.5] and random signs: well-conditioned products."""
    g = rng(seed)
    return g.uniform(0.5, 1.5, shape) * g.choice([-1.0, 1.0], shape)


def _spd(n: int, seed: int = 0) -> np.ndarray:
    m = _normal(n, n, seed=seed)
    return m @ m.T + n * np.eye(n)


def _rank_deficient(n: int, rank: int, seed: int = 0) -> np.ndarray:
    return _normal(n, rank, seed=seed) @ _normal(rank, n, seed=seed + 1)


def _value(y: Any) -> Any:
    return y[0]


RANDOM_CASES: list[Case] = [
    Case("sum", "vector", lambda: (_normal(7),)),
    Case("sum", "axis1", lambda: (_normal(3, 4),), {"axis": 1}),
    Case("sum", "axes-tuple", lambda: (_normal(2, 3, 4),), {"axis": (0, 2)}),
    Case("mean", "vector", lambda: (_normal(7),)),
    Case("mean", "axis0", lambda: (_normal(3, 4),), {"axis": 0}),
    Case("prod", "vector", lambda: (_away_from_zero(6),)),
    Case("prod", "axis1", lambda: (_away_from_zero(3, 5),), {"axis": 1}),
    Case("prod", "axes-tuple", lambda: (_away_from_zero(2, 3, 2),), {"axis": (0, 2)}),
    Case("cumsum", "vector", lambda: (_normal(6),)),
    Case("cumsum", "axis1", lambda: (_normal(3, 4),), {"axis": 1}),
    Case("cumsum", "flat", lambda: (_normal(2, 3),), {"axis": None}),
    Case("cumprod", "vector", lambda: (_away_from_zero(6),)),
    Case("cumprod", "axis1", lambda: (_away_from_zero(3, 4),), {"axis": 1}),
    Case("maximum", "vector", lambda: (_normal(8),)),
    Case("maximum", "axis0", lambda: (_normal(4, 3),), {"axis": 0}),
    Case("maximum", "axes-tuple", lambda: (_normal(2, 3, 4),), {"axis": (0, 2)}),
    Case("minimum", "vector", lambda: (_normal(8),)),
    Case("minimum", "axis1", lambda: (_normal(4, 3),), {"axis": 1}),
    Case("findmax", "vector", lambda: (_normal(8),), output=_value),
    Case("findmax", "axis1", lambda: (_normal(3, 5),), {"axis": 1}, output=_value),
    Case("findmin", "matrix-flat", lambda: (_normal(3, 4),), output=_value),
    Case("norm", "p2", lambda: (_normal(7),)),
    Case("norm", "p2-matrix", lambda: (_normal(3, 3), 2)),
    Case("norm", "p1", lambda: (_normal(7), 1)),
    Case("norm", "pinf", lambda: (_normal(7), np.inf)),
    Case("norm", "pneginf", lambda: (_normal(7), -np.inf)),
    Case("norm", "p0", lambda: (_normal(7), 0)),
    Case("norm", "p3", lambda: (_normal(7), 3)),
    Case("norm", "p0.5", lambda: (_normal(7), 0.5)),
    Case("norm", "p-1.5", lambda: (_normal(7), -1.5)),
    Case("normalize", "vector", lambda: (_normal(5),)),
    Case("getindex", "vector", lambda: (_normal(6), np.array([4, 0, 2]))),
    Case("getindex", "rows", lambda: (_normal(5, 3), np.array([1, 3]))),
    Case("getindex", "tuple-2d", lambda: (_normal(4, 5), (np.array([0, 3, 1]), np.array([4, 4, 0])))),
    Case("take", "axis0", lambda: (_normal(5, 3), np.array([2, 0])), {"axis": 0}),
    Case("take", "axis1", lambda: (_normal(3, 5), np.array([4, 1, 2])), {"axis": 1}),
    Case("take", "flat", lambda: (_normal(3, 4), np.array([11, 0, 5]))),
    Case("sort", "vector", lambda: (_normal(7),)),
    Case("sort", "axis0", lambda: (_normal(4, 3),), {"axis": 0}),
    Case("logsumexp", "vector", lambda: (_normal(6),)),
    Case("logsumexp", "axis1", lambda: (_normal(3, 4),), {"axis": 1}),
    Case("logsumexp", "large", lambda: (_normal(5) + 800.0,)),
    Case("softmax", "vector", lambda: (_normal(6),)),
    Case("softmax", "axis0", lambda: (_normal(3, 4),), {"axis": 0}),
    Case("trace", "square", lambda: (_normal(4, 4),)),
    Case("trace", "batched-rect", lambda: (_normal(2, 3, 4),)),
    Case("det", "square", lambda: (_normal(4, 4),)),
    Case("det", "batched", lambda: (_normal(2, 3, 3),)),
    Case("logdet", "spd", lambda: (_spd(4),)),
    Case("concatenate", "axis0", lambda: ([_normal(2, 3), _normal(1, 3, seed=1)],)),
    Case("concatenate", "axis1", lambda: ((_normal(2, 3), _normal(2, 2, seed=1)),), {"axis": 1}),
    Case("concatenate", "flat", lambda: ([_normal(2, 2), _normal(3, seed=1)],), {"axis": None}),
    Case("repeat", "flat", lambda: (_normal(2, 3), 3)),
    Case("repeat", "axis1", lambda: (_normal(2, 3), 2), {"axis": 1}),
    Case("clip", "scalars", lambda: (_normal(9), -0.5, 0.7)),
    Case("clip", "arrays", lambda: (_normal(3, 4), _normal(4, seed=1) - 1.0, _normal(3, 1, seed=2) + 1.0)),
    Case("clip", "lo-only", lambda: (_normal(6),), {"lo": 0.1}),
    Case("abs", "vector", lambda: (_normal(7),)),
    Case("where", "arrays", lambda: (_normal(3, 4) > 0, _normal(3, 4, seed=1), _normal(4, seed=2))),
    Case("where", "scalar-y", lambda: (_normal(5) > 0, _normal(5, seed=1), 0.0)),
    Case("matmul", "matrices", lambda: (_normal(3, 4), _normal(4, 2, seed=1))),
    Case("matmul", "vec-mat", lambda: (_normal(4), _normal(4, 2, seed=1))),
    Case("matmul", "mat-vec", lambda: (_normal(3, 4), _normal(4, seed=1))),
    Case("matmul", "vec-vec", lambda: (_normal(4), _normal(4, seed=1))),
    Case("matmul", "batched-broadcast", lambda: (_normal(2, 3, 4), _normal(4, 2, seed=1))),
    Case("median", "odd", lambda: (_normal(7),)),
    Case("median", "even-matrix", lambda: (_normal(2, 3),)),
    Case("evalpoly", "scalar-x", lambda: (np.asarray(0.7), _normal(4))),
    Case("evalpoly", "vector-x", lambda: (_normal(5) * 0.5, _normal(3, seed=1))),
    # symmetric-input conventions: checked along symmetric directions in test_rules_conventions
    Case("cholesky", "spd", lambda: (_spd(4),), fd=False),
    Case("svdvals", "rect", lambda: (_normal(4, 3),)),
    Case("svdvals", "batched", lambda: (_normal(2, 3, 3),)),
    Case("eigvalsh", "symmetric", lambda: ((lambda m: m + m.T)(_normal(4, 4)),), fd=False),
    Case("hermitian_part", "square", lambda: (_normal(3, 3),)),
]


HARD_CASES: list[Case] = [
    Case("sum", "empty-axis", lambda: (np.zeros((3, 0)),), {"axis": 1}),
    Case("mean", "axes-tuple", lambda: (_normal(2, 3, 4),), {"axis": (1, 2)}),
    Case("prod", "one-zero", lambda: (np.array([2.0, 0.0, 3.0, -1.5]),)),
    Case("prod", "two-zeros", lambda: (np.array([2.0, 0.0, 3.0, 0.0]),)),
    Case("prod", "zeros-per-row", lambda: (np.array([[2.0, 0.0, 3.0], [0.0, 0.0, 1.0], [1.0, 2.0, 3.0]]),), {"axis": 1}),
    Case("prod", "underflow", lambda: (np.array([1e-200, 1e-200, 2.0]),)),
    Case("prod", "empty-axis", lambda: (np.zeros((2, 0)),), {"axis": 1}),
    Case("cumprod", "one-zero", lambda: (np.array([2.0, -1.5, 0.0, 3.0, 0.5]),)),
    Case("cumprod", "two-zeros", lambda: (np.array([2.0, 0.0, 3.0, 0.0, 5.0]),)),
    Case("cumprod", "zero-first-last", lambda: (np.array([0.0, 2.0, 3.0, 0.0]),)),
    Case("cumprod", "zeros-axis1", lambda: (np.array([[1.5, 0.0, 2.0], [0.0, 0.0, 3.0], [1.0, 2.0, 0.0]]),), {"axis": 1}),
    Case("cumsum", "empty", lambda: (np.zeros(0),)),
    Case("maximum", "ties", lambda: (np.array([1.0, 3.0, 2.0, 3.0]),), fd=False),
    Case("maximum", "ties-axis1", lambda: (np.array([[1.0, 1.0, 0.0], [2.0, 5.0, 5.0]]),), {"axis": 1}, fd=False),
    Case("minimum", "ties", lambda: (np.array([1.0, -3.0, 2.0, -3.0]),), fd=False),
    Case("findmax", "ties", lambda: (np.array([4.0, 1.0, 4.0]),), output=_value, fd=False),
    Case("findmin", "ties-axis0", lambda: (np.array([[1.0, 2.0], [1.0, 0.0]]),), {"axis": 0}, output=_value, fd=False),
    Case("norm", "p2-zero", lambda: (np.zeros(4),), fd=False),
    Case("norm", "p2-with-zeros", lambda: (np.array([0.0, 3.0, 0.0, -4.0]),)),
    Case("norm", "p1-with-zero", lambda: (np.array([1.0, 0.0, -2.0]), 1), fd=False),
    Case("norm", "pinf-ties", lambda: (np.array([3.0, -3.0, 1.0, 3.0, 2.0]), np.inf), fd=False),
    Case("norm", "pneginf-ties", lambda: (np.array([1.0, 3.0, -1.0, 2.0]), -np.inf), fd=False),
    Case("norm", "p3-with-zero", lambda: (np.array([0.0, 1.0, -2.0]), 3)),
    Case("norm", "p0.5-with-zero", lambda: (np.array([0.0, 1.0, -2.0]), 0.5), fd=False),
    Case("norm", "empty", lambda: (np.zeros(0),)),
    Case("normalize", "zero", lambda: (np.zeros(3),), fd=False),
    Case("getindex", "repeats", lambda: (_normal(5), np.array([1, 3, 1, 1, 0]))),
    Case("getindex", "repeats-2d-index", lambda: (_normal(4, 2), np.array([[0, 3], [3, 3]]))),
    Case("getindex", "negative", lambda: (_normal(5), np.array([-1, 0, -1]))),
    Case("take", "repeats-axis1", lambda: (_normal(2, 4), np.array([3, 3, 0, 3])), {"axis": 1}),
    Case("take", "empty-index", lambda: (_normal(4), np.zeros(0, dtype=np.int64))),
    Case("sort", "ties", lambda: (np.array([2.0, 1.0, 2.0, 0.0, 1.0]),), fd=False),
    Case("logsumexp", "neg-inf-entries", lambda: (np.array([0.5, -np.inf, 1.0]),)),
    Case("logsumexp", "all-neg-inf-row", lambda: (np.array([[-np.inf, -np.inf], [0.0, 1.0]]),), {"axis": 1}),
    Case("logsumexp", "empty-axis", lambda: (np.zeros((2, 0)),), {"axis": 1}),
    Case("softmax", "neg-inf-entry", lambda: (np.array([0.5, -np.inf, 1.0]),)),
    Case("det", "rank-n-1", lambda: (_rank_deficient(4, 3),)),
    Case("det", "rank-n-2", lambda: (_rank_deficient(4, 2),)),
    Case("det", "1x1", lambda: (np.array([[2.5]]),)),
    Case("logdet", "negative-det", lambda: (np.diag([1.0, -2.0, 3.0]),), fd=False),
    Case("concatenate", "empty-piece", lambda: ([_normal(2), np.zeros(0), _normal(3, seed=1)],)),
    Case("repeat", "zero-repeats", lambda: (_normal(3), 0)),
    Case("clip", "ties-at-bounds", lambda: (np.array([-1.0, 0.0, 1.0, 2.0]), 0.0, 1.0), fd=False),
    Case("clip", "lo-above-hi", lambda: (np.array([-1.0, 0.5, 2.0]), 1.0, 0.0), fd=False),
    Case("abs", "zero", lambda: (np.array([-1.0, 0.0, 2.0]),), fd=False),
    Case("median", "ties", lambda: (np.array([2.0, 1.0, 2.0, 2.0, 0.0]),), fd=False),
    Case("median", "one", lambda: (np.array([3.5]),)),
    Case("evalpoly", "at-zero", lambda: (np.asarray(0.0), np.array([1.0, 2.0, 3.0]))),
    Case("evalpoly", "no-coefficients", lambda: (_normal(3), np.zeros(0))),
    Case("where", "all-false", lambda: (np.zeros((2, 3), dtype=bool), _normal(2, 3), _normal(2, 3, seed=1))),
]

ALL_CASES: list[Case] = RANDOM_CASES + HARD_CASES

assert {c.rule for c in ALL_CASES} == set(RULES), set(RULES) ^ {c.rule for c in ALL_CASES}
