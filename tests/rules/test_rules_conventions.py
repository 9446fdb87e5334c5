"""The documented conventions, checked with exact expected values.

Finite differences cannot see these: ties of max/min/norm-inf, subgradients at
kinks, exact zeros of prod/cumprod, singular matrices, accumulation of repeated
indices. Each test states the convention of one rule's docstring and would fail
for the plausible alternative (last instead of first tie, ``y/x`` instead of
exclusive products, ``dx[idx] = dy`` instead of a scatter-add, ...).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from scalarlint.rules import RULES


def _pb(name: str, *args, dy=1.0, **kwargs):
    y, pullback = RULES[name](*args, **kwargs)
    return y, pullback(dy)


# -- max / min / findmax: FIRST index --------------------------------------------


def test_maximum_ties_go_to_first_index() -> None:
    y, (dx,) = _pb("maximum", np.array([1.0, 3.0, 2.0, 3.0]), dy=np.float64(2.5))
    assert y == 3.0
    np.testing.assert_array_equal(dx, [0.0, 2.5, 0.0, 0.0])


def test_maximum_ties_per_slice() -> None:
    x = np.array([[1.0, 1.0, 0.0], [2.0, 5.0, 5.0]])
    _, (dx,) = _pb("maximum", x, axis=1, dy=np.array([10.0, 20.0]))
    np.testing.assert_array_equal(dx, [[10.0, 0.0, 0.0], [0.0, 20.0, 0.0]])


def test_maximum_over_all_axes_of_matrix_picks_first_in_c_order() -> None:
    x = np.array([[0.0, 7.0], [7.0, 1.0]])
    _, (dx,) = _pb("maximum", x)
    np.testing.assert_array_equal(dx, [[0.0, 1.0], [0.0, 0.0]])


def test_minimum_ties_go_to_first_index() -> None:
    _, (dx,) = _pb("minimum", np.array([1.0, -3.0, 2.0, -3.0]))
    np.testing.assert_array_equal(dx, [0.0, 1.0, 0.0, 0.0])


def test_findmax_returns_first_index_and_routes_value_cotangent() -> None:
    (value, index), pullback = RULES["findmax"](np.array([4.0, 1.0, 4.0]))
    assert value == 4.0 and int(index) == 0
    np.testing.assert_array_equal(pullback((np.float64(3.0), None))[0], [3.0, 0.0, 0.0])
    # a bare value cotangent is accepted too, and None means zero
    np.testing.assert_array_equal(pullback(np.float64(3.0))[0], [3.0, 0.0, 0.0])
    np.testing.assert_array_equal(pullback((None, None))[0], [0.0, 0.0, 0.0])


def test_findmin_along_axis() -> None:
    x = np.array([[1.0, 2.0], [1.0, 0.0]])
    (value, index), pullback = RULES["findmin"](x, axis=0)
    np.testing.assert_array_equal(value, [1.0, 0.0])
    np.testing.assert_array_equal(index, [0, 1])
    assert np.issubdtype(np.asarray(index).dtype, np.integer)
    (dx,) = pullback((np.array([5.0, 6.0]), None))
    np.testing.assert_array_equal(dx, [[5.0, 0.0], [0.0, 6.0]])


def test_maximum_nan_counts_as_maximum() -> None:
    y, (dx,) = _pb("maximum", np.array([1.0, np.nan, 3.0]))
    assert math.isnan(float(y))
    np.testing.assert_array_equal(dx, [0.0, 1.0, 0.0])


# -- norms ------------------------------------------------------------------------


def test_norm_inf_ties_go_to_last_index_with_its_sign() -> None:
    _, (dx,) = _pb("norm", np.array([3.0, -3.0, 1.0, 3.0, 2.0]), p=math.inf, dy=np.float64(2.0))
    np.testing.assert_array_equal(dx, [0.0, 0.0, 0.0, 2.0, 0.0])
    _, (dx,) = _pb("norm", np.array([3.0, -3.0, 1.0, 2.0]), p=math.inf)
    np.testing.assert_array_equal(dx, [0.0, -1.0, 0.0, 0.0])


def test_norm_neg_inf_ties_go_to_last_index() -> None:
    y, (dx,) = _pb("norm", np.array([1.0, 3.0, -1.0, 2.0]), p=-math.inf)
    assert y == 1.0
    np.testing.assert_array_equal(dx, [0.0, 0.0, -1.0, 0.0])


def test_norm_inf_with_nan_gives_zero_gradient() -> None:
    y, (dx,) = _pb("norm", np.array([1.0, np.nan, -2.0]), p=math.inf)
    assert math.isnan(float(y))
    np.testing.assert_array_equal(dx, [0.0, 0.0, 0.0])


def test_norm2_at_zero_is_zero_without_warnings() -> None:
    with np.errstate(all="raise"):
        y, (dx,) = _pb("norm", np.zeros(4))
    assert y == 0.0
    np.testing.assert_array_equal(dx, np.zeros(4))


def test_norm1_subgradient_zero_at_zero() -> None:
    _, (dx, dp) = _pb("norm", np.array([1.0, 0.0, -2.0]), 1, dy=np.float64(3.0))
    np.testing.assert_array_equal(dx, [3.0, 0.0, -3.0])
    assert dp is None


def test_norm_p0_counts_nonzeros_with_zero_gradient() -> None:
    y, (dx,) = _pb("norm", np.array([0.0, 2.0, -1.0, 0.0]), p=0)
    assert y == 2.0
    np.testing.assert_array_equal(dx, np.zeros(4))


@pytest.mark.parametrize("p", [0.5, -1.5])
def test_norm_general_p_zero_entries_get_zero(p: float) -> None:
    x = np.array([0.0, 1.0, -2.0])
    with np.errstate(all="raise"):
        y, (dx,) = _pb("norm", x, p=p)
    assert dx[0] == 0.0
    if p > 0:
        want = x[1:] * (np.abs(x[1:]) / y) ** (p - 2) / y
        np.testing.assert_allclose(dx[1:], want, rtol=1e-13)
    else:
        # a zero entry makes the negative-p norm 0: nothing is finite, all 0
        assert y == 0.0
        np.testing.assert_array_equal(dx, np.zeros(3))


def test_norm_empty_is_zero() -> None:
    y, (dx,) = _pb("norm", np.zeros((0, 3)), p=math.inf)
    assert y == 0.0 and dx.shape == (0, 3)


def test_norm_rejects_device_p() -> None:
    with pytest.raises(TypeError, match="host"):
        RULES["norm"](np.ones(3), np.float64(2.0).reshape(()) + np.zeros(1))


@pytest.mark.filterwarnings("ignore:invalid value encountered in divide:RuntimeWarning")  # compat's sign(0j)
def test_norm_complex_p2_and_abs() -> None:
    x = np.array([3 + 4j, 0j, -1j])
    _, (dx,) = _pb("norm", x)
    np.testing.assert_allclose(dx, x / np.sqrt(26.0), rtol=1e-14)
    _, (da,) = _pb("abs", x, dy=np.array([2.0, 5.0, 1.0]))
    np.testing.assert_allclose(da, [2 * (3 + 4j) / 5, 0, -1j], rtol=1e-14)


def test_normalize_at_zero_is_zero() -> None:
    with np.errstate(all="raise"):
        y, (dx,) = _pb("normalize", np.zeros(3), dy=np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(y, np.zeros(3))
    np.testing.assert_array_equal(dx, np.zeros(3))


def test_positional_p_gets_none_keyword_p_gets_nothing() -> None:
    x = np.array([1.0, 2.0])
    assert len(RULES["norm"](x, 2)[1](1.0)) == 2
    assert len(RULES["norm"](x, p=2)[1](1.0)) == 1
    assert len(RULES["norm"](x)[1](1.0)) == 1
    with pytest.raises(TypeError):
        RULES["norm"](x, 2, 3)


# -- prod / cumprod: exact zeros ----------------------------------------------------


def _others_product(x: np.ndarray) -> np.ndarray:
    """Brute force: prod of all elements but one, by explicit products."""
    return np.array([np.prod(np.delete(x, i)) for i in range(x.size)])


@pytest.mark.parametrize(
    "x",
    [
        [2.0, 0.0, 3.0, -1.5],  # one zero
        [2.0, 0.0, 3.0, 0.0],  # two zeros
        [0.0, 0.0, 0.0],
        [1e-200, 1e-200, 2.0],  # prod underflows, no zero
        [1e-170, 1e-170, 1e-170, 4.0],
        [5.0],
    ],
)
def test_prod_gradient_is_exact_product_of_others(x: list[float]) -> None:
    arr = np.array(x)
    _, (dx,) = _pb("prod", arr)
    want = _others_product(arr)
    np.testing.assert_allclose(dx, want, rtol=1e-15, atol=0)
    if arr.size > 1 and np.count_nonzero(arr) == arr.size:
        assert np.all((dx != 0) == (want != 0))


def test_prod_underflow_is_not_divided() -> None:
    # y / x would give 0 / 1e-200 = 0 for the first two entries
    y, (dx,) = _pb("prod", np.array([1e-200, 1e-200, 2.0]))
    assert y == 0.0
    assert dx[0] == 2e-200 and dx[1] == 2e-200 and dx[2] == 0.0


def test_prod_empty_axis() -> None:
    y, (dx,) = _pb("prod", np.zeros((2, 0)), axis=1, dy=np.ones(2))
    np.testing.assert_array_equal(y, [1.0, 1.0])
    assert dx.shape == (2, 0)


def _cumprod_grad_bruteforce(x: np.ndarray, dy: np.ndarray) -> np.ndarray:
    n = x.size
    out = np.zeros(n)
    for i, k in itertools.product(range(n), range(n)):
        if k >= i:
            out[i] += dy[k] * np.prod([x[j] for j in range(k + 1) if j != i])
    return out


@pytest.mark.parametrize(
    "x",
    [
        [2.0, -1.5, 0.0, 3.0, 0.5],
        [2.0, 0.0, 3.0, 0.0, 5.0],
        [0.0, 2.0, 3.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.5, 2.0, 3.0, 0.0],
        [1.5, -2.0, 0.25],
    ],
)
def test_cumprod_gradient_with_zeros_matches_bruteforce(x: list[float]) -> None:
    arr = np.array(x)
    dy = np.random.default_rng(7).standard_normal(arr.size)
    with np.errstate(all="raise"):
        _, (dx,) = _pb("cumprod", arr, dy=dy)
    np.testing.assert_allclose(dx, _cumprod_grad_bruteforce(arr, dy), rtol=1e-13, atol=1e-15)


def test_cumprod_zero_rows_along_axis1() -> None:
    x = np.array([[1.5, 0.0, 2.0], [0.0, 0.0, 3.0], [1.0, 2.0, 0.0]])
    dy = np.random.default_rng(3).standard_normal(x.shape)
    _, (dx,) = _pb("cumprod", x, axis=1, dy=dy)
    for r in range(3):
        np.testing.assert_allclose(dx[r], _cumprod_grad_bruteforce(x[r], dy[r]), rtol=1e-13, atol=1e-15)


# -- indexing ---------------------------------------------------------------------


def test_getindex_repeated_indices_accumulate() -> None:
    x = np.arange(5.0)
    idx = np.array([1, 3, 1, 1, 0])
    dy = np.array([1.0, 10.0, 100.0, 1000.0, 10000.0])
    y, (dx, didx) = _pb("getindex", x, idx, dy=dy)
    np.testing.assert_array_equal(y, [1.0, 3.0, 1.0, 1.0, 0.0])
    np.testing.assert_array_equal(dx, [10000.0, 1101.0, 0.0, 10.0, 0.0])
    assert didx is None


def test_getindex_tuple_of_arrays_with_repeats_and_negatives() -> None:
    x = np.arange(12.0).reshape(3, 4)
    rows, cols = np.array([0, -1, 0]), np.array([1, 3, 1])
    y, (dx, _) = _pb("getindex", x, (rows, cols), dy=np.array([1.0, 2.0, 4.0]))
    np.testing.assert_array_equal(y, x[rows, cols])
    want = np.zeros_like(x)
    want[0, 1], want[2, 3] = 5.0, 2.0
    np.testing.assert_array_equal(dx, want)


def test_getindex_rejects_host_integer() -> None:
    with pytest.raises(TypeError, match="scalar indexing"):
        RULES["getindex"](np.arange(3.0), 1)
    with pytest.raises(TypeError, match="integer array"):
        RULES["getindex"](np.arange(3.0), np.array([0.5]))


def test_take_repeats_accumulate_along_axis() -> None:
    x = np.arange(8.0).reshape(2, 4)
    _, (dx, _, _) = _pb("take", x, np.array([3, 3, 0, 3]), 1, dy=np.ones((2, 4)))
    np.testing.assert_array_equal(dx, [[1.0, 0.0, 0.0, 3.0], [1.0, 0.0, 0.0, 3.0]])


def test_sort_ties_follow_stable_order() -> None:
    x = np.array([2.0, 1.0, 2.0, 0.0, 1.0])
    dy = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    y, (dx,) = _pb("sort", x, dy=dy)
    np.testing.assert_array_equal(y, [0.0, 1.0, 1.0, 2.0, 2.0])
    # stable permutation [3, 1, 4, 0, 2]: input i receives dy at its output slot
    np.testing.assert_array_equal(dx, [4.0, 2.0, 5.0, 1.0, 3.0])


def test_concatenate_cotangent_is_tuple_per_input() -> None:
    xs = [np.ones(2), np.zeros(0), np.ones(3)]
    _, (dxs,) = _pb("concatenate", xs, dy=np.arange(5.0))
    assert isinstance(dxs, tuple) and len(dxs) == 3
    np.testing.assert_array_equal(dxs[0], [0.0, 1.0])
    assert dxs[1].shape == (0,)
    np.testing.assert_array_equal(dxs[2], [2.0, 3.0, 4.0])


def test_repeat_sums_runs_and_rejects_array_repeats() -> None:
    _, (dx, dr) = _pb("repeat", np.array([1.0, 2.0]), 3, dy=np.arange(6.0))
    np.testing.assert_array_equal(dx, [3.0, 12.0])
    assert dr is None
    _, (dx, _) = _pb("repeat", np.array([1.0, 2.0]), 0, dy=np.zeros(0))
    np.testing.assert_array_equal(dx, [0.0, 0.0])
    with pytest.raises(TypeError):
        RULES["repeat"](np.ones(2), np.array([1, 2]))


# -- elementwise kinks ------------------------------------------------------------


def test_clip_ties_at_bounds_go_to_x() -> None:
    x = np.array([-1.0, 0.0, 1.0, 2.0])
    lo, hi = np.zeros(1), np.ones(1)
    y, (dx, dlo, dhi) = _pb("clip", x, lo, hi, dy=np.array([1.0, 2.0, 4.0, 8.0]))
    np.testing.assert_array_equal(y, [0.0, 0.0, 1.0, 1.0])
    np.testing.assert_array_equal(dx, [0.0, 2.0, 4.0, 0.0])
    np.testing.assert_array_equal(dlo, [1.0])
    np.testing.assert_array_equal(dhi, [8.0])


def test_clip_lo_above_hi_sends_everything_to_hi() -> None:
    x = np.array([-1.0, 0.5, 2.0])
    y, (dx, dlo, dhi) = _pb("clip", x, np.array(1.0), np.array(0.0), dy=np.ones(3))
    np.testing.assert_array_equal(y, np.clip(x, 1.0, 0.0))
    np.testing.assert_array_equal(dx, np.zeros(3))
    assert float(dlo) == 0.0 and float(dhi) == 3.0


def test_clip_python_bounds_get_none_and_nan_passes_to_x() -> None:
    _, (dx, dlo, dhi) = _pb("clip", np.array([np.nan, 5.0]), 0.0, 1.0, dy=np.ones(2))
    np.testing.assert_array_equal(dx, [1.0, 0.0])
    assert dlo is None and dhi is None


def test_abs_subgradient_zero_at_zero() -> None:
    _, (dx,) = _pb("abs", np.array([-1.0, 0.0, 2.0]), dy=np.array([3.0, 3.0, 3.0]))
    np.testing.assert_array_equal(dx, [-3.0, 0.0, 3.0])


def test_where_routes_by_condition_even_when_equal() -> None:
    c = np.array([True, False, True])
    x = np.array([1.0, 1.0, 1.0])
    _, (dc, dx, dy) = _pb("where", c, x, np.ones(1), dy=np.array([2.0, 3.0, 4.0]))
    assert dc is None
    np.testing.assert_array_equal(dx, [2.0, 0.0, 4.0])
    np.testing.assert_array_equal(dy, [3.0])


# -- log-sum-exp family -------------------------------------------------------------


def test_logsumexp_all_neg_inf_slice_has_zero_gradient() -> None:
    x = np.array([[-np.inf, -np.inf], [0.0, np.log(3.0)]])
    with np.errstate(divide="ignore"):
        y, (dx,) = _pb("logsumexp", x, axis=1, dy=np.array([1.0, 2.0]))
    assert y[0] == -np.inf
    np.testing.assert_allclose(y[1], np.log(4.0), rtol=1e-15)
    np.testing.assert_allclose(dx, [[0.0, 0.0], [0.5, 1.5]], rtol=1e-15)


def test_softmax_neg_inf_entry_gets_zero() -> None:
    y, (dx,) = _pb("softmax", np.array([0.0, -np.inf, 0.0]), dy=np.array([1.0, 5.0, 0.0]))
    np.testing.assert_allclose(y, [0.5, 0.0, 0.5], rtol=1e-15)
    assert dx[1] == 0.0
    np.testing.assert_allclose(dx, [0.25, 0.0, -0.25], rtol=1e-15)


# -- linear algebra -----------------------------------------------------------------


def _cofactor_bruteforce(A: np.ndarray) -> np.ndarray:
    n = A.shape[0]
    C = np.zeros_like(A)
    for i, j in itertools.product(range(n), range(n)):
        minor = np.delete(np.delete(A, i, axis=0), j, axis=1)
        C[i, j] = (-1) ** (i + j) * (np.linalg.det(minor) if minor.size else 1.0)
    return C


@pytest.mark.parametrize("rank", [4, 3, 2, 0])
def test_det_gradient_is_cofactor_even_when_singular(rank: int) -> None:
    g = np.random.default_rng(rank)
    A = g.standard_normal((4, rank)) @ g.standard_normal((rank, 4)) if rank else np.zeros((4, 4))
    with np.errstate(all="raise"):
        _, (dA,) = _pb("det", A, dy=np.float64(1.5))
    want = 1.5 * _cofactor_bruteforce(A)
    np.testing.assert_allclose(dA, want, rtol=1e-9, atol=1e-12 * max(1.0, np.abs(A).max() ** 3))
    assert np.all(np.isfinite(dA))
    if rank == 3:
        assert np.abs(dA).max() > 1e-3  # rank n-1: a genuinely non-zero gradient


def test_logdet_negative_det_is_nan_with_finite_gradient() -> None:
    A = np.diag([1.0, -2.0, 3.0])
    y, (dA,) = _pb("logdet", A)
    assert math.isnan(float(y))
    np.testing.assert_allclose(dA, np.diag([1.0, -0.5, 1.0 / 3.0]), rtol=1e-15)


def test_trace_rectangular() -> None:
    _, (dA,) = _pb("trace", np.ones((2, 3)), dy=np.float64(2.0))
    np.testing.assert_array_equal(dA, [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]])


# -- dtype and seeds ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["sum", "prod", "maximum", "norm", "cumprod", "logsumexp", "abs"])
def test_float32_stays_float32_with_python_seed(name: str) -> None:
    x = np.array([1.5, -2.0, 0.5], dtype=np.float32)
    y, pullback = RULES[name](x)
    dy = 1.0 if np.ndim(y) == 0 else np.ones(np.shape(y), dtype=np.float32)
    (dx,) = pullback(dy)
    assert dx.dtype == np.float32


# -- symmetric inputs: cholesky and eigvalsh give the symmetric cotangent ---------


@pytest.mark.parametrize("name", ["cholesky", "eigvalsh"])
def test_symmetric_input_rules_match_directional_derivatives_along_symmetric_directions(name: str) -> None:
    """NumPy reads one triangle, so plain finite differences see a triangular gradient; the
    rules return the symmetric one (ChainRules' convention for ``Symmetric`` inputs), which
    is the gradient along every symmetric direction ``E``: ``<dA, E> = d/dt f(A + tE)``."""
    rng = np.random.default_rng(3)
    m = rng.normal(size=(4, 4))
    A = m @ m.T + 4 * np.eye(4)
    y, pullback = RULES[name](A)
    dy = rng.normal(size=np.shape(y))
    (dA,) = pullback(dy)
    np.testing.assert_allclose(dA, dA.T, atol=1e-12)  # symmetric
    for _ in range(4):
        e = rng.normal(size=(4, 4))
        E = (e + e.T) / 2
        h = 1e-6
        plus = np.sum(dy * RULES[name](A + h * E)[0])
        minus = np.sum(dy * RULES[name](A - h * E)[0])
        np.testing.assert_allclose(np.sum(dA * E), (plus - minus) / (2 * h), rtol=1e-5, atol=1e-7)
