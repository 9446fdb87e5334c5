"""The strict array namespace, as array_api_compat hands it to array-API rules."""

from __future__ import annotations

import array_api_compat
import numpy as np
import pytest

from scalarlint.runtime import ScalarIndexingError, StrictArray, strict, strict_namespace, to_host

A = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 4.0]])
V = np.array([3.0, -1.0, 4.0, -1.5, 0.0])


@pytest.fixture
def xp():  # type: ignore[no-untyped-def]
    return array_api_compat.array_namespace(strict(V))


def test_array_api_compat_finds_the_namespace(xp) -> None:  # type: ignore[no-untyped-def]
    assert xp is strict_namespace
    assert array_api_compat.array_namespace(strict(V), 2.0, None, strict(A)) is strict_namespace
    assert array_api_compat.array_namespace(strict(V), api_version="2023.12") is strict_namespace
    assert array_api_compat.is_array_api_obj(strict(V))
    assert array_api_compat.device(strict(V)) == "strict"


def test_mixing_with_host_arrays_is_refused_by_array_api_compat() -> None:
    # Why check_rule moves integer index arrays to the device as well.
    with pytest.raises(TypeError, match="[Mm]ultiple namespaces"):
        array_api_compat.array_namespace(strict(V), np.array([0, 1]))


@pytest.mark.parametrize(
    ("name", "call", "expected"),
    [
        ("zeros", lambda xp: xp.zeros(3), np.zeros(3)),
        ("zeros-dtype", lambda xp: xp.zeros(3, dtype=xp.int64), np.zeros(3, dtype=np.int64)),
        ("ones", lambda xp: xp.ones((2, 2)), np.ones((2, 2))),
        ("empty", lambda xp: xp.empty(4).shape, None),
        ("full", lambda xp: xp.full((2,), 7.0), np.full((2,), 7.0)),
        ("arange", lambda xp: xp.arange(4), np.arange(4)),
        ("eye", lambda xp: xp.eye(3), np.eye(3)),
        ("linspace", lambda xp: xp.linspace(0, 1, 5), np.linspace(0, 1, 5)),
        ("asarray-scalar", lambda xp: xp.asarray(2.5), np.asarray(2.5)),
        ("asarray-list", lambda xp: xp.asarray([1.0, 2.0]), np.array([1.0, 2.0])),
        ("asarray-host", lambda xp: xp.asarray(np.arange(3)), np.arange(3)),
        ("asarray-0d-strict", lambda xp: xp.asarray(strict(np.array(1.5)), dtype=xp.float64), np.asarray(1.5)),
        ("arange-device", lambda xp: xp.arange(3, device=strict(V).device), np.arange(3)),
        ("full-device", lambda xp: xp.full((2,), 1.0, device="strict"), np.ones(2)),
    ],
)
def test_creation_functions_return_strict_arrays(xp, name: str, call, expected) -> None:  # type: ignore[no-untyped-def]
    result = call(xp)
    if expected is None:
        assert result == (4,)
        assert isinstance(xp.empty(4), StrictArray)
        return
    assert isinstance(result, StrictArray), name
    np.testing.assert_array_equal(to_host(result), expected)
    assert to_host(result).dtype == expected.dtype


# The functions the reference rules call on `xp`, on StrictArrays.
CALLS = {
    "zeros_like": lambda xp, v, a: xp.zeros_like(v),
    "ones_like": lambda xp, v, a: xp.ones_like(v),
    "full_like": lambda xp, v, a: xp.full_like(v, 2.0),
    "argmax": lambda xp, v, a: xp.argmax(v),
    "argmax-keepdims": lambda xp, v, a: xp.argmax(a, axis=1, keepdims=True),
    "argmin": lambda xp, v, a: xp.argmin(v),
    "flip": lambda xp, v, a: xp.flip(v),
    "where": lambda xp, v, a: xp.where(v > 0, v, 0.0),
    "abs": lambda xp, v, a: xp.abs(v),
    "sign": lambda xp, v, a: xp.sign(v),
    "cumsum": lambda xp, v, a: xp.cumsum(v),
    "cumprod": lambda xp, v, a: xp.cumprod(v),
    "cumulative_sum": lambda xp, v, a: xp.cumulative_sum(v),
    "linalg.inv": lambda xp, v, a: xp.linalg.inv(a),
    "linalg.det": lambda xp, v, a: xp.linalg.det(a),
    "linalg.slogdet": lambda xp, v, a: tuple(xp.linalg.slogdet(a)),
    "linalg.svd": lambda xp, v, a: tuple(xp.linalg.svd(a)),
    "linalg.trace": lambda xp, v, a: xp.linalg.trace(a),
    "take": lambda xp, v, a: xp.take(v, xp.asarray([0, 4, 4])),
    "take_along_axis": lambda xp, v, a: xp.take_along_axis(a, xp.argsort(a, axis=1), axis=1),
    "expand_dims": lambda xp, v, a: xp.expand_dims(v, axis=0),
    "concatenate": lambda xp, v, a: xp.concatenate([v, v]),
    "concat": lambda xp, v, a: xp.concat((v, v), axis=0),
    "sort": lambda xp, v, a: xp.sort(v),
    "argsort": lambda xp, v, a: xp.argsort(v),
    "max": lambda xp, v, a: xp.max(v),
    "min": lambda xp, v, a: xp.min(a, axis=0),
    "sum": lambda xp, v, a: xp.sum(a, axis=1),
    "prod": lambda xp, v, a: xp.prod(v),
    "mean": lambda xp, v, a: xp.mean(v),
    "exp": lambda xp, v, a: xp.exp(v),
    "log": lambda xp, v, a: xp.log(xp.abs(v) + 1.0),
    "sqrt": lambda xp, v, a: xp.sqrt(xp.abs(v)),
    "isinf": lambda xp, v, a: xp.isinf(v),
    "isnan": lambda xp, v, a: xp.isnan(v),
    "isfinite": lambda xp, v, a: xp.isfinite(v),
    "maximum": lambda xp, v, a: xp.maximum(v, 0.0),
    "minimum": lambda xp, v, a: xp.minimum(v, 0.0),
    "matmul": lambda xp, v, a: xp.matmul(a, a),
    "trace": lambda xp, v, a: xp.trace(a),
    "reshape": lambda xp, v, a: xp.reshape(a, (9,)),
    "astype": lambda xp, v, a: xp.astype(v, xp.float32),
    "permute_dims": lambda xp, v, a: xp.permute_dims(a, (1, 0)),
    "matrix_transpose": lambda xp, v, a: xp.matrix_transpose(a),
    "squeeze": lambda xp, v, a: xp.squeeze(xp.expand_dims(v, axis=0), axis=0),
    "repeat": lambda xp, v, a: xp.repeat(v, 2),
    "searchsorted": lambda xp, v, a: xp.searchsorted(xp.sort(v), v),
    "broadcast_arrays": lambda xp, v, a: tuple(xp.broadcast_arrays(v, a[:1, :1])),
    "conj": lambda xp, v, a: xp.conj(v),
    "real": lambda xp, v, a: xp.real(v),
    "eye-like": lambda xp, v, a: xp.eye(a.shape[0], dtype=a.dtype),
    "one-hot": lambda xp, v, a: xp.where(xp.arange(v.shape[0]) == xp.argmax(v), xp.sign(v) * 2.0, 0),
    "last-true": lambda xp, v, a: v.shape[0] - 1 - xp.argmax(xp.flip(v < 0)),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_functions_on_strict_arrays_match_numpy(xp, name: str) -> None:  # type: ignore[no-untyped-def]
    call = CALLS[name]
    result = call(xp, strict(V), strict(A))
    expected = call(np, V, A)
    results = result if isinstance(result, tuple) else (result,)
    expecteds = expected if isinstance(expected, tuple) else (expected,)
    for r, e in zip(results, expecteds, strict=True):
        assert isinstance(r, StrictArray), (name, type(r))
        np.testing.assert_allclose(to_host(r), e, rtol=1e-12)
        assert to_host(r).dtype == np.asarray(e).dtype


def test_add_at_through_the_namespace_scatters_in_place(xp) -> None:  # type: ignore[no-untyped-def]
    dx = xp.zeros_like(strict(V))
    idx = xp.asarray([1, 1, 3])
    result = xp.add.at(dx, idx, xp.asarray([1.0, 2.0, 3.0]))
    assert result is None
    assert to_host(dx).tolist() == [0.0, 3.0, 0.0, 3.0, 0.0]


def test_ufunc_attributes_and_host_inputs(xp) -> None:  # type: ignore[no-untyped-def]
    assert xp.add.nin == 2 and xp.add.__name__ == "add"
    assert isinstance(xp.exp(1.0), StrictArray)
    assert isinstance(xp.add.reduce(strict(V)), StrictArray)
    assert isinstance(xp.multiply.outer(strict(V), strict(V)), StrictArray)


def test_dtypes_constants_and_classes_pass_through(xp) -> None:  # type: ignore[no-untyped-def]
    assert xp.float64 is np.float64 and xp.int64 is np.int64 and xp.bool is np.bool_
    assert xp.pi == np.pi and xp.inf == np.inf and xp.newaxis is None
    assert xp.finfo(xp.float32).eps == np.finfo(np.float32).eps
    assert xp.isdtype(strict(V).dtype, "real floating") is True
    assert xp.ndarray is StrictArray
    assert xp.__array_api_version__ == np.__array_api_version__
    assert xp.asnumpy(strict(V)).tolist() == V.tolist()


def test_submodules_are_wrapped(xp) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(xp.linalg.norm(strict(V)), StrictArray)
    assert isinstance(xp.fft.fft(strict(V)), StrictArray)
    assert xp.linalg is xp.linalg  # cached


def test_unknown_attributes_raise_attribute_error(xp) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(AttributeError, match="no attribute 'not_a_function'"):
        xp.not_a_function
    assert "zeros" in dir(xp)
    assert "strict" in repr(xp)


def test_namespace_keeps_the_sync_checks(xp) -> None:  # type: ignore[no-untyped-def]
    n = xp.asarray(3)
    with pytest.raises(ScalarIndexingError):
        xp.zeros(n)
    with pytest.raises(ScalarIndexingError):
        xp.arange(n)
    with pytest.raises(ScalarIndexingError):
        xp.nonzero(strict(V))
