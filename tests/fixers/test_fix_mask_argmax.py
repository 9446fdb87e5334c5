"""The search fixers' ``argmax`` of a boolean mask runs where the array API standard applies
(``fixers/mask_argmax.py``).

The standard defines ``argmax`` for real-valued arrays only; PyTorch (also through
``array_api_compat.torch``) refuses ``bool`` input. Each search form is fixed, then run in a
namespace that refuses ``argmax`` of a boolean array as PyTorch does (NumPy underneath), and,
where PyTorch is installed, on CPU tensors through ``array_api_compat``: the index found must be
the one the loop found on NumPy. An imported ``numpy`` module keeps the bare ``argmax``
(``tests/fixers/test_fix_vectorized_search.py``): NumPy before 2.0 has no ``np.astype``.
"""

from __future__ import annotations

import types
from typing import Any

import array_api_compat
import array_api_compat.numpy as compat_numpy
import numpy as np
import pytest

HEAD = """\
import array_api_compat


def rrule_search(x, y):
    xp = array_api_compat.array_namespace(x)
    x = xp.reshape(x, (-1,))  # rank 1: x[i] is one element
"""

SEARCHES = {
    "findlast-loop": ["i = -1", "for j in range(len(x)):", "    if abs(x[j]) == y:", "        i = j"],
    "findfirst-loop-break": ["i = 0", "for j in range(x.shape[0]):", "    if x[j] == y:", "        i = j", "        break"],
    "findfirst-reversed": ["i = 0", "for j in reversed(range(len(x))):", "    if x[j] == y:", "        i = j"],
    "next-default": ["i = next((j for j in range(len(x)) if x[j] == y), -1)"],
    "max-generator": ["i = max(j for j in range(len(x)) if x[j] == y or x[j] < -2)"],
    "listcomp-last": ["i = [j for j in range(len(x)) if x[j] == y][-1]"],
    "flatnonzero-first": ["i = xp.flatnonzero(x == y)[0]"],
    "nonzero-tuple": ["i = xp.nonzero(x == y)[0][-1]"],
    "while-first": ["i = 0", "while not abs(x[i]) == y:", "    i += 1"],
    "while-last": ["i = x.shape[0] - 1", "while x[i] != y:", "    i -= 1"],
}


def rule(lines: list[str]) -> str:
    return HEAD + "".join(f"    {line}\n" for line in lines) + "    dx = xp.zeros_like(x)\n    dx[i] = x[i] * 2\n    return dx, i\n"


class _StandardArgmax(types.SimpleNamespace):
    """``array_api_compat.numpy`` whose ``argmax``/``argmin`` refuse a boolean array, as the
    standard (real-valued input only) and PyTorch do."""

    def __getattr__(self, name: str) -> Any:
        return getattr(compat_numpy, name)

    @staticmethod
    def argmax(x: Any, /, **kwargs: Any) -> Any:
        if x.dtype == np.bool_:
            raise TypeError("argmax(): does not support bool input")
        return compat_numpy.argmax(x, **kwargs)


def run(code: str, x: Any, y: Any, namespace: Any = None) -> tuple[Any, Any]:
    scope: dict[str, Any] = {}
    exec(compile(code, "rule", "exec"), scope)
    if namespace is not None:  # the rule's `array_api_compat.array_namespace(x)` returns it
        scope["array_api_compat"] = types.SimpleNamespace(array_namespace=lambda *arrays: namespace)
    return scope["rrule_search"](x, y)  # type: ignore[no-any-return]


def _inputs() -> list[tuple[np.ndarray, float]]:
    rng = np.random.default_rng(7)
    cases = []
    for n in range(1, 8):
        for _ in range(5):
            x = rng.integers(-3, 4, size=n).astype(float)
            cases.append((x, float(abs(x[rng.integers(0, n)]))))  # a match (of x or |x|) exists, often with ties
    return [(x, y) for x, y in cases if np.any(x == y)]


@pytest.mark.parametrize("form", sorted(SEARCHES))
def test_the_fixed_search_runs_where_argmax_refuses_booleans(snip, form: str) -> None:
    text = rule(SEARCHES[form])
    outcome = snip.fixed(text)
    assert "xp.astype(" in outcome.text and "xp.int8)" in outcome.text, outcome.text
    for x, y in _inputs():
        with pytest.raises(TypeError, match="bool"):  # the namespace does refuse a boolean argmax
            _StandardArgmax().argmax(x == y)
        before_dx, before_i = run(text, x, y)
        after_dx, after_i = run(outcome.text, x, y, _StandardArgmax())
        assert int(after_i) == before_i, (form, x, y, outcome.text)
        np.testing.assert_array_equal(after_dx, before_dx)


@pytest.mark.parametrize("form", sorted(SEARCHES))
def test_the_fixed_search_runs_on_torch(snip, form: str) -> None:
    torch = pytest.importorskip("torch")  # an optional backend: the test above needs nothing
    text = rule(SEARCHES[form])
    fixed = snip.fixed(text).text
    for x, y in _inputs():
        before_dx, before_i = run(text, x, y)
        after_dx, after_i = run(fixed, torch.asarray(x), torch.asarray(y))
        assert int(after_i) == before_i, (form, x, y, fixed)
        np.testing.assert_array_equal(after_dx.numpy(), before_dx)


@pytest.mark.parametrize("last", [False, True], ids=["first", "last"])
def test_nonzero_of_numbers_finds_the_first_nonzero_not_the_largest(snip, last: bool) -> None:
    text = rule([f"i = xp.flatnonzero(x)[{-1 if last else 0}]"])
    outcome = snip.fixed(text)
    assert "x != 0" in outcome.text, outcome.text
    rng = np.random.default_rng(3)
    for n in range(1, 9):
        for _ in range(6):
            x = rng.integers(-2, 4, size=n).astype(float)
            if not np.any(x):
                continue
            before_dx, before_i = run(text, x, 0.0)
            after_dx, after_i = run(outcome.text, x, 0.0, _StandardArgmax())
            assert int(after_i) == before_i, (x, outcome.text)
            np.testing.assert_array_equal(after_dx, before_dx)


def test_the_namespace_under_test_is_the_compat_one() -> None:
    assert array_api_compat.array_namespace(np.zeros(2)) is compat_numpy


UNKNOWN_RANK = rule(["mask = x == y", "i = xp.flatnonzero(mask)[-1]"]).replace(
    "    x = xp.reshape(x, (-1,))  # rank 1: x[i] is one element\n", ""
)  # `x` is not reshaped: the mask's rank is unknown


def test_flatnonzero_of_a_mask_of_unknown_rank_counts_with_shape_not_size(snip) -> None:
    fixed = snip.fixed(UNKNOWN_RANK).text
    assert ".size" not in fixed and "xp.reshape(mask, (-1,)).shape[0] - 1" in fixed, fixed  # `.size` is a method in PyTorch
    for x, y in _inputs():
        before_dx, before_i = run(UNKNOWN_RANK, x, y)
        after_dx, after_i = run(fixed, x, y, _StandardArgmax())
        assert int(after_i) == before_i, (x, y, fixed)
        np.testing.assert_array_equal(after_dx, before_dx)


def test_flatnonzero_of_a_mask_of_unknown_rank_runs_on_torch(snip) -> None:
    torch = pytest.importorskip("torch")
    fixed = snip.fixed(UNKNOWN_RANK).text
    for x, y in _inputs():
        _, before_i = run(UNKNOWN_RANK, x, y)
        _, after_i = run(fixed, torch.asarray(x), torch.asarray(y))
        assert int(after_i) == before_i, (x, y, fixed)
