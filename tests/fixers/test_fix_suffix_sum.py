"""Per-element suffix and prefix sums become one cumulative sum (``fixers/suffix_sum.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from scalarlint.runtime import disallow_scalar, strict, to_host

RULE = '''\
from array_api_compat import array_namespace


def rrule_cumprod(x):
    xp = array_namespace(x)
    y = xp.cumprod(x)

    def cumprod_pullback(dy):
        n = x.shape[0]
        dx = xp.zeros_like(x)
        for i in range(n):
            s = 0.0
            for k in range(i, n):
                s += dy[k] * y[k]
            dx[i] = s / x[i]
        return (dx,)

    return y, cumprod_pullback
'''

VARIANTS = {
    "suffix": RULE,
    "prefix": RULE.replace("range(i, n)", "range(i + 1)"),
    "prefix from 0, a start of 2": RULE.replace("range(i, n)", "range(0, i + 1)").replace("s = 0.0", "s = 2"),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_same_values_and_strict_clean(snip, name: str) -> None:
    text = VARIANTS[name]
    outcome = snip.fixed(text)
    assert "for i in" not in outcome.text and "for k in" not in outcome.text
    assert ("xp.flip(" in outcome.text) == (name == "suffix")
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    exec(compile(text, "before", "exec"), before)
    exec(compile(outcome.text, "after", "exec"), after)
    rng = np.random.default_rng(11)
    for n in (1, 2, 5, 7):
        x, dy = rng.uniform(0.5, 2.0, size=n), rng.normal(size=n)
        expected = before["rrule_cumprod"](x)[1](dy)[0]  # type: ignore[operator]
        with disallow_scalar():
            _, pullback = after["rrule_cumprod"](strict(x))  # type: ignore[operator]
            got = to_host(pullback(strict(dy))[0])
        np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_not_offered_for_other_nests(snip) -> None:
    cases = {
        "the inner value reads i": RULE.replace("s += dy[k] * y[k]", "s += dy[k] * y[i]"),
        "another inner range": RULE.replace("range(i, n)", "range(i, n - 1)"),
        "a product": RULE.replace("s += dy[k] * y[k]", "s *= dy[k]"),
        "the sum used after the loop": RULE.replace("        return (dx,)\n", "        return (dx * s,)\n"),
    }
    for why, text in cases.items():
        assert not any("cumulative sum" in f.message for _, f in snip.fixes_of(text)), why
