"""Indices converted to host ints only to index stay on the device (``fixers/device_index.py``)."""

from __future__ import annotations

import numpy as np

from scalarlint.runtime import disallow_scalar, strict, to_host

RULE = '''\
from array_api_compat import array_namespace


def rrule_findmax(x):
    xp = array_namespace(x)
    k = int(xp.argmax(x))
    y = x[k]

    def findmax_pullback(dy):
        dx = xp.zeros_like(x)
        dx[k] = dy
        return (dx,)

    return (y, k), findmax_pullback
'''


def test_the_int_goes_and_the_rule_runs_on_the_strict_array(snip) -> None:
    outcome = snip.fixed(RULE)
    assert "    k = xp.argmax(x)\n    y = x[k]\n" in outcome.text and "        dx[k] = dy\n" in outcome.text
    namespace: dict[str, object] = {}
    exec(compile(outcome.text, "fixed", "exec"), namespace)
    x = np.array([1.0, 5.0, 2.0, 5.0])
    with disallow_scalar():
        (y, k), pullback = namespace["rrule_findmax"](strict(x))  # type: ignore[operator]
        (dx,) = pullback(strict(np.asarray(3.0)))
    assert float(to_host(y)) == 5.0 and int(to_host(k)) == 1
    np.testing.assert_array_equal(to_host(dx), [0.0, 3.0, 0.0, 0.0])
    assert {f.applicability for _, f in snip.fixes_of(RULE) if "on the device" in f.message} == {snip.UNSAFE}


def test_kept_where_the_int_is_needed_on_the_host(snip) -> None:
    cases = {
        "a range bound": RULE.replace("    return (y, k), findmax_pullback\n", "    for j in range(k):\n        pass\n    return (y, k), findmax_pullback\n"),
        "arithmetic": RULE.replace("    y = x[k]\n", "    y = x[k]\n    z = k + 1\n"),
        "an axis argument": RULE.replace("int(xp.argmax(x))", "int(xp.argmax(x, axis=0))"),
        "not an index function": RULE.replace("int(xp.argmax(x))", "int(xp.sum(x))"),
    }
    for why, text in cases.items():
        assert not any("on the device" in f.message for _, f in snip.fixes_of(text)), why
