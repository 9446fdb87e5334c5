"""Array-module reductions for builtin sum/max/min/any/all (SL104)."""

from __future__ import annotations

import numpy as np
import pytest

HEAD = """\
import array_api_compat


def rrule_r(x, A):
    xp = array_api_compat.array_namespace(x)
    v = x.reshape(-1)
    M = A.reshape(2, 3)
"""


def rule(line: str) -> str:
    return HEAD + f"    out = {line}\n    return out\n"


@pytest.mark.parametrize(
    ("expr", "replacement", "safe"),
    [
        ("sum(v)", "xp.sum(v)", True),  # rank 1
        ("sum(M)", "xp.sum(M, axis=0)", True),  # rank 2: Python adds the rows
        ("sum(x)", "xp.sum(x, axis=0)", False),  # rank unknown
        ("any(v > 0)", "xp.any(v > 0)", True),
        ("all(x > 0)", "xp.all(x > 0)", False),
        ("max(v)", "xp.max(v)", False),  # NaN placement differs
        ("min(x)", "xp.min(x)", False),
        ("sum(v, 1.5)", "1.5 + xp.sum(v)", True),
        ("sum(w * w for w in v)", "xp.sum(v * v)", True),
        ("sum(xp.exp(w - 1) for w in x)", "xp.sum(xp.exp(x - 1), axis=0)", False),
    ],
)
def test_reductions(snip, expr: str, replacement: str, safe: bool) -> None:
    text = rule(expr)
    found = snip.fixes_of(text, "SL104")
    assert len(found) == 1, found
    fix = found[0][1]
    assert fix.applicability is (snip.SAFE if safe else snip.UNSAFE)
    out = snip.apply_one(text, fix)
    assert f"    out = {replacement}\n" in out
    x, A = np.array([0.5, -1.0, 2.0, 3.0]), np.arange(6.0)
    before, after = {}, {}
    exec(compile(snip.source(text).text, "before", "exec"), before)
    exec(compile(out, "after", "exec"), after)
    np.testing.assert_allclose(after["rrule_r"](x, A), before["rrule_r"](x, A), rtol=1e-14)


@pytest.mark.parametrize("expr", ["max(M)", "max(v, key=abs)", "max(v, default=0)", "sorted(v)", "sum(w for w in v if w > 0)"])
def test_not_offered(snip, expr: str) -> None:
    assert snip.fixes_of(rule(expr), "SL104") == []


def test_parenthesized_when_needed(snip) -> None:
    text = rule("2 * sum(v, 1.0)")
    out = snip.fixed(text).text
    assert "out = 2 * (1.0 + xp.sum(v))" in out
