"""Running sums and products carried through a loop become one scan (``fixers/running_scan.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from scalarlint.runtime import disallow_scalar, strict, to_host

RULE = '''\
import array_api_compat


def rrule_cumsum(x):
    xp = array_api_compat.array_namespace(x)
    y = xp.cumsum(x)

    def cumsum_pullback(dy):
        dx = xp.zeros_like(x)
        acc = 0.0
        for k in reversed(range(len(x))):
            acc = acc + dy[k]
            dx[k] = acc
        return (dx,)

    return y, cumsum_pullback
'''


def _run(text: str, x: np.ndarray, dy: np.ndarray, on_strict: bool) -> np.ndarray:
    namespace: dict[str, object] = {}
    exec(compile(text, "rule", "exec"), namespace)
    rule = next(v for k, v in namespace.items() if k.startswith("rrule_"))
    if not on_strict:
        _, pullback = rule(x)  # type: ignore[operator]
        return np.asarray(pullback(dy)[0])
    with disallow_scalar():
        _, pullback = rule(strict(x))  # type: ignore[operator]
        return np.asarray(to_host(pullback(strict(dy))[0]))


VARIANTS = {
    "reversed sum": RULE,
    "forward sum": RULE.replace("reversed(range(len(x)))", "range(len(x))"),
    "range(n - 1, -1, -1)": RULE.replace("reversed(range(len(x)))", "range(len(x) - 1, -1, -1)"),
    "augmented, on the right": RULE.replace("acc = acc + dy[k]", "acc += dy[k] * x[k]"),
    "accumulator on the right": RULE.replace("acc = acc + dy[k]", "acc = 2 * dy[k] + acc"),
    "a start of 3": RULE.replace("acc = 0.0", "acc = 3"),
    "product": RULE.replace("acc = 0.0", "acc = 1.0").replace("acc = acc + dy[k]", "acc = acc * dy[k]"),
    "product from -2": RULE.replace("acc = 0.0", "acc = -2").replace("acc = acc + dy[k]", "acc *= dy[k] - x[k]"),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_loop_becomes_a_scan_with_the_same_values(snip, name: str) -> None:
    text = VARIANTS[name]
    outcome = snip.fixed(text)
    assert "for k in" not in outcome.text, outcome.text
    assert ("cumprod" if name.startswith("product") else "cumsum") in outcome.text
    assert ("xp.flip(" in outcome.text) == ("reversed" in text or "-1, -1" in text)
    rng = np.random.default_rng(3)
    for n in (1, 2, 5, 8):
        x, dy = rng.integers(-3, 4, size=n).astype(float), rng.normal(size=n)
        expected = _run(text, x, dy, on_strict=False)
        np.testing.assert_allclose(_run(outcome.text, x, dy, on_strict=False), expected, rtol=1e-12, atol=1e-12)
        # no scalar access left: the fixed rule runs on the strict array
        np.testing.assert_allclose(_run(outcome.text, x, dy, on_strict=True), expected, rtol=1e-12, atol=1e-12)


def test_the_reversed_sum_reads_as_a_reverse_cumsum(snip) -> None:
    outcome = snip.fixed(RULE)
    assert "        dx[:len(x)] = xp.flip(xp.cumsum(xp.flip(dy[:len(x)], axis=0), axis=0), axis=0)\n" in outcome.text
    assert "acc" not in outcome.text


def test_is_unsafe_and_idempotent(snip) -> None:
    kinds = {f.applicability for _, f in snip.fixes_of(RULE) if "cumsum" in f.message}
    assert kinds == {snip.UNSAFE}
    once = snip.fixed(RULE).text
    assert snip.fixed(once).text == once


def test_not_offered_when_the_loop_is_not_a_running_scan(snip) -> None:
    cases = {
        "accumulator read after the loop": RULE.replace("        return (dx,)\n", "        return (dx * acc,)\n"),
        "exclusive scan (write before the update)": RULE.replace(
            "            acc = acc + dy[k]\n            dx[k] = acc\n", "            dx[k] = acc\n            acc = acc + dy[k]\n"
        ),
        "value reads the target": RULE.replace("acc = acc + dy[k]", "acc = acc + dx[k]"),
        "start is not a number": RULE.replace("acc = 0.0", "acc = dy[0]"),
        "not a sum or product": RULE.replace("acc = acc + dy[k]", "acc = acc - dy[k]"),
        "writes something else": RULE.replace("dx[k] = acc", "dx[k] = acc * 2"),
        "index used after the loop": RULE.replace("        return (dx,)\n", "        return (dx * k,)\n"),
        "loop starts at 1": RULE.replace("reversed(range(len(x)))", "range(1, len(x))"),
    }
    for why, text in cases.items():
        assert not any("running" in f.message for _, f in snip.fixes_of(text)), why


def test_comments_in_the_loop_are_kept(snip) -> None:
    text = RULE.replace("            dx[k] = acc\n", "            dx[k] = acc  # running total\n")
    outcome = snip.fixed(text)
    assert "        # running total\n        dx[:len(x)] = xp.flip(" in outcome.text


REDUCTION = '''\
from array_api_compat import array_namespace


def rrule_normalize(x):
    xp = array_namespace(x)
    nrm = xp.sqrt(xp.sum(x * x))
    y = x / nrm

    def normalize_pullback(dy):
        s = 0.0
        for i in range(len(x)):
            s += float(y[i] * dy[i])
        return ((dy - s * y) / nrm,)

    return y, normalize_pullback
'''


@pytest.mark.parametrize(
    "variant",
    ["as written", "a product from 2", "no float()"],
)
def test_a_reduction_loop_becomes_one_reduction(snip, variant: str) -> None:
    text = {
        "as written": REDUCTION,
        "a product from 2": REDUCTION.replace("s = 0.0", "s = 2").replace("s += float(y[i] * dy[i])", "s *= y[i] + 2"),
        "no float()": REDUCTION.replace("s += float(y[i] * dy[i])", "s = s + y[i] * dy[i]"),
    }[variant]
    outcome = snip.fixed(text)
    assert "for i in" not in outcome.text
    assert ("2 * xp.prod(y[:len(x)] + 2, axis=0)" if "product" in variant else "s = xp.sum(y[:len(x)] * dy[:len(x)], axis=0)") in outcome.text
    rng = np.random.default_rng(5)
    for n in (1, 3, 6):
        x, dy = rng.normal(size=n), rng.normal(size=n)
        expected = _run(text, x, dy, on_strict=False)
        np.testing.assert_allclose(_run(outcome.text, x, dy, on_strict=False), expected, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(_run(outcome.text, x, dy, on_strict=True), expected, rtol=1e-12, atol=1e-12)


def test_a_reduction_is_not_offered_for_other_loops(snip) -> None:
    cases = {
        "reads the accumulator": REDUCTION.replace("s += float(y[i] * dy[i])", "s += s * y[i]"),
        "a difference": REDUCTION.replace("s += float(y[i] * dy[i])", "s -= y[i]"),
        "start is not a number": REDUCTION.replace("s = 0.0", "s = dy[0]"),
        "index used after": REDUCTION.replace("        return ((dy - s * y) / nrm,)\n", "        return ((dy - s * y * i) / nrm,)\n"),
    }
    for why, text in cases.items():
        assert not any("loop with one" in f.message for _, f in snip.fixes_of(text)), why
