"""Element loops (SL101/SL102 in a loop over data) become whole-array statements."""

from __future__ import annotations

import numpy as np
import pytest

from scalarlint.runtime import strict, to_host

HEAD = """\
import array_api_compat


def rrule_loop(x, w, dy, lo, hi):
    xp = array_api_compat.array_namespace(x)
    dx = xp.zeros_like(x)
    g = xp.ones_like(w)
"""


def rule(*lines: str) -> str:
    return HEAD + "".join(f"    {line}\n" for line in lines) + "    return dx, g\n"


def run(code: str, *args):
    scope: dict = {}
    exec(compile(code, "rule", "exec"), scope)
    return scope["rrule_loop"](*args)


CASES = {
    "scale": (["for i in range(len(x)):", "    dx[i] = xp.sign(x[i]) * dy"], "dx[:len(x)] = xp.sign(x) * dy"),
    "other-array": (["for i in range(x.shape[0]):", "    g[i] = w[i] * x[i] + abs(x[i])"], "g[:x.shape[0]] = w[:x.shape[0]] * x + xp.abs(x)"),
    "in-place-own": (["for i in range(len(x)):", "    x[i] *= 2"], "x[:] *= 2"),
    "reversed-two-statements": (
        ["for i in reversed(range(len(x))):", "    dx[i] = x[i] * dy", "    g[i] += dx[i] - 1"],
        "dx[:len(x)] = x * dy\n    g[:len(x)] += dx[:len(x)] - 1",
    ),
    "guard-chained": (
        ["for i in range(len(x)):", "    if lo <= x[i] <= hi:", "        dx[i] = w[i]"],
        "dx[:len(x)] = xp.where((lo <= x) & (x <= hi), w[:len(x)], dx[:len(x)])",
    ),
    "guard-bool-ops-augmented": (
        ["for i in range(len(x)):", "    if not x[i] > hi and x[i] != 0:", "        g[i] -= x[i] / 2"],
        "g[:len(x)] = xp.where(~(x > hi) & (x != 0), g[:len(x)] - (x / 2), g[:len(x)])",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_loop_becomes_whole_array_statements(snip, case: str) -> None:
    lines, expected = CASES[case]
    text = rule(*lines)
    found = snip.fixes_of(text)
    assert found and all(f.applicability is snip.UNSAFE and "loop" in f.message for _, f in found)
    outcome = snip.fixed(text)
    assert f"    {expected}\n" in outcome.text, outcome.text
    assert outcome.remaining == []
    rng = np.random.default_rng(3)
    for n in (1, 2, 5):
        x = rng.integers(-3, 4, size=n).astype(float)
        w = rng.normal(size=n + 2)  # longer than the loop: only its first n elements change
        args = (0.5, -1.0, 2.0)
        before = run(snip.source(text).text, x.copy(), w.copy(), *args)
        after = run(outcome.text, x.copy(), w.copy(), *args)
        for a, b in zip(before, after):
            np.testing.assert_array_equal(a, b)
        on_device = run(outcome.text, strict(x.copy()), strict(w.copy()), *args)
        for a, b in zip(before, on_device):
            np.testing.assert_array_equal(a, to_host(b))


@pytest.mark.parametrize(
    "lines",
    [
        # a loop-carried value (a running sum is running_scan's; a difference is no scan)
        ["acc = 0.0", "for i in range(len(x)):", "    acc = acc - x[i]", "    dx[i] = acc"],
        ["for i in range(1, len(x)):", "    dx[i] = x[i - 1]"],  # another element
        ["for i in range(len(x)):", "    dx[i] = x[i] * i"],  # the index as a value
        ["for i in range(len(x)):", "    dx[i] = foo(x[i])"],  # unknown function of an element
        ["for i in range(len(x)):", "    dx[i] = x[i]", "    if x[i] > 0:", "        break"],
        ["for i in range(len(x)):", "    if x[i] > 0:", "        dx[i] = 1.0", "    else:", "        dx[i] = 2.0"],
        ["for i in range(len(x)):", "    if x[i] > 0:", "        x[i] = 0.0"],  # the mask would change
        ["for i in range(len(x)):", "    dx[i] = x[i]", "k = i"],  # the index is used after the loop
        ["for i in range(len(x)):", "    for j in range(len(w)):", "        g[j] = x[i] * w[j]"],  # a nest over data
    ],
)
def test_loops_that_are_not_elementwise_are_left_alone(snip, lines: list[str]) -> None:
    text = rule(*lines)
    assert [d for d in snip.diagnostics(text) if d.code in ("SL101", "SL102")]
    assert all("loop" not in f.message for _, f in snip.fixes_of(text))
