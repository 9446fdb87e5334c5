"""The no-array-api-compat path (``rules._shim``), as used on a bare GPU box.

Two checks, both on CPU: (1) with ``array_api_compat`` hidden, every case gives
the same forward and cotangents as with it; (2) through a NumPy-like module
that lacks the newer array-API names (as CuPy 13 does: no ``concat``,
``permute_dims``, ``cumulative_sum``, ``linalg.trace``, ``stable=``...), the
shim supplies them and results are unchanged.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np
import pytest

import scalarlint.rules._portable as portable
import scalarlint.rules._shim as shim
from scalarlint.rules import RULES

import rule_cases as cases  # tests/rules is on sys.path (pytest's default import mode)

_NEWER_NAMES = ("concat", "permute_dims", "matrix_transpose", "astype", "isdtype", "cumulative_sum", "cumulative_prod", "bool")


def _legacy_numpy() -> types.ModuleType:
    """NumPy without the array-API-era names, with CuPy-style sort signatures."""
    legacy = types.ModuleType("cupy")  # named like CuPy so the shim takes its CuPy branch
    for name in dir(np):
        if name not in _NEWER_NAMES and not name.startswith("__"):
            setattr(legacy, name, getattr(np, name))
    linalg = types.ModuleType("cupy.linalg")
    for name in dir(np.linalg):
        if name not in ("trace", "vector_norm", "matrix_transpose") and not name.startswith("__"):
            setattr(linalg, name, getattr(np.linalg, name))
    legacy.linalg = linalg

    def sort(a: Any, axis: int = -1, kind: Any = None) -> Any:
        assert kind is None
        return np.sort(a, axis=axis, kind="stable")

    def argsort(a: Any, axis: int = -1, kind: Any = None) -> Any:
        assert kind is None
        return np.argsort(a, axis=axis, kind="stable")

    def arange(*args: Any, **kwargs: Any) -> Any:
        assert "device" not in kwargs, "the shim must drop device="
        return np.arange(*args, **kwargs)

    legacy.sort, legacy.argsort, legacy.arange = sort, argsort, arange
    return legacy


def _run(case: Any) -> tuple[Any, Any]:
    args = case.make_args()
    y, pullback = RULES[case.rule](*args, **case.kwargs)
    out = case.output(y)
    dy = np.random.default_rng(5).standard_normal(np.shape(out))
    seed = (dy, None) if case.rule in ("findmax", "findmin") else dy
    with np.errstate(all="ignore"):
        return out, pullback(seed)


def _assert_same(a: Any, b: Any) -> None:
    if b is None:
        assert a is None
    elif isinstance(b, tuple):
        assert isinstance(a, tuple) and len(a) == len(b)
        for u, v in zip(a, b):
            _assert_same(u, v)
    else:
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-14)


@pytest.fixture
def no_compat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(portable, "_compat", None)


@pytest.mark.parametrize("case", cases.ALL_CASES, ids=[c.id for c in cases.ALL_CASES])
def test_shim_matches_array_api_compat(case: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    want = _run(case)
    monkeypatch.setattr(portable, "_compat", None)
    assert portable.namespace(np.ones(1)).__class__ is shim.ModuleShim
    legacy = _legacy_numpy()
    monkeypatch.setattr(shim, "_module_for", lambda x: legacy if type(x).__module__.startswith("numpy") else None)
    got = _run(case)
    _assert_same(got[0], want[0])
    _assert_same(got[1], want[1])


def test_shim_supplies_missing_names_only() -> None:
    legacy = _legacy_numpy()
    ns = shim.ModuleShim(legacy)
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(ns.concat((x, x), axis=0), np.concatenate((x, x)))
    np.testing.assert_array_equal(ns.permute_dims(x, (1, 0)), x.T)
    np.testing.assert_array_equal(ns.matrix_transpose(x), x.T)
    assert ns.astype(x, np.int32).dtype == np.int32
    assert ns.isdtype(np.complex64, "complex floating") and not ns.isdtype(np.float64, "complex floating")
    assert ns.isdtype(np.int8, "integral") and ns.isdtype(np.float32, ("integral", "real floating"))
    np.testing.assert_array_equal(ns.linalg.trace(np.ones((2, 3, 3))), [3.0, 3.0])
    assert ns.arange(3, device="whatever").shape == (3,)
    # names the module has natively are not replaced
    assert shim.ModuleShim(np).concat is np.concat


def test_shim_rejects_mixed_and_unknown_arrays() -> None:
    with pytest.raises(TypeError, match="array-api-compat"):
        shim.namespace(object())
    assert isinstance(shim.namespace(np.ones(2), 1.0, None), shim.ModuleShim)


def test_backend_kind_without_compat(no_compat: None) -> None:
    assert portable.backend_kind(np.ones(2)) == "numpy"
    assert portable.backend_kind(object()) == "other"
