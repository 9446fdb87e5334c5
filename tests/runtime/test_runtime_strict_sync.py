"""StrictArray sync rows of the table: data-dependent shapes, iteration, host conversion."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scalarlint.runtime import ScalarIndexingError, StrictArray, allow_scalar, strict, strict_namespace, to_host

xp = strict_namespace


@pytest.fixture
def x() -> StrictArray:
    return strict(np.array([3.0, -1.0, 4.0, -1.0, 5.0]))


# -- row 5: data-dependent output sizes ------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda x: x[x > 0],
        lambda x: x[to_host(x) > 0],
        lambda x: x[[True, False, True, False, True]],
        lambda x: np.nonzero(x),
        lambda x: x.nonzero(),
        lambda x: np.flatnonzero(x),
        lambda x: np.argwhere(x),
        lambda x: np.unique(x),
        lambda x: np.where(x > 0),
        lambda x: np.compress(x > 0, x),
        lambda x: np.extract(x > 0, x),
        lambda x: xp.nonzero(x),
        lambda x: xp.unique_values(x),
        lambda x: xp.where(x > 0),
    ],
    ids=[
        "device-mask", "host-mask", "bool-list", "nonzero", "method-nonzero", "flatnonzero",
        "argwhere", "unique", "where-1-arg", "compress", "extract", "xp-nonzero",
        "xp-unique_values", "xp-where-1-arg",
    ],
)
def test_data_dependent_shapes_raise(x: StrictArray, call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScalarIndexingError) as info:
        call(x)
    assert "depends on the data" in str(info.value)
    with allow_scalar():
        result = call(x)
    leaves = result if isinstance(result, tuple) else (result,)
    assert all(isinstance(leaf, StrictArray) for leaf in leaves)


def test_masked_assignment_raises(x: StrictArray) -> None:
    with pytest.raises(ScalarIndexingError, match="boolean mask"):
        x[x < 0] = 0.0


def test_three_argument_where_is_fine(x: StrictArray) -> None:
    out = np.where(x > 0, x, 0.0)
    assert isinstance(out, StrictArray)
    assert to_host(out).tolist() == [3.0, 0.0, 4.0, 0.0, 5.0]
    assert to_host(np.unique(to_host(x))).tolist() == [-1.0, 3.0, 4.0, 5.0]  # host input: plain NumPy


# -- row 6: iteration --------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda x: [v for v in x],
        list,
        tuple,
        lambda x: next(zip(x, x)),
        sum,
        max,
        min,
        sorted,
        lambda x: list(enumerate(x)),
        lambda x: list(reversed(x)),
        lambda x: any(x),
    ],
    ids=["for", "list", "tuple", "zip", "sum", "max", "min", "sorted", "enumerate", "reversed", "any"],
)
def test_iteration_raises(x: StrictArray, call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScalarIndexingError, match="iteration"):
        call(x)


def test_iterating_rows_of_a_matrix_raises() -> None:
    with pytest.raises(ScalarIndexingError):
        for _row in strict(np.ones((2, 3))):
            pass


def test_membership_raises(x: StrictArray) -> None:
    with pytest.raises(ScalarIndexingError, match="membership"):
        4.0 in x  # noqa: B015


def test_iteration_when_allowed_yields_0d_arrays(x: StrictArray) -> None:
    with allow_scalar():
        items = list(x)
        total = sum(x)
        assert 4.0 in x
    assert all(isinstance(v, StrictArray) and v.shape == () for v in items)
    assert [float(to_host(v)) for v in items] == [3.0, -1.0, 4.0, -1.0, 5.0]
    assert to_host(total) == 10.0


def test_len_is_host_metadata(x: StrictArray) -> None:
    assert len(x) == 5
    with pytest.raises(TypeError):
        len(strict(np.array(1.0)))


# -- row 7: host conversions -------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "operation"),
    [
        (float, "float()"),
        (int, "int()"),
        (bool, "bool()"),
        (complex, "complex()"),
        (lambda s: s.item(), ".item()"),
        (lambda s: s.tolist(), ".tolist()"),
        (lambda s: format(s, ".3f"), "format()"),
        (lambda s: f"{s:.2f}", "format()"),
        (lambda s: math.sqrt(s), "float()"),
        (lambda s: 1 if s else 0, "bool()"),
        (lambda s: s.flat, ".flat"),
    ],
)
def test_host_conversions_raise(call, operation: str) -> None:  # type: ignore[no-untyped-def]
    s = strict(np.array(2.0))
    with pytest.raises(ScalarIndexingError) as info:
        call(s)
    assert operation in str(info.value)
    assert "()" in str(info.value)  # the 0-d shape is named


def test_host_conversions_work_inside_allow_scalar() -> None:
    s = strict(np.array(2.0))
    v = strict(np.array([1.0, 2.0]))
    with allow_scalar():
        assert float(s) == 2.0 and int(s) == 2 and bool(s) and complex(s) == 2 + 0j
        assert s.item() == 2.0 and v.tolist() == [1.0, 2.0]
        assert format(s, ".1f") == "2.0"
        assert list(v.flat) == [1.0, 2.0]


def test_reduction_result_in_an_if_raises(x: StrictArray) -> None:
    with pytest.raises(ScalarIndexingError, match="bool"):
        if np.any(x > 4):
            pass
    with pytest.raises(ScalarIndexingError):
        if np.allclose(x, x):
            pass


def test_repr_and_str_keep_working(x: StrictArray) -> None:
    assert repr(x) == "StrictArray([ 3., -1.,  4., -1.,  5.], dtype=float64)"
    assert str(x) == "[ 3. -1.  4. -1.  5.]"
    assert repr(strict(np.array(2.5))) == "StrictArray(2.5, dtype=float64)"
    assert "StrictArray([[0., 1.]," in repr(strict(np.arange(4.0).reshape(2, 2)))
    assert f"{x}" == str(x) and format(x) == str(x)  # an empty spec is str()


# -- implicit conversion to the host and escape hatches -----------------------------


@pytest.mark.parametrize(
    "call",
    [np.asarray, np.array, lambda x: np.testing.assert_allclose(x, 0.0), lambda x: np.array([x, x])],
    ids=["asarray", "array", "assert_allclose", "array-of-arrays"],
)
def test_implicit_host_conversion_raises_even_when_allowed(x: StrictArray, call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScalarIndexingError, match="to_host"):
        call(x)
    with allow_scalar(), pytest.raises(ScalarIndexingError):
        call(x)


def test_view_as_ndarray_is_refused(x: StrictArray) -> None:
    with pytest.raises(TypeError, match="to_host"):
        x.view(np.ndarray)
    assert x.view(np.int64).dtype == np.int64


def test_to_host_is_an_explicit_copy(x: StrictArray) -> None:
    host = to_host(x)
    assert type(host) is np.ndarray
    host[0] = 100.0
    assert to_host(x)[0] == 3.0
    assert to_host(2.0) == np.array(2.0)
