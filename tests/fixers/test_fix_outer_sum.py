"""Sums of outer products become one matrix product (``fixers/outer_sum.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from scalarlint.runtime import disallow_scalar, strict, to_host

RULE = '''\
from array_api_compat import array_namespace


def rrule_svd_values(A):
    xp = array_namespace(A)
    U, s, Vh = xp.linalg.svd(A, full_matrices=False)

    def svd_values_pullback(ds):
        k = s.shape[0]
        dA = xp.zeros_like(A)
        for i in range(k):
            dA += ds[i] * xp.outer(U[:, i], Vh[i, :])
        return (dA,)

    return s, svd_values_pullback
'''

VARIANTS = {
    "columns and rows": (RULE, "        dA += (U[:, :k] * ds[:k]) @ Vh[:k, :]\n"),
    "rows of a transposed factor": (RULE.replace("Vh[i, :]", "Vh.T[:, i]"), "        dA += (U[:, :k] * ds[:k]) @ Vh.T[:, :k].T\n"),
    # (with no scale there is no element read, nothing to report: the loop is a sum of views)
    "scale on the right, a bare row": (
        RULE.replace("ds[i] * xp.outer(U[:, i], Vh[i, :])", "xp.outer(U[:, i], Vh[i]) * ds[i]"), "        dA += (U[:, :k] * ds[:k]) @ Vh[:k, :]\n"
    ),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_loop_becomes_one_product_with_the_same_values(snip, name: str) -> None:
    text, line = VARIANTS[name]
    outcome = snip.fixed(text)
    assert line in outcome.text, outcome.text
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    exec(compile(text, "before", "exec"), before)
    exec(compile(outcome.text, "after", "exec"), after)
    A, ds = np.random.default_rng(1).normal(size=(5, 3)), np.array([1.0, -2.0, 0.5])
    expected = before["rrule_svd_values"](A)[1](ds)[0]  # type: ignore[operator]
    with disallow_scalar():
        _, pullback = after["rrule_svd_values"](strict(A))  # type: ignore[operator]
        got = to_host(pullback(strict(ds))[0])
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_not_offered_for_other_sums(snip) -> None:
    cases = {
        "an element of the matrix as the scale": RULE.replace("ds[i] *", "U[i, i] *"),
        "a diagonal vector": RULE.replace("U[:, i]", "U[i, i]"),
        "subtraction": RULE.replace("dA += ", "dA -= "),
        "the accumulator in the value": RULE.replace("ds[i] * xp.outer", "dA[0, 0] * xp.outer"),
    }
    for why, text in cases.items():
        assert not any("outer products" in f.message for _, f in snip.fixes_of(text)), why
