"""Per-element products of the others become two exclusive cumprods (``fixers/product_of_others.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from scalarlint.runtime import disallow_scalar, strict, to_host

CUT = '''\
import array_api_compat


def rrule_prod(x):
    xp = array_api_compat.array_namespace(x)
    y = xp.prod(x)

    def prod_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(len(x)):
            others = xp.concatenate([x[:i], x[i + 1 :]])
            dx[i] = xp.prod(others) * dy
        return (dx,)

    return y, prod_pullback
'''

INNER_LOOP = '''\
import array_api_compat


def rrule_prod(x):
    xp = array_api_compat.array_namespace(x)
    y = xp.prod(x)

    def prod_pullback(dy):
        dx = xp.empty_like(x)
        n = len(x)
        for i in range(n):  # each element
            p = 1.0
            for j in range(n):
                if j != i:
                    p = p * x[j]
            dx[i] = p * dy
        return (dx,)

    return y, prod_pullback
'''


def _pullback(text: str, x: np.ndarray, dy: float, on_strict: bool) -> np.ndarray:
    namespace: dict[str, object] = {}
    exec(compile(text, "rule", "exec"), namespace)
    rule = namespace["rrule_prod"]
    if not on_strict:
        return np.asarray(rule(x)[1](dy)[0])  # type: ignore[operator]
    with disallow_scalar():
        _, pullback = rule(strict(x))  # type: ignore[operator]
        return np.asarray(to_host(pullback(strict(np.asarray(dy)))[0]))


@pytest.mark.parametrize("text", [CUT, INNER_LOOP], ids=["concatenate", "inner loop"])
def test_same_values_with_zeros_on_the_strict_array(snip, text: str) -> None:
    outcome = snip.fixed(text)
    assert "for i in" not in outcome.text and "cumprod" in outcome.text
    rng = np.random.default_rng(7)
    for n in range(0, 8):
        for zeros in (0, 1, 2):
            x = rng.uniform(0.5, 2.0, size=n) * rng.choice([-1.0, 1.0], size=n)
            x[rng.choice(n, size=min(zeros, n), replace=False)] = 0.0
            expected = _pullback(text, x, 1.5, on_strict=False)
            np.testing.assert_allclose(_pullback(outcome.text, x, 1.5, on_strict=False), expected, rtol=1e-12)
            np.testing.assert_allclose(_pullback(outcome.text, x, 1.5, on_strict=True), expected, rtol=1e-12)


def test_the_rewrite_reads_as_left_and_right_products_and_keeps_comments(snip) -> None:
    text = snip.fixed(INNER_LOOP).text
    assert "        # each element\n        p = xp.cumprod(xp.concatenate([xp.ones_like(x[:n][:1]), x[:n][:-1]]), axis=0) * xp.flip(" in text
    assert "        dx[:n] = p * dy\n" in text
    kinds = {f.applicability for _, f in snip.fixes_of(INNER_LOOP) if "product of the others" in f.message}
    assert kinds == {snip.UNSAFE}


def test_not_offered_for_other_products(snip) -> None:
    cases = {
        "keeps x[i] too": INNER_LOOP.replace("                if j != i:\n                    p = p * x[j]\n", "                p = p * x[j]\n"),
        "an else branch": INNER_LOOP.replace("                    p = p * x[j]\n", "                    p = p * x[j]\n                else:\n                    p = p * 2\n"),
        "a sum, not a product": INNER_LOOP.replace("p = p * x[j]", "p = p + x[j]"),
        "product used after the loop": INNER_LOOP.replace("        return (dx,)\n", "        return (dx * p,)\n"),
        "another cut": CUT.replace("x[i + 1 :]", "x[i + 2 :]"),
        "two arrays": CUT.replace("x[i + 1 :]", "dy[i + 1 :]"),
        "the product used twice": CUT.replace("dx[i] = xp.prod(others) * dy", "dx[i] = xp.prod(others) * xp.sum(others)"),
    }
    for why, text in cases.items():
        assert not any("product of the others" in f.message for _, f in snip.fixes_of(text)), why
