"""``while`` index searches become ``argmax`` of a mask (``fixers/while_search.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from scalarlint.runtime import disallow_scalar, strict, to_host

RULE = '''\
import array_api_compat


def rrule_norm_neg_inf(x):
    xp = array_api_compat.array_namespace(x)
    x = xp.reshape(x, (-1,))  # rank 1: x[i] is one element
    y = xp.min(xp.abs(x))

    def norm_neg_inf_pullback(dy):
        i = x.shape[0] - 1
        while abs(x[i]) != y:
            i -= 1
        dx = xp.zeros_like(x)
        dx[i] = xp.sign(x[i]) * dy
        return (dx,)

    return y, norm_neg_inf_pullback
'''

FORWARD = RULE.replace("        i = x.shape[0] - 1\n        while abs(x[i]) != y:\n            i -= 1\n", "        i = 0\n        while not abs(x[i]) == y:\n            i += 1\n")


@pytest.mark.parametrize("text", [RULE, FORWARD], ids=["last", "first"])
def test_the_search_becomes_argmax_and_finds_the_same_index(snip, text: str) -> None:
    outcome = snip.fixed(text)
    assert "while" not in outcome.text and "argmax" in outcome.text
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    exec(compile(text, "before", "exec"), before)
    exec(compile(outcome.text, "after", "exec"), after)
    rng = np.random.default_rng(4)
    for n in (1, 3, 6, 9):
        x = rng.integers(-3, 4, size=n).astype(float)  # ties of |x|: first or last matters
        expected = before["rrule_norm_neg_inf"](x)[1](np.asarray(2.0))[0]  # type: ignore[operator]
        with disallow_scalar():
            _, pullback = after["rrule_norm_neg_inf"](strict(x))  # type: ignore[operator]
            got = to_host(pullback(strict(np.asarray(2.0)))[0])
        np.testing.assert_array_equal(got, expected)


def test_the_backward_search_reads_as_findlast(snip) -> None:
    assert "        i = x.shape[0] - 1 - xp.argmax(xp.astype(xp.flip(xp.abs(x) == y, axis=0), xp.int8))\n" in snip.fixed(RULE).text
    assert "        i = xp.argmax(xp.astype(xp.abs(x) == y, xp.int8))\n" in snip.fixed(FORWARD).text  # `not` negated away


def test_not_offered_for_other_while_loops(snip) -> None:
    cases = {
        "a step of 2": RULE.replace("i -= 1", "i -= 2"),
        "more in the body": RULE.replace("            i -= 1\n", "            i -= 1\n            dy = dy * 2\n"),
        "starts elsewhere": RULE.replace("i = x.shape[0] - 1", "i = x.shape[0] - 2"),
    }
    for why, text in cases.items():
        assert not any("`while` search" in f.message for _, f in snip.fixes_of(text)), why
