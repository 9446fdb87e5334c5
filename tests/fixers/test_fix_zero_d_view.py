"""Kept element reads become 0-d views on the device (``fixers/zero_d_view.py``)."""

from __future__ import annotations

import numpy as np

from scalarlint.runtime import disallow_scalar, strict, to_host

RULE = '''\
import array_api_compat


def rrule_getindex(x, i: int):
    xp = array_api_compat.array_namespace(x)
    y = x[i]

    def getindex_pullback(dy):
        dx = xp.zeros_like(x)
        dx[i] = dy
        return dx, None

    return y, getindex_pullback
'''


def _views(snip, text: str) -> list:
    return [f for d, f in snip.fixes_of(text, "SL101") if "0-d view" in f.message]


def test_the_read_becomes_a_0d_view_right_for_every_index(snip) -> None:
    outcome = snip.fixed(RULE)
    assert "    y = xp.reshape(x[i:i + 1 or None], ())\n" in outcome.text
    assert "        dx[i:i + 1 or None] = dy\n" in outcome.text
    namespace: dict[str, object] = {}
    exec(compile(outcome.text, "fixed", "exec"), namespace)
    rule = namespace["rrule_getindex"]
    x = np.arange(1.0, 6.0)
    for i in range(-5, 5):
        with disallow_scalar():  # no scalar access left
            y, pullback = rule(strict(x), i)  # type: ignore[operator]
            dx, _ = pullback(strict(np.asarray(7.0)))
        assert np.shape(to_host(y)) == () and float(to_host(y)) == x[i]
        expected = np.zeros(5)
        expected[i] = 7.0
        np.testing.assert_array_equal(to_host(dx), expected)


MATRIX = '''\
import array_api_compat


def _element(A, i: int, j: int):
    xp = array_api_compat.array_namespace(A)
    return A[i, j]


def rrule_getindex_matrix(A, i: int, j: int):
    xp = array_api_compat.array_namespace(A)
    y = _element(A, i, j)

    def pullback(dy):
        return xp.zeros_like(A), None, None

    return y, pullback
'''


def test_a_returned_matrix_element(snip) -> None:
    fixes = _views(snip, MATRIX)
    assert len(fixes) == 1 and fixes[0].applicability is snip.UNSAFE
    assert "    return xp.reshape(A[i:i + 1 or None, j:j + 1 or None], ())\n" in snip.apply_one(MATRIX, fixes[0])


def test_not_offered_where_the_value_is_used_on_the_host(snip) -> None:
    host_uses = {
        "an if": RULE.replace("    return y, getindex_pullback\n", "    if y > 0:\n        y = y * 2\n    return y, getindex_pullback\n"),
        "int()": RULE.replace("    return y, getindex_pullback\n", "    n = int(y)\n    return n, getindex_pullback\n"),
        "a slice bound": RULE.replace("    return y, getindex_pullback\n", "    return x[:y], getindex_pullback\n"),
        "an unknown function": RULE.replace("    return y, getindex_pullback\n", "    return foo(y), getindex_pullback\n"),
        "inside a loop over data": RULE.replace("    y = x[i]\n", "    for k in range(len(x)):\n        y = x[k]\n        print(y)\n"),
    }
    for why, text in host_uses.items():
        assert snip.diagnostics(text), why
        assert not _views(snip, text), why


UNPACKED = '''\
import numpy as np


def rrule_det2(A):
    a, b, c, d = A[0, 0], A[0, 1], A[1, 0], A[1, 1]  # the entries
    y = a * d - b * c

    def det2_pullback(dy):
        dA = np.empty_like(A)
        dA[0, 0] = d * dy
        dA[0, 1] = -c * dy
        dA[1, 0] = -b * dy
        dA[1, 1] = a * dy
        return (dA,)

    return y, det2_pullback
'''


def test_unpacked_reads_each_become_a_view_and_the_rule_runs_strict(snip) -> None:
    outcome = snip.fixed(UNPACKED)
    assert (
        "    a, b, c, d = np.reshape(A[0:1, 0:1], ()), np.reshape(A[0:1, 1:2], ()), "
        "np.reshape(A[1:2, 0:1], ()), np.reshape(A[1:2, 1:2], ())  # the entries\n"
    ) in outcome.text
    namespace: dict[str, object] = {}
    exec(compile(outcome.text, "fixed", "exec"), namespace)
    A = np.array([[1.0, 2.0], [3.0, 5.0]])
    with disallow_scalar():
        y, pullback = namespace["rrule_det2"](strict(A))  # type: ignore[operator]
        (dA,) = pullback(strict(np.asarray(2.0)))
    assert float(to_host(y)) == -1.0
    np.testing.assert_array_equal(to_host(dA), [[10.0, -6.0], [-4.0, 2.0]])
    # one name used on the host: that read keeps its element, the others still get views
    host = UNPACKED.replace("    y = a * d - b * c\n", "    y = a * d - b * c\n    if b > 0:\n        y = y * 1\n")
    texts = [snip.apply_one(host, f) for d, f in snip.fixes_of(host, "SL101") if "0-d view" in f.message]
    assert texts and all("np.reshape(A[0:1, 1:2], ())" not in t for t in texts)
