"""The test of an ``if``/``while`` header computed in ``with allow_scalar():`` as a flag (SL101,
SL105): the rewrite, that the rewritten loop computes the same (``continue`` included), and
every case it declines."""

from __future__ import annotations

import pytest
from scalarlint.fixers import allow_scalar_header
from scalarlint.fixers.outcomes import Declined

from scalarlint.config import Config
from scalarlint.diagnostics import Applicability
from scalarlint.runtime import ScalarIndexingError, disallow_scalar, strict

# autograd's fixed_point, in a vjp maker: one host test per trip of a whole-array iteration.
WHILE_RULE = '''\
import numpy as np


def fixed_point_vjp(f, x0, tol):
    def vjp(g):
        x, x_prev = f(x0 * g), x0
        # until it settles
        while np.abs(x - x_prev).max() > tol:
            x, x_prev = f(x), x
        return x

    return vjp
'''

HOISTED_WHILE = '''\
        # until it settles
        while True:
            with allow_scalar():
                going_on = bool(np.abs(x - x_prev).max() > tol)
            if not going_on:
                break
            x, x_prev = f(x), x
        return x
'''

IF_RULE = '''\
import numpy as np


def clip_vjp(x):
    def vjp(g):
        scale = 1.0
        if x[0] > 0:  # positive start
            scale = 2.0
        return g * scale

    return vjp
'''

HOISTED_IF = '''\
        scale = 1.0
        with allow_scalar():
            condition = bool(x[0] > 0)
        if condition:  # positive start
            scale = 2.0
'''

# odd trips skip the count: ``continue`` must still test again before the next trip
CONTINUING = WHILE_RULE.replace(
    "        while np.abs(x - x_prev).max() > tol:\n            x, x_prev = f(x), x\n        return x\n",
    "        trips = evens = 0\n        while np.abs(x - x_prev).max() > tol:\n            x, x_prev = f(x), x\n"
    "            trips += 1\n            if trips % 2:\n                continue\n            evens += 1\n        return x + evens\n",
)


def _load(text: str, name: str):  # type: ignore[no-untyped-def]
    namespace: dict[str, object] = {}
    exec(compile(text, "<fixed>", "exec"), namespace)
    return namespace[name]


def test_a_while_test_is_computed_in_the_scope_before_every_trip(snip) -> None:
    outcome = snip.fixed(WHILE_RULE)
    assert HOISTED_WHILE in outcome.text
    assert outcome.text.count("from scalarlint.runtime import allow_scalar\n") == 1
    assert outcome.remaining == []


def test_an_if_test_is_computed_in_the_scope_before_the_if(snip) -> None:
    outcome = snip.fixed(IF_RULE)
    assert HOISTED_IF in outcome.text
    assert outcome.remaining == []


@pytest.mark.parametrize("text", [WHILE_RULE, IF_RULE, CONTINUING], ids=["while", "if", "continue"])
def test_is_unsafe_and_fixing_twice_changes_nothing_more(snip, text: str) -> None:
    # the header's findings (an element read, SL101, and the test of it, SL105) share one edit
    kinds = [f.applicability for _, f in snip.fixes_of(text) if "bool(...)" in f.message]
    assert kinds and set(kinds) == {snip.UNSAFE}
    assert len({str(f.edits) for _, f in snip.fixes_of(text) if "bool(...)" in f.message}) == 1
    assert snip.fixed(text, unsafe=False).text == snip.source(text).text
    once = snip.fixed(text).text
    compile(once, "fixed", "exec")
    assert snip.fixed(once).text == once


@pytest.mark.parametrize("text", [WHILE_RULE, CONTINUING], ids=["plain", "continue"])
@pytest.mark.parametrize("tol", [1e-3, 1e-9, 10.0])
def test_the_rewritten_while_computes_the_same(snip, text: str, tol: float) -> None:
    """``continue`` goes back to ``while True``, which computes the test again, as the
    original header did; the scope lets the strict array sync there and nowhere else."""
    fixed = snip.fixed(text).text
    assert text is not CONTINUING or "                continue\n            evens += 1\n" in fixed
    original, rewritten = _load(text, "fixed_point_vjp"), _load(fixed, "fixed_point_vjp")

    def f(v):  # type: ignore[no-untyped-def]
        return v * 0.5 + 1.0

    x0 = __import__("numpy").linspace(0.0, 4.0, 5)
    expected = original(f, x0, tol)(1.0)
    assert (rewritten(f, x0, tol)(1.0) == expected).all()
    with disallow_scalar():
        with pytest.raises(ScalarIndexingError):
            original(f, strict(x0), tol)(1.0)
        rewritten(f, strict(x0), tol)(1.0)


def test_the_flag_takes_a_name_nothing_in_the_function_uses(snip) -> None:
    text = WHILE_RULE.replace("    def vjp(g):\n", "    going_on = None\n\n    def vjp(g):\n        print(going_on)\n")
    fixed = snip.fixed(text).text
    assert "going_on2 = bool(" in fixed and "if not going_on2:" in fixed


@pytest.mark.parametrize(
    ("text", "test", "reason"),
    [
        (WHILE_RULE.replace("        return x\n", "        else:\n            x = x * 1\n        return x\n"),
         "np.abs(x - x_prev).max() > tol", "`while` with an `else`"),
        (IF_RULE.replace("            scale = 2.0\n", "            scale = 2.0\n        elif x[1] > 0:\n            scale = 3.0\n"),
         "x[1] > 0", "`elif` test"),
        (IF_RULE.replace("if x[0] > 0:", "if x[0] > (first := 0):"), "x[0] > (first := 0)", "binds a name"),
        (IF_RULE.replace("if x[0] > 0:", "if x[0] > (lambda: 0)():"), "x[0] > (lambda: 0)()", "lambda"),
        (IF_RULE.replace("if x[0] > 0:", "if [float(x[0]) for k in (0, 1)][0] > 0:"), "[float(x[0]) for k in (0, 1)][0] > 0", "comprehension"),
    ],
    ids=["while-else", "elif", "walrus", "lambda", "comprehension"],
)
def test_declines_where_hoisting_could_change_the_meaning(snip, text: str, test: str, reason: str) -> None:
    answers = _header_answers(snip, text)
    assert any(isinstance(a, Declined) and reason in a.reason for a in answers)
    fixed = snip.fixed(text).text
    assert f"bool({test})" not in fixed and f" {test}:" in fixed


def test_declines_a_yield_or_await_in_the_test(snip) -> None:
    for text in (
        IF_RULE.replace("    def vjp(g):\n", "    def vjp(g):\n        yield g\n").replace("if x[0] > 0:", "if x[0] > (yield):"),
        IF_RULE.replace("    def vjp(g):\n", "    async def vjp(g):\n").replace("if x[0] > 0:", "if x[0] > await g:"),
    ):
        answers = _header_answers(snip, text)
        assert any(isinstance(a, Declined) and "suspends" in a.reason for a in answers)


@pytest.mark.parametrize(
    "text",
    [
        IF_RULE.replace("        if x[0] > 0:  # positive start\n            scale = 2.0\n",
                        "        for k in range(len(x)):\n            if x[k] > 0:\n                scale = scale * 2.0\n"),
        IF_RULE.replace("        if x[0] > 0:  # positive start\n            scale = 2.0\n",
                        "        k = 0\n        while x[k] > 0:\n            k += 1\n        scale = float(k)\n"),
        # a findlast-style search: ``x[best]`` alone is read once, but ``x[k]`` beside it is one
        # read per trip of the loop around the test
        IF_RULE.replace("        if x[0] > 0:  # positive start\n            scale = 2.0\n",
                        "        best = 0\n        m, n = x.shape\n        for k in range(m):\n            if x[k, 0] > x[best, 0]:\n                best = k\n"
                        "        scale = float(best)\n"),
    ],
    ids=["in-a-loop-over-data", "while-walking-elements", "search-beside-a-loop-read"],
)
def test_not_offered_where_the_test_syncs_once_per_element(snip, text: str) -> None:
    assert [d for d in snip.diagnostics(text) if d.code in ("SL101", "SL105")]
    assert not [f for _, f in snip.fixes_of(text) if "bool(...)" in f.message]


def test_display_only_without_a_declared_dependency_or_configured_helper(snip, tmp_path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "mine"\ndependencies = ["numpy"]\n')
    path = tmp_path / "rules.py"
    path.write_text(WHILE_RULE)
    from scalarlint.fixers.engine import check_text

    from scalarlint.analysis.sources import SourceFile
    from scalarlint.config import config_from_table

    found = check_text(SourceFile(str(path), WHILE_RULE, "utf-8", WHILE_RULE.encode()), config_from_table({}, str(tmp_path)))
    assert isinstance(found, list)
    fixes = [f for d in found for f in d.fixes if "bool(...)" in f.message]
    assert fixes and all(f.applicability is Applicability.DISPLAY_ONLY for f in fixes)
    configured = check_text(
        SourceFile(str(path), WHILE_RULE, "utf-8", WHILE_RULE.encode()),
        config_from_table({"allow-scalar-import": "mine_helpers"}, str(tmp_path)),
    )
    assert isinstance(configured, list)
    assert [f.applicability for d in configured for f in d.fixes if "bool(...)" in f.message] == [snip.UNSAFE]


def _header_answers(snip, text: str) -> list[object]:  # type: ignore[no-untyped-def]
    """What ``allow_scalar_header`` answers for each finding of ``text`` (the engine shows a
    decline's reason only when no earlier fixer declined first)."""
    from scalarlint import fixers

    answers: list[object] = []

    def recording(finding, analyzer):  # type: ignore[no-untyped-def]
        answers.append(allow_scalar_header.fixes(finding, analyzer))
        return answers[-1]

    with pytest.MonkeyPatch.context() as patch:
        for code, funcs in fixers.BY_CODE_FIXERS.items():
            patch.setitem(fixers.BY_CODE_FIXERS, code, tuple(recording if f is allow_scalar_header.fixes else f for f in funcs))
        snip.diagnostics(text, Config())
    return answers
