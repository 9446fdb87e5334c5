"""StrictArray with NumPy: reductions, functions, ufuncs, operators, host mixing."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from scalarlint.runtime import ScalarIndexingError, StrictArray, allow_scalar, scalar_allowed, strict, to_host

A = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 4.0]])
V = np.array([3.0, -1.0, 4.0, -1.5])


def _same(result: object, expected: object) -> None:
    """``result`` is on the strict device and equals NumPy's ``expected``."""
    if isinstance(expected, tuple):
        assert isinstance(result, tuple) and len(result) == len(expected)
        for r, e in zip(result, expected):
            _same(r, e)
        return
    assert isinstance(result, StrictArray), type(result)
    np.testing.assert_allclose(to_host(result), expected, rtol=1e-12)
    assert to_host(result).shape == np.shape(expected)


# -- row 8: reductions give 0-d arrays ---------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda v: v.sum(),
        lambda v: v.max(),
        lambda v: v.min(),
        lambda v: v.argmax(),
        lambda v: v.argmin(),
        lambda v: v.prod(),
        lambda v: v.mean(),
        np.sum,
        np.max,
        np.argmax,
        np.linalg.norm,
        lambda v: np.dot(v, v),
        lambda v: v @ v,
        lambda v: np.vdot(v, v),
        lambda v: np.add.reduce(v),
        lambda v: np.count_nonzero(v),
    ],
)
def test_reductions_return_0d_strict_arrays(call) -> None:  # type: ignore[no-untyped-def]
    result = call(strict(V))
    assert isinstance(result, StrictArray) and result.shape == ()
    np.testing.assert_allclose(to_host(result), call(V))


def test_axis_reductions_and_scans() -> None:
    m = strict(A)
    _same(m.sum(axis=0), A.sum(axis=0))
    _same(m.max(1), A.max(1))
    _same(m.cumsum(), A.cumsum())
    _same(m.cumprod(axis=1), A.cumprod(axis=1))
    _same(np.argmax(m, axis=1), np.argmax(A, axis=1))


# -- row 9: NumPy functions keep the type --------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda a, v: np.einsum("ij,j->i", a, v[:3]),
        lambda a, v: np.concatenate([v, v]),
        lambda a, v: np.stack([v, v], axis=1),
        lambda a, v: np.linalg.det(a),
        lambda a, v: np.linalg.inv(a),
        lambda a, v: np.linalg.slogdet(a),
        lambda a, v: np.linalg.solve(a, v[:3]),
        lambda a, v: np.sort(v),
        lambda a, v: np.argsort(v),
        lambda a, v: np.take(v, np.array([0, 3, 3])),
        lambda a, v: np.take_along_axis(a, np.argsort(a, axis=1), axis=1),
        lambda a, v: np.expand_dims(v, 0),
        lambda a, v: np.flip(v),
        lambda a, v: np.cumsum(v),
        lambda a, v: np.trace(a),
        lambda a, v: np.outer(v, v),
        lambda a, v: np.broadcast_arrays(v, a[:1, :1]),
        lambda a, v: np.reshape(a, (9,)),
        lambda a, v: np.transpose(a),
        lambda a, v: np.clip(v, -1, 1),
        lambda a, v: np.searchsorted(np.sort(v), v),
        lambda a, v: np.diff(v),
        lambda a, v: np.tril(a),
    ],
)
def test_numpy_functions_keep_the_type(call) -> None:  # type: ignore[no-untyped-def]
    _same(call(strict(A), strict(V)), call(A, V))


def test_namedtuple_results_keep_their_type() -> None:
    result = np.linalg.slogdet(strict(A))
    assert type(result).__name__ == "SlogdetResult"
    assert isinstance(result.logabsdet, StrictArray)


@pytest.mark.parametrize("make", [np.zeros_like, np.empty_like, np.ones_like, lambda v: np.full_like(v, 7.0)])
def test_like_constructors_stay_strict(make) -> None:  # type: ignore[no-untyped-def]
    out = make(strict(V))
    assert isinstance(out, StrictArray) and out.shape == V.shape and out.dtype == V.dtype


def test_numpy_internals_run_with_scalar_access_allowed() -> None:
    # A dispatched function runs NumPy's implementation as "device code":
    # a callback inside it sees scalar access allowed and host data.
    seen: list[bool] = []

    def row_max(row: np.ndarray) -> float:
        seen.append(scalar_allowed())
        return float(row.max())

    _same(np.apply_along_axis(row_max, 1, strict(A)), A.max(axis=1))
    assert seen == [True, True, True]
    assert not scalar_allowed()


def test_non_dispatched_numpy_entry_points_refuse_the_array() -> None:
    # np.vectorize is a class, not a dispatched function: it calls np.asarray,
    # which CuPy refuses too.
    with pytest.raises(ScalarIndexingError, match="to_host"):
        np.vectorize(lambda t: 2 * t)(strict(V))


def test_data_scalar_functions_return_device_bools() -> None:
    v = strict(V)
    for result in (np.allclose(v, v), np.array_equal(v, v), np.array_equiv(v, v)):
        assert isinstance(result, StrictArray) and result.dtype == np.bool_
    assert np.ndim(v) == 1 and np.shape(v) == (4,)  # metadata stays on the host


# -- ufuncs -------------------------------------------------------------------------


def test_ufuncs_keep_the_type() -> None:
    _same(np.exp(strict(V)), np.exp(V))
    _same(np.maximum(strict(V), 0.0), np.maximum(V, 0.0))
    _same(np.add.accumulate(strict(V)), np.add.accumulate(V))
    _same(np.multiply.outer(strict(V), strict(V)), np.multiply.outer(V, V))
    _same(np.divmod(strict(V), 2.0), np.divmod(V, 2.0))


def test_ufunc_out_argument_writes_in_place() -> None:
    v = strict(V)
    out = np.zeros_like(v)
    result = np.add(v, 1.0, out=out)
    assert result is out
    assert to_host(out).tolist() == (V + 1.0).tolist()


def test_add_at_scatters_in_place_with_repeated_indices() -> None:
    dx = np.zeros_like(strict(V))
    np.add.at(dx, strict(np.array([0, 2, 2])), strict(np.array([1.0, 2.0, 3.0])))
    np.add.at(dx, np.array([1, 1]), 0.5)
    assert to_host(dx).tolist() == [1.0, 1.0, 5.0, 0.0]


def test_add_at_with_a_host_int_is_scalar_setindex() -> None:
    dx = np.zeros_like(strict(V))
    with pytest.raises(ScalarIndexingError, match="setindex"):
        np.add.at(dx, 2, 1.0)
    with allow_scalar():
        np.add.at(dx, 2, 1.0)
    assert to_host(dx).tolist() == [0.0, 0.0, 1.0, 0.0]


def test_add_at_with_a_mask_raises() -> None:
    dx = np.zeros_like(strict(V))
    with pytest.raises(ScalarIndexingError, match="boolean mask"):
        np.add.at(dx, strict(V > 0), 1.0)


# -- operators ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "op",
    [
        lambda a, b: a + b,
        lambda a, b: a - b,
        lambda a, b: a * b,
        lambda a, b: a / b,
        lambda a, b: a // b,
        lambda a, b: a % b,
        lambda a, b: a**2,
        lambda a, b: 2.0 - a,
        lambda a, b: 1.0 / b,
        lambda a, b: -a,
        lambda a, b: +a,
        lambda a, b: abs(a),
        lambda a, b: a < b,
        lambda a, b: a == b,
        lambda a, b: a != 3.0,
        lambda a, b: a >= b,
    ],
)
def test_operators_keep_the_type(op) -> None:  # type: ignore[no-untyped-def]
    b = np.array([1.0, 2.0, -4.0, 0.5])
    result = op(strict(V), strict(b))
    expected = op(V, b)
    assert isinstance(result, StrictArray)
    assert result.dtype == expected.dtype
    np.testing.assert_array_equal(to_host(result), expected)


def test_comparisons_give_strict_bool_arrays() -> None:
    mask = strict(V) > 0
    assert isinstance(mask, StrictArray) and mask.dtype == np.bool_
    assert to_host(~mask).tolist() == [False, True, False, True]


def test_matmul_and_integer_ops() -> None:
    _same(strict(A) @ strict(A), A @ A)
    _same(strict(np.array([1, 2])) << 1, np.array([2, 4]))


def test_in_place_operators_mutate_the_same_array() -> None:
    v = strict(V)
    alias = v
    v += 1.0
    v *= 2.0
    assert v is alias
    assert to_host(v).tolist() == ((V + 1.0) * 2.0).tolist()
    window = v[1:3]
    window -= 100.0  # through a view, like CuPy
    assert to_host(v)[1] == (V[1] + 1.0) * 2.0 - 100.0


def test_scalars_and_0d_host_arrays_mix_with_device_arrays() -> None:
    v = strict(V)
    _same(v * np.float64(2.0), V * 2.0)
    _same(v + np.array(1.0), V + 1.0)
    _same(v * strict(np.array(3.0)), V * 3.0)


@pytest.mark.parametrize(
    "op",
    [
        lambda v: v + np.ones(4),
        lambda v: np.ones(4) * v,
        lambda v: v + [1.0, 2.0, 3.0, 4.0],
        lambda v: np.exp(v, out=np.empty(4)),
        lambda v: np.add.at(np.zeros(4), np.array([0]), v[:1]),
    ],
    ids=["add", "radd", "list", "host-out", "host-target-at"],
)
def test_host_arrays_do_not_mix_in_ufuncs(op) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match="host numpy array|Python list"):
        op(strict(V))


# -- device scalars in host-integer parameters --------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda x, n: np.reshape(x, (n,)),
        lambda x, n: x.reshape(n),
        lambda x, n: np.sum(x, axis=n - 4),
        lambda x, n: x.sum(n - 4),
        lambda x, n: np.roll(x, n),
        lambda x, n: np.zeros_like(x, shape=(n,)),
        lambda x, n: np.broadcast_to(x, (n, n)),
    ],
)
def test_device_scalars_in_shape_and_axis_parameters_raise(call) -> None:  # type: ignore[no-untyped-def]
    x = strict(V)
    n = strict(np.array(4))
    with pytest.raises(ScalarIndexingError, match="host integers"):
        call(x, n)
    with allow_scalar():
        assert isinstance(call(x, n), StrictArray)


# -- metadata, conversions, copies ------------------------------------------------------


def test_metadata_and_simple_methods() -> None:
    m = strict(A)
    assert m.shape == (3, 3) and m.ndim == 2 and m.size == 9 and m.dtype == np.float64
    assert m.nbytes == A.nbytes and m.device == "strict"
    _same(m.T, A.T)
    _same(m.reshape(9), A.reshape(9))
    _same(m.reshape(1, 9), A.reshape(1, 9))
    _same(m.transpose(1, 0), A.T)
    assert m.astype(np.float32).dtype == np.float32
    _same(m.ravel(), A.ravel())
    _same(m.flatten(), A.flatten())
    _same(m.diagonal(), A.diagonal())
    _same(strict(V).clip(-1, 1), V.clip(-1, 1))


def test_copies_are_independent() -> None:
    v = strict(V)
    for duplicate in (v.copy(), copy.copy(v), copy.deepcopy(v)):
        duplicate += 1.0
        assert to_host(v).tolist() == V.tolist()


def test_sort_and_fill_work_in_place() -> None:
    v = strict(V)
    v.sort()
    assert to_host(v).tolist() == sorted(V.tolist())
    v.fill(strict(np.array(2.0)))
    assert to_host(v).tolist() == [2.0] * 4


def test_strict_copies_host_input_and_passes_strict_through() -> None:
    host = V.copy()
    v = strict(host)
    host[0] = 100.0
    assert to_host(v)[0] == 3.0
    assert strict(v) is v
    assert strict([1, 2]).dtype.kind == "i"
    with pytest.raises(TypeError):
        StrictArray([1.0, 2.0])  # type: ignore[arg-type]


def test_to_device() -> None:
    v = strict(V)
    assert v.to_device("strict") is v
    with pytest.raises(ValueError, match="to_host"):
        v.to_device("cpu")
