"""Vectorized searches (SL103): every recognised form keeps its tie convention."""

from __future__ import annotations

import numpy as np
import pytest

from scalarlint.runtime import strict, to_host

HEAD = """\
import array_api_compat


def rrule_search(x, y):
    xp = array_api_compat.array_namespace(x)
"""

FORMS = {
    "findlast-loop": ["i = -1", "for j in range(len(x)):", "    if abs(x[j]) == y:", "        i = j"],
    "findfirst-loop-break": ["i = 0", "for j in range(x.shape[0]):", "    if x[j] == y:", "        i = j", "        break"],
    "findlast-reversed-break": ["i = 0", "for j in reversed(range(len(x))):", "    if x[j] == y:", "        i = j", "        break"],
    "findlast-range-down": ["i = 0", "for j in range(len(x) - 1, -1, -1):", "    if x[j] >= y and not x[j] > y:", "        i = j", "        break"],
    "findfirst-reversed": ["i = 0", "for j in reversed(range(len(x))):", "    if x[j] == y:", "        i = j"],
    "first-max-running": ["i = 0", "for j in range(1, len(x)):", "    if x[j] > x[i]:", "        i = j"],
    "last-max-running": ["i = 0", "for j in range(1, len(x)):", "    if x[j] >= x[i]:", "        i = j"],
    "first-min-running": ["i = 0", "for j in range(len(x)):", "    if x[i] > x[j]:", "        i = j"],
    "last-abs-min-running": ["i = 0", "for j in range(len(x)):", "    if xp.abs(x[j]) <= xp.abs(x[i]):", "        i = j"],
    "next": ["i = next(j for j in range(len(x)) if x[j] == y)"],
    "next-default": ["i = next((j for j in range(len(x)) if x[j] == y), -1)"],
    "max-generator": ["i = max(j for j in range(len(x)) if x[j] == y or x[j] < -2)"],
    "listcomp-last": ["i = [j for j in range(len(x)) if x[j] == y][-1]"],
    "flatnonzero-first": ["i = xp.flatnonzero(x == y)[0]"],
    "flatnonzero-last": ["mask = x == y", "i = xp.flatnonzero(mask)[-1]"],
    "nonzero-tuple": ["i = xp.nonzero(x == y)[0][-1]"],
}


def rule(lines: list[str]) -> str:
    return HEAD + "".join(f"    {line}\n" for line in lines) + "    dx = xp.zeros_like(x)\n    dx[i] = x[i] * 2\n    return dx, i\n"


def run(code: str, x: np.ndarray, y: float):
    scope: dict = {}
    exec(compile(code, "rule", "exec"), scope)
    return scope["rrule_search"](x, y)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_form_is_vectorized_and_keeps_ties(snip, form: str) -> None:
    text = rule(FORMS[form])
    found = snip.fixes_of(text, "SL103")
    assert len(found) == 1 and found[0][1].applicability is snip.UNSAFE
    outcome = snip.fixed(text)
    assert "argm" in outcome.text and outcome.remaining == [], outcome.text
    rng = np.random.default_rng(1)
    for n in range(1, 9):
        for _ in range(6):
            x = rng.integers(-3, 4, size=n).astype(float)
            y = float(x[rng.integers(0, n)])  # a match exists, usually with ties
            if "abs(x[j]) == y" in text:
                y = abs(y)
            before_dx, before_i = run(text, x, y)
            after_dx, after_i = run(outcome.text, x, y)
            assert int(after_i) == before_i, (form, x, y)
            np.testing.assert_array_equal(after_dx, before_dx)
            strict_dx, strict_i = run(outcome.text, strict(x), y)  # no scalar access left
            assert int(to_host(strict_i)) == before_i
            np.testing.assert_array_equal(to_host(strict_dx), before_dx)


def test_initial_value_is_folded_into_the_search(snip) -> None:
    out = snip.fixed(rule(FORMS["findlast-loop"])).text
    assert "    i = xp.where(xp.any(xp.abs(x) == y), len(x) - 1 - xp.argmax(xp.astype(xp.flip(xp.abs(x) == y), xp.int8)), -1)\n    dx = xp.zeros_like(x)\n" in out
    assert "i = -1" not in out


def test_index_used_as_a_slice_bound_is_not_rewritten(snip) -> None:
    text = HEAD + "    i = next(j for j in range(len(x)) if x[j] == y)\n    return x[i:i + 1], i\n"
    assert snip.fixes_of(text, "SL103") == []


@pytest.mark.parametrize(
    "use",
    ["if i >= 0:\n        return x", "return range(i)", "return int(i)", "k = i\n    return k"],
)
def test_index_with_host_uses_is_not_rewritten(snip, use: str) -> None:
    text = HEAD + "    i = -1\n    for j in range(len(x)):\n        if x[j] == y:\n            i = j\n    " + use + "\n"
    assert [d for d in snip.diagnostics(text) if d.code == "SL103"]
    assert snip.fixes_of(text, "SL103") == []


@pytest.mark.parametrize(
    "lines",
    [
        ["i = 0", "for j in range(len(x)):", "    if x[j] == y:", "        i = j", "        y = y + 1"],  # more work in the branch
        ["i = 0", "for j in range(len(x)):", "    print(j)", "    if x[j] == y:", "        i = j"],  # more work in the loop
        ["i = 0", "for j in range(len(x)):", "    if x[j] == j:", "        i = j"],  # the index itself in the predicate
        ["i = 0", "for j in range(3):", "    if x[j] == y:", "        i = j"],  # the range is not the array's length
        ["i = 0", "for j in range(len(x)):", "    if x[j]:", "        i = j"],  # not a boolean predicate
        ["i = 0", "for j in range(len(x)):", "    if foo(x[j]):", "        i = j"],  # unknown function of the element
    ],
)
def test_loops_outside_the_patterns_are_left_alone(snip, lines: list[str]) -> None:
    assert snip.fixes_of(rule(lines), "SL103") == []


def test_no_array_module_alias_no_fix(snip) -> None:
    text = "def rrule_s(x, y):\n    i = next(j for j in range(len(x)) if x[j] == y)\n    return x[i], i\n"
    assert [d for d in snip.diagnostics(text) if d.code == "SL103"]
    assert snip.fixes_of(text, "SL103") == []


def test_imported_numpy_is_used_when_there_is_no_namespace(snip) -> None:
    text = "import numpy as np\n\n\ndef rrule_s(x, y):\n    i = next(j for j in range(len(x)) if x[j] == y)\n    return x[i], i\n"
    assert "i = np.argmax(x == y)" in snip.fixed(text).text
