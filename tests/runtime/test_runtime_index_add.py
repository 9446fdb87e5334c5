"""``scalarlint.runtime.index_add``: repeated indices are summed, on every backend here."""

from __future__ import annotations

import importlib.util

import array_api_compat
import numpy as np
import pytest

from scalarlint.runtime import disallow_scalar, index_add, strict, to_host
from scalarlint.runtime._scatter import one_hot_add

TARGET = np.arange(5.0)
IDX = np.array([3, 1, 3, 3, -1])
VALUES = np.array([1.0, 2.0, 10.0, 100.0, 0.5])
EXPECTED = np.array([0.0, 3.0, 2.0, 114.0, 4.5])  # 3 gets 111; -1 (the last row) gets 0.5


def test_numpy_sums_repeated_indices_in_place() -> None:
    target = TARGET.copy()
    assert index_add(target, IDX, VALUES) is target
    np.testing.assert_array_equal(target, EXPECTED)
    naive = TARGET.copy()
    naive[IDX] += VALUES  # what `dx[idx] += v` does: one write per repeated index survives
    assert not np.array_equal(naive, EXPECTED)


def test_rows_of_a_matrix_and_broadcast_values() -> None:
    target = np.zeros((3, 2))
    index_add(target, np.array([0, 2, 0]), np.array([1.0, 5.0]))
    np.testing.assert_array_equal(target, [[2.0, 10.0], [0.0, 0.0], [1.0, 5.0]])


def test_strict_array_without_scalar_access() -> None:
    target = strict(TARGET)
    with disallow_scalar():
        out = index_add(target, strict(IDX), strict(VALUES))
    assert out is target
    np.testing.assert_array_equal(to_host(target), EXPECTED)


def test_array_api_fallback_matches() -> None:
    xp = array_api_compat.array_namespace(TARGET)
    np.testing.assert_array_equal(one_hot_add(xp, TARGET.copy(), IDX % 5, VALUES), EXPECTED)
    matrix = one_hot_add(xp, np.zeros((3, 2)), np.array([0, 2, 0]), np.array([1.0, 5.0]))
    np.testing.assert_array_equal(matrix, [[2.0, 10.0], [0.0, 0.0], [1.0, 5.0]])


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="PyTorch is not installed")
def test_torch() -> None:
    import torch

    target = torch.arange(5.0, dtype=torch.float64)
    out = index_add(target, torch.tensor(IDX), torch.tensor(VALUES))
    assert out is target
    np.testing.assert_array_equal(target.numpy(), EXPECTED)


@pytest.mark.gpu
@pytest.mark.skipif(importlib.util.find_spec("cupy") is None, reason="CuPy is not installed (needs a GPU)")
def test_cupy() -> None:  # pragma: no cover - only with a GPU
    import cupy

    target = cupy.asarray(TARGET)
    index_add(target, cupy.asarray(IDX), cupy.asarray(VALUES))
    np.testing.assert_array_equal(cupy.asnumpy(target), EXPECTED)
