"""StrictArray indexing rows of the table: host ints, device ints, slices, arrays."""

from __future__ import annotations

import operator

import numpy as np
import pytest

from scalarlint.runtime import ScalarIndexingError, StrictArray, allow_scalar, strict, to_host


@pytest.fixture
def x() -> StrictArray:
    return strict(np.array([3.0, -1.0, 4.0, -1.5, 5.0]))


@pytest.fixture
def m() -> StrictArray:
    return strict(np.arange(12.0).reshape(3, 4))


# -- row 1: host ints selecting one element ------------------------------------


@pytest.mark.parametrize("index", [1, -1, np.int64(2), np.array(3)])
def test_host_int_getindex_raises(x: StrictArray, index: object) -> None:
    with pytest.raises(ScalarIndexingError) as info:
        x[index]
    message = str(info.value)
    assert info.value.operation.startswith("getindex")
    assert info.value.shape == (5,)
    assert "getindex" in message and "(5,)" in message
    assert "x[i:i+1]" in message and "allow_scalar()" in message and "vectorize" in message


def test_host_int_setindex_raises(x: StrictArray) -> None:
    with pytest.raises(ScalarIndexingError, match="setindex") as info:
        x[2] = 0.0
    assert "(5,)" in str(info.value)
    assert to_host(x)[2] == 4.0  # nothing was written


def test_augmented_assignment_raises(x: StrictArray) -> None:
    with pytest.raises(ScalarIndexingError, match="getindex"):
        x[0] += 1.0


def test_two_host_ints_on_a_matrix_raise(m: StrictArray) -> None:
    with pytest.raises(ScalarIndexingError, match=r"x\[1, 2\]"):
        m[1, 2]
    with pytest.raises(ScalarIndexingError):
        m[1, 2] = 7.0
    with pytest.raises(ScalarIndexingError):
        m[..., 1, 2]


def test_ellipsis_with_a_full_set_of_ints_is_still_scalar(x: StrictArray) -> None:
    with pytest.raises(ScalarIndexingError):
        x[..., 0]


def test_allowed_scalar_access_returns_a_0d_array_and_writes(x: StrictArray) -> None:
    with allow_scalar():
        value = x[2]
        x[0] = 10.0
        x[1] += 1.0
    assert isinstance(value, StrictArray) and value.shape == ()
    assert to_host(value) == 4.0
    assert to_host(x).tolist() == [10.0, 0.0, 4.0, -1.5, 5.0]


# -- note: one host int on a 2-D array is a row, not a scalar --------------------


def test_host_int_row_of_a_matrix_is_allowed(m: StrictArray) -> None:
    row = m[1]
    assert isinstance(row, StrictArray) and row.shape == (4,)
    assert to_host(row).tolist() == [4.0, 5.0, 6.0, 7.0]
    m[2] = 0.0
    assert to_host(m)[2].tolist() == [0.0] * 4
    assert m[1, ...].shape == (4,)


# -- row 2: 0-d device integer index: gather/scatter, allowed --------------------


def test_device_integer_index_gathers_and_scatters(x: StrictArray) -> None:
    i = np.argmax(x)
    assert isinstance(i, StrictArray) and i.shape == ()
    picked = x[i]
    assert isinstance(picked, StrictArray) and picked.shape == ()
    assert to_host(picked) == 5.0
    dx = np.zeros_like(x)
    dx[i] = 2.5
    assert to_host(dx).tolist() == [0, 0, 0, 0, 2.5]


def test_device_integer_mixed_with_host_int_on_a_matrix(m: StrictArray) -> None:
    j = strict(np.array(2))
    assert to_host(m[1, j]) == 6.0
    m[1, j] = -1.0
    assert to_host(m)[1, 2] == -1.0


# -- row 3: device scalars as slice bounds: __index__ syncs -----------------------


def test_device_scalar_slice_bounds_raise(x: StrictArray) -> None:
    i = np.argmax(x)
    with pytest.raises(ScalarIndexingError, match="slice bound"):
        x[i : i + 1]
    with pytest.raises(ScalarIndexingError):
        x[i : i + 1] = 0.0
    with pytest.raises(ScalarIndexingError):
        x[: strict(np.array(2))]


def test_device_scalar_slice_bounds_work_when_allowed(x: StrictArray) -> None:
    i = np.argmax(x)
    with allow_scalar():
        window = x[i : i + 1]
    assert to_host(window).tolist() == [5.0]


def test_index_protocol_raises_outside_allow_scalar() -> None:
    n = strict(np.array(3))
    with pytest.raises(ScalarIndexingError, match="__index__"):
        operator.index(n)
    with pytest.raises(ScalarIndexingError):
        range(n)  # type: ignore[call-overload]
    with allow_scalar():
        assert list(range(n)) == [0, 1, 2]  # type: ignore[call-overload]


# -- row 4: slices, row/column selections, integer arrays ------------------------


def test_size_one_slices_are_views(x: StrictArray) -> None:
    window = x[1:2]
    assert isinstance(window, StrictArray) and window.shape == (1,)
    window[...] = 9.0  # a view, as on CuPy
    assert to_host(x)[1] == 9.0
    x[3:4] = np.sign(x[3:4]) * 2.0
    assert to_host(x)[3] == -2.0
    assert to_host(x[-1:]).tolist() == [5.0]


def test_row_and_column_slices(m: StrictArray) -> None:
    assert m[1, :].shape == (4,)
    assert m[:, 2].shape == (3,)
    assert m[1:2, 2:3].shape == (1, 1)
    assert m[None].shape == (1, 3, 4)
    assert m[...].shape == (3, 4)


@pytest.mark.parametrize(
    "index",
    [
        [0, 2, 2],
        np.array([0, 2, 2]),
        "device",
    ],
    ids=["list", "host-array", "device-array"],
)
def test_integer_array_indices(x: StrictArray, index: object) -> None:
    if isinstance(index, str):
        index = strict(np.array([0, 2, 2]))
    picked = x[index]
    assert isinstance(picked, StrictArray)
    assert to_host(picked).tolist() == [3.0, 4.0, 4.0]
    x[index] = 0.0
    assert to_host(x).tolist() == [0.0, -1.0, 0.0, -1.5, 5.0]


def test_zero_d_array_read_with_empty_tuple() -> None:
    s = strict(np.array(1.5))
    assert to_host(s[()]) == 1.5
    assert s[...].shape == ()
