"""Boolean-mask writes and masked sums become ``xp.where`` (``fixers/mask_where.py``)."""

from __future__ import annotations

import numpy as np

from scalarlint.runtime import disallow_scalar, strict, to_host

RULE = '''\
from array_api_compat import array_namespace


def rrule_relu_mask(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))  # rank 1, like the written array: the mask covers every axis
    y = xp.maximum(x, 0)
    s = xp.sum(x[x > 1])

    def relu_mask_pullback(dy):
        dx = xp.reshape(dy, (-1,)) * 1
        dx[x <= 0] = 0
        dx[x > 1] += dy[x > 1] * 2
        return (dx,)

    return s, relu_mask_pullback
'''


def _run(text: str, x: np.ndarray, dy: np.ndarray, on_strict: bool) -> tuple[float, np.ndarray]:
    namespace: dict[str, object] = {}
    exec(compile(text, "rule", "exec"), namespace)
    rule = namespace["rrule_relu_mask"]
    if not on_strict:
        s, pullback = rule(x)  # type: ignore[operator]
        return float(s), np.asarray(pullback(dy)[0])
    with disallow_scalar():
        s, pullback = rule(strict(x))  # type: ignore[operator]
        dx = pullback(strict(dy))[0]
    return float(to_host(s)), np.asarray(to_host(dx))


def test_mask_writes_and_sums_become_where_with_the_same_values(snip) -> None:
    outcome = snip.fixed(RULE)
    assert "    s = xp.sum(xp.where(x > 1, x, 0))\n" in outcome.text
    assert "        dx[...] = xp.where(x <= 0, 0, dx)\n" in outcome.text
    assert "        dx[...] = xp.where(x > 1, dx + (dy * 2), dx)\n" in outcome.text
    rng = np.random.default_rng(2)
    for n in (1, 4, 9):
        x, dy = rng.integers(-2, 4, size=n).astype(float), rng.normal(size=n)
        s, dx = _run(RULE, x, dy, on_strict=False)
        for on_strict in (False, True):  # and on the strict array, with no mask left to count
            s2, dx2 = _run(outcome.text, x, dy, on_strict)
            assert s2 == s
            np.testing.assert_array_equal(dx2, dx)


def test_is_unsafe_and_left_alone_where_it_cannot_keep_the_meaning(snip) -> None:
    assert {f.applicability for _, f in snip.fixes_of(RULE, "SL106")} == {snip.UNSAFE}
    cases = {
        "another mask in the value": RULE.replace("dx[x > 1] += dy[x > 1] * 2", "dx[x > 1] += dy[x > 2]"),
        "an attribute target": RULE.replace("dx[x <= 0] = 0", "self.dx[x <= 0] = 0"),
        "a masked max": RULE.replace("xp.sum(x[x > 1])", "xp.max(x[x > 1])"),
        # a 1-D mask on a 2-D array picks whole rows; `xp.where` would broadcast it over columns
        "a lower-rank mask": RULE.replace("dx[x <= 0] = 0", "G = xp.reshape(dy, (2, -1))\n        G[xp.sum(G, axis=1) > 0] = 0"),
        "a mask of unknown rank": RULE.replace("dx[x <= 0] = 0", "dx[dy > 0] = 0"),
    }
    for why, text in cases.items():
        changed = [line for line in text.splitlines() if line not in RULE.splitlines()]
        fixed = {snip.apply_one(text, f) for _, f in snip.fixes_of(text, "SL106")}
        assert all(line in out for out in fixed for line in changed), why


def test_a_comment_above_the_write_stays_once(snip) -> None:
    text = RULE.replace("        dx[x <= 0] = 0\n", "        # no gradient below zero\n        dx[x <= 0] = 0\n")
    fixed = snip.fixed(text).text
    assert fixed.count("# no gradient below zero") == 1
    assert "        # no gradient below zero\n        dx[...] = xp.where(x <= 0, 0, dx)\n" in fixed


DTYPES = '''\
import numpy as np


def rrule_half(x, w):
    def pullback(dy):
        dx = np.zeros_like(x)
        dx[x > 0] = w[x > 0] * dy
        return (dx,)

    return x, pullback
'''


def test_the_write_keeps_the_arrays_dtype_as_the_masked_write_did(snip) -> None:
    """``dx[m] = v`` casts ``v`` to ``dx``'s dtype; ``xp.where`` alone would promote (float16 with
    a float64 value: float64). The whole write ``dx[...] = ...`` casts as the masked one did."""
    fixed = snip.fixed(DTYPES).text
    assert "        dx[...] = np.where(x > 0, w * dy, dx)\n" in fixed
    rng = np.random.default_rng(4)
    for shape in ((), (1,), (7,)):
        x = rng.normal(size=shape).astype(np.float16)
        w = rng.normal(size=shape)  # float64
        namespace: dict[str, object] = {}
        results = []
        for text in (DTYPES, fixed):
            exec(compile(text, "rule", "exec"), namespace)
            _, pullback = namespace["rrule_half"](x, w)  # type: ignore[operator]
            results.append(pullback(np.float64(1.5))[0])
        assert results[1].dtype == results[0].dtype == np.float16
        np.testing.assert_array_equal(results[1], results[0])
