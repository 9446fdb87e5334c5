"""A vectorized search keeps the value it leaves when nothing matches (issue 26, defect 6).

``idx = -1; for i in range(len(x)): if x[i] > y: idx = i`` was rewritten to
``len(x) - 1 - xp.argmax(xp.flip(x > y))``, which is ``n - 1`` where the loop leaves ``-1``
(40 of 200 random inputs differed). Each form here is fixed, then the original and the fixed
function run on the same 200 seeded random inputs, a good part of them without any match,
and must agree on every one; the fixed one also runs on the strict array (no element access
left). Arrays are never empty here: ``argmax`` of an empty mask raises where the loop returns
its initial value (the fix is unsafe and its documentation says so).
"""

from __future__ import annotations

import numpy as np
import pytest

from scalarlint.runtime import strict, to_host

HEAD = """\
import array_api_compat


def rrule_search(x, y):
    xp = array_api_compat.array_namespace(x)
"""


def rule(*lines: str) -> str:
    return HEAD + "".join(f"    {line}\n" for line in lines) + "    return idx\n"


GREATER = lambda x, y: x > y  # noqa: E731
FORMS = {  # the lines, and the predicate on whole arrays (to count the inputs with no match)
    "findlast, -1": (["idx = -1", "for i in range(len(x)):", "    if x[i] > y:", "        idx = i"], GREATER),
    "findlast, n": (["n = len(x)", "idx = n", "for i in range(n):", "    if x[i] > y:", "        idx = i"], GREATER),
    "findlast, len(x)": (["idx = len(x)", "for i in range(len(x)):", "    if abs(x[i]) == y:", "        idx = i"], lambda x, y: abs(x) == y),
    "findlast backwards, -1": (["idx = -1", "for i in reversed(range(len(x))):", "    if x[i] > y:", "        idx = i", "        break"], GREATER),
    "findfirst, -1": (["idx = -1", "for i in range(len(x)):", "    if x[i] > y:", "        idx = i", "        break"], GREATER),
    "findfirst, n": (
        ["n = x.shape[0]", "idx = n", "for i in range(n):", "    if x[i] > y and x[i] != 2:", "        idx = i", "        break"],
        lambda x, y: (x > y) & (x != 2),
    ),
    "findfirst, len(x)": (["idx = len(x)", "for i in range(len(x)):", "    if x[i] > y:", "        idx = i", "        break"], GREATER),
    "findfirst, 0": (["idx = 0", "for i in range(len(x)):", "    if x[i] > y:", "        idx = i", "        break"], GREATER),
    "findfirst backwards, n": (["n = len(x)", "idx = n", "for i in range(n - 1, -1, -1):", "    if x[i] > y:", "        idx = i"], GREATER),
    "findlast, -1 set earlier": (["idx = -1", "z = 2 * y", "for i in range(len(x)):", "    if x[i] > y:", "        idx = i"], GREATER),
    "next, len(x)": (["idx = next((i for i in range(len(x)) if x[i] > y), len(x))"], GREATER),
    "next, -1": (["idx = next((i for i in range(len(x)) if x[i] > y), -1)"], GREATER),
}


def _function(text: str):
    namespace: dict = {}
    exec(compile(text, "rule", "exec"), namespace)
    return namespace["rrule_search"]


@pytest.mark.parametrize("form", sorted(FORMS))
def test_fixed_search_agrees_with_the_loop_also_when_nothing_matches(snip, form: str) -> None:
    lines, predicate = FORMS[form]
    text = rule(*lines)
    outcome = snip.fixed(text)
    assert "argmax" in outcome.text and not [d for d in outcome.remaining if d.code == "SL103"], outcome.text
    original, fixed = _function(text), _function(outcome.text)
    rng = np.random.default_rng(26)
    misses = 0
    for _ in range(200):
        x = rng.integers(-3, 4, size=int(rng.integers(1, 9))).astype(float)
        y = float(rng.integers(-4, 5))
        expected = original(x, y)
        misses += not predicate(x, y).any()
        assert int(fixed(x, y)) == expected, (form, x, y, outcome.text)
        assert int(to_host(fixed(strict(x), y))) == expected  # on the device: no element access
    assert misses >= 20, "the inputs must cover the not-found case"


@pytest.mark.parametrize(
    "lines",
    [
        ["idx = None", "for i in range(len(x)):", "    if x[i] > y:", "        idx = i", "        break"],
        ["idx = None", "for i in range(len(x)):", "    if x[i] > y:", "        idx = i"],
        ["idx = next((i for i in range(len(x)) if x[i] > y), None)"],
    ],
    ids=["loop-first", "loop-last", "next"],
)
def test_none_when_nothing_matches_is_not_rewritten_and_says_why(snip, lines: list[str]) -> None:
    text = rule(*lines)
    searches = [d for d in snip.diagnostics(text) if d.code == "SL103"]
    assert searches, "the search is reported"
    assert all(not d.fixes for d in searches)
    assert all("`None`" in (d.no_fix_reason or "") for d in searches)
    fixed = snip.fixed(text).text
    assert "argmax" not in fixed  # the search stays a search (its reads may move to a host copy)
    assert fixed == text or "x_host = to_host(x)" in fixed


def test_a_search_without_an_initial_value_is_not_rewritten(snip) -> None:
    text = rule("for i in range(len(x)):", "    if x[i] > y:", "        idx = i")
    searches = [d for d in snip.diagnostics(text) if d.code == "SL103"]
    assert searches and all(not d.fixes for d in searches)
    assert all("before the search" in (d.no_fix_reason or "") for d in searches)


def test_a_name_rebound_between_initial_value_and_loop_is_not_moved(snip) -> None:
    """``idx = n`` read after the loop would see the new ``n``."""
    text = rule("n = len(x)", "idx = n", "n = 0", "for i in range(len(x)):", "    if x[i] > y:", "        idx = i")
    assert not any(d.fixes for d in snip.diagnostics(text) if d.code == "SL103")


def test_the_loops_comments_do_not_survive_above_the_vectorized_line(snip) -> None:
    text = rule(
        "# the last index above y, or -1",
        "idx = -1  # not found",
        "# findlast: one sync per element",
        "for i in range(len(x)):  # one launch per element",
        "    if x[i] > y:  # a host comparison",
        "        idx = i",
    )
    fixed = snip.fixed(text).text
    assert "idx = xp.where(xp.any(x > y), len(x) - 1 - xp.argmax(xp.astype(xp.flip(x > y), xp.int8)), -1)  # not found\n" in fixed
    for stale in ("findlast: one sync per element", "one launch per element", "a host comparison"):
        assert stale not in fixed
    assert "    # the last index above y, or -1\n    idx = xp.where(" in fixed  # above the initial value: stays


def test_a_comment_directly_above_an_unfolded_loop_goes_with_it(snip) -> None:
    text = rule(
        "idx = -1",
        "z = 2 * y",
        "",
        "# kept: separated by a blank line",
        "",
        "# findlast: one sync per element",
        "for i in range(len(x)):",
        "    if x[i] > z:",
        "        idx = i",
    )
    fixed = snip.fixed(text).text
    assert "findlast" not in fixed and "# kept: separated by a blank line\n\n    idx = xp.where(" in fixed, fixed
