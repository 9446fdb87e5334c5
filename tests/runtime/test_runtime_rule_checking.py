"""scalarlint.testing: check_rule and check_rule_fd on good and bad rules."""

from __future__ import annotations

import sys

import array_api_compat
import numpy as np
import pytest

from scalarlint.runtime import ScalarIndexingError, allow_scalar, strict
from scalarlint.testing import BackendUnavailable, check_rule, check_rule_fd

X = np.array([0.5, -2.0, 1.5, 0.1, -0.7])


# -- the motivating example: ChainRules' norm(x, Inf) pullback ------------------------


def norm_inf_rrule_scalar(x, p):  # type: ignore[no-untyped-def]
    """ChainRules-style: a findlast loop with scalar getindex, then scalar setindex."""
    xp = array_api_compat.array_namespace(x)
    y = xp.max(xp.abs(x))

    def pullback(dy):  # type: ignore[no-untyped-def]
        dx = xp.zeros_like(x)
        i = None
        for k in range(len(x)):
            if abs(x[k]) == y:
                i = k
        dx[i] = xp.sign(x[i]) * dy
        return dx, None

    return y, pullback


def norm_inf_rrule(x, p):  # type: ignore[no-untyped-def]
    """Vectorized: last index of the maximum on the device, written via a one-hot."""
    xp = array_api_compat.array_namespace(x)
    y = xp.max(xp.abs(x))

    def pullback(dy):  # type: ignore[no-untyped-def]
        mask = xp.abs(x) == y
        n = x.shape[0]
        i = n - 1 - xp.argmax(xp.flip(mask))
        dx = xp.where(xp.arange(n) == i, xp.sign(x) * dy, 0)
        return dx, None

    return y, pullback


def test_scalar_norm_pullback_raises_on_the_strict_array() -> None:
    y, pullback = norm_inf_rrule_scalar(strict(X), np.inf)
    with pytest.raises(ScalarIndexingError, match="getindex"):
        pullback(1.0)


def test_scalar_norm_pullback_is_fine_on_numpy() -> None:
    y, pullback = norm_inf_rrule_scalar(X, np.inf)
    assert pullback(1.0)[0].tolist() == [0.0, -1.0, 0.0, 0.0, 0.0]


def test_check_rule_names_rule_backend_and_phase_on_scalar_access() -> None:
    with pytest.raises(ScalarIndexingError) as info:
        check_rule(norm_inf_rrule_scalar, X, np.inf)
    message = str(info.value)
    assert "norm_inf_rrule_scalar" in message
    assert "'strict'" in message and "pullback" in message
    assert "getindex" in message and "(5,)" in message
    assert isinstance(info.value.__cause__, ScalarIndexingError)


def test_vectorized_norm_passes_check_rule_and_fd() -> None:
    check_rule(norm_inf_rrule, X, np.inf)
    check_rule_fd(norm_inf_rrule, X, np.inf)


def test_vectorized_norm_takes_the_last_maximum_like_chainrules() -> None:
    ties = np.array([2.0, -1.0, -2.0, 0.5])
    check_rule(norm_inf_rrule, ties, np.inf, cotangent=np.float64(1.0))
    _, pullback = norm_inf_rrule(ties, np.inf)
    assert pullback(1.0)[0].tolist() == [0.0, 0.0, -1.0, 0.0]


def test_allow_scalar_blesses_a_single_access() -> None:
    def rrule(x):  # type: ignore[no-untyped-def]
        xp = array_api_compat.array_namespace(x)
        i = xp.argmax(x)

        def pullback(dy):  # type: ignore[no-untyped-def]
            dx = xp.zeros_like(x)
            with allow_scalar():
                k = int(i)  # one intended sync
            dx[k : k + 1] = dy
            return (dx,)

        return x[i], pullback

    check_rule(rrule, X)
    check_rule_fd(rrule, X)


# -- rules with several outputs, sequence arguments, index arguments ------------------


def findmax_rrule(x):  # type: ignore[no-untyped-def]
    xp = array_api_compat.array_namespace(x)
    i = xp.argmax(x)

    def pullback(dys):  # type: ignore[no-untyped-def]
        dv, di = dys
        assert di is None  # integer output: no cotangent
        return (xp.where(xp.arange(x.shape[0]) == i, dv, 0.0),)

    return (x[i], i), pullback


def concatenate_rrule(xs):  # type: ignore[no-untyped-def]
    xp = array_api_compat.array_namespace(*xs)
    sizes = [x.shape[0] for x in xs]

    def pullback(dy):  # type: ignore[no-untyped-def]
        parts, start = [], 0
        for size in sizes:
            parts.append(dy[start : start + size])
            start += size
        return (tuple(parts),)

    return xp.concat(xs), pullback


def getindex_rrule(x, idx):  # type: ignore[no-untyped-def]
    xp = array_api_compat.array_namespace(x, idx)

    def pullback(dy):  # type: ignore[no-untyped-def]
        dx = xp.zeros_like(x)
        xp.add.at(dx, idx, dy)
        return dx, None

    return x[idx], pullback


def scaled_sum_rrule(x, *, axis, scale=1.0):  # type: ignore[no-untyped-def]
    xp = array_api_compat.array_namespace(x)

    def pullback(dy):  # type: ignore[no-untyped-def]
        return (xp.expand_dims(dy, axis=axis) * scale * xp.ones_like(x),)

    return xp.sum(x, axis=axis) * scale, pullback


def test_tuple_output_with_an_integer_index() -> None:
    check_rule(findmax_rrule, X)
    check_rule_fd(findmax_rrule, X)


def test_sequence_argument_is_converted_elementwise() -> None:
    xs = [X[:2].copy(), X[2:].copy()]
    check_rule(concatenate_rrule, xs)
    check_rule_fd(concatenate_rrule, xs)


def test_integer_index_array_goes_to_the_device() -> None:
    idx = np.array([0, 2, 2, 4])
    check_rule(getindex_rrule, X, idx)
    check_rule_fd(getindex_rrule, X, idx)


def test_keyword_arguments_and_float32() -> None:
    m = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    check_rule(scaled_sum_rrule, m, axis=1, scale=2.0)
    check_rule_fd(scaled_sum_rrule, m, axis=0, scale=0.5)


def test_explicit_cotangent_is_used() -> None:
    seen: list[object] = []

    def rrule(x):  # type: ignore[no-untyped-def]
        def pullback(dy):  # type: ignore[no-untyped-def]
            seen.append(dy)
            return (dy * 2.0,)

        return x * 2.0, pullback

    check_rule(rrule, X, cotangent=np.ones(5))
    assert type(seen[0]) is np.ndarray and seen[0].tolist() == [1.0] * 5
    assert type(seen[1]).__name__ == "StrictArray"


# -- bugs check_rule and check_rule_fd must catch ----------------------------------------


def test_host_cotangent_for_a_device_input_is_reported() -> None:
    def rrule(x):  # type: ignore[no-untyped-def]
        return x * 2.0, lambda dy: (np.full(5, 2.0) * 1.0,)

    with pytest.raises(AssertionError) as info:
        check_rule(rrule, X, cotangent=np.ones(5))
    message = str(info.value)
    assert "argument 0 ('x')" in message and "StrictArray" in message and "numpy.ndarray" in message


def test_backend_dependent_values_are_reported() -> None:
    def rrule(x):  # type: ignore[no-untyped-def]
        factor = 2.0 if isinstance(x, np.ndarray) else 3.0
        return x * factor, lambda dy: (dy * factor,)

    with pytest.raises(AssertionError, match=r"output y: differs from NumPy: .*max abs err"):
        check_rule(rrule, X)


def test_wrong_number_of_cotangents_is_reported() -> None:
    def rrule(x, p):  # type: ignore[no-untyped-def]
        return x * p, lambda dy: (dy * p,)

    with pytest.raises(AssertionError, match=r"1 cotangent\(s\) for 2 positional"):
        check_rule(rrule, X, 2.0)


def test_none_mismatch_between_backends_is_reported() -> None:
    def rrule(x):  # type: ignore[no-untyped-def]
        return x, lambda dy: ((dy if isinstance(x, np.ndarray) else None),)

    with pytest.raises(AssertionError, match="is None here"):
        check_rule(rrule, X)


def test_wrong_shape_cotangent_is_reported() -> None:
    def rrule(x):  # type: ignore[no-untyped-def]
        xp = array_api_compat.array_namespace(x)
        return xp.sum(x), lambda dy: (xp.sum(x) * dy,)

    with pytest.raises(AssertionError, match="shape"):
        check_rule(rrule, X)


def test_in_place_modification_of_an_input_is_reported() -> None:
    def rrule(x):  # type: ignore[no-untyped-def]
        x *= 2.0
        return x, lambda dy: (dy,)

    with pytest.raises(AssertionError, match="modified its argument 0"):
        check_rule(rrule, X)


def test_wrong_derivative_is_reported_by_finite_differences() -> None:
    def rrule(x):  # type: ignore[no-untyped-def]
        xp = array_api_compat.array_namespace(x)
        return xp.sum(x**2), lambda dy: (3.0 * x * dy,)  # should be 2x

    with pytest.raises(AssertionError) as info:
        check_rule_fd(rrule, X)
    message = str(info.value)
    assert "check_rule_fd(" in message and "argument 0 ('x')" in message
    assert "max abs err" in message and "max rel err" in message and "finite differences" in message


def test_finite_differences_see_each_element_of_a_sequence_argument() -> None:
    def rrule(xs):  # type: ignore[no-untyped-def]
        a, b = xs
        return a * b, lambda dy: ((dy * b, dy * b),)  # d/db should be dy * a

    with pytest.raises(AssertionError, match=r"argument 0 \('xs'\)\[1\]"):
        check_rule_fd(rrule, (X.copy(), X[::-1].copy()))


def test_errors_inside_the_rule_name_rule_and_backend() -> None:
    def rrule(x):  # type: ignore[no-untyped-def]
        if not isinstance(x, np.ndarray):
            raise ValueError("only numpy")
        return x, lambda dy: (dy,)

    with pytest.raises(ValueError) as info:
        check_rule(rrule, X)
    notes = getattr(info.value, "__notes__", [])
    assert any("'strict'" in note and "forward pass" in note for note in notes)


# -- backends that are not there -------------------------------------------------------------


def double_rrule(x):  # type: ignore[no-untyped-def]
    return x * 2.0, lambda dy: (dy * 2.0,)


def test_missing_backend_skips_under_pytest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)  # import fails for certain
    with pytest.raises(pytest.skip.Exception, match=r"cupy: CuPy is not installed.*checked: strict"):
        check_rule(double_rrule, X, backends=("strict", "cupy"))


def test_missing_backend_raises_outside_pytest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    with pytest.raises(BackendUnavailable, match=r"torch: PyTorch is not installed.*checked: none"):
        check_rule(double_rrule, X, backends=("torch",))


def test_available_backends_are_checked_before_skipping(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)
    with pytest.raises(ScalarIndexingError):
        check_rule(norm_inf_rrule_scalar, X, np.inf, backends=("cupy", "strict"))


def test_unknown_backend_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown backend"):
        check_rule(double_rrule, X, backends=("jax",))
