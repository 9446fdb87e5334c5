"""Scatter-add loops become one ``index_add`` call (``fixers/scatter_add.py``)."""

from __future__ import annotations

import numpy as np

from scalarlint.runtime import disallow_scalar, strict, to_host

RULE = '''\
import array_api_compat


def rrule_getindex_many(x, idx):
    xp = array_api_compat.array_namespace(x)
    y = xp.take(x, idx)

    def getindex_many_pullback(dy):
        dx = xp.zeros_like(x)
        for k in range(idx.shape[0]):
            dx[idx[k]] += dy[k]
        return dx, None

    return y, getindex_many_pullback
'''


def test_the_loop_becomes_one_call_that_sums_repeated_indices(snip) -> None:
    outcome = snip.fixed(RULE)
    assert "        dx = index_add(dx, idx, dy[:idx.shape[0]])\n" in outcome.text
    assert outcome.text.count("from scalarlint.runtime import index_add\n") == 1
    assert "for k in" not in outcome.text
    namespace: dict[str, object] = {}
    exec(compile(outcome.text, "fixed", "exec"), namespace)
    rule = namespace["rrule_getindex_many"]
    x, idx, dy = np.arange(4.0), np.array([2, 0, 2, 2]), np.array([1.0, 2.0, 10.0, 100.0])
    with disallow_scalar():  # no scalar access left: it runs on the strict array
        _, pullback = rule(strict(x), strict(idx))  # type: ignore[operator]
        dx, _ = pullback(strict(dy))
    np.testing.assert_array_equal(to_host(dx), [2.0, 0.0, 111.0, 0.0])


def test_the_comment_closing_the_loop_moves_above_once(snip) -> None:
    # the loop's closing comment (indented under its body) is the loop's: the replaced rows
    # include it, so it is kept above the new statement, not also left below it
    closed = RULE.replace("            dx[idx[k]] += dy[k]\n", "            dx[idx[k]] += dy[k]\n            # }} scatter\n")
    text = snip.fixed(closed).text
    assert text.count("# }} scatter") == 1
    assert "        # }} scatter\n        dx = index_add(dx, idx, dy[:idx.shape[0]])\n        return dx, None\n" in text
    compile(text, "fixed", "exec")


def test_is_unsafe(snip) -> None:
    kinds = {f.applicability for _, f in snip.fixes_of(RULE) if "index_add" in f.message}
    assert kinds == {snip.UNSAFE}


def test_not_offered_when_the_pattern_differs(snip) -> None:
    reads_target = RULE.replace("dx[idx[k]] += dy[k]", "dx[idx[k]] += dx[k] * dy[k]")
    other_array = RULE.replace("range(idx.shape[0])", "range(dy.shape[0])")
    plain_index = RULE.replace("dx[idx[k]] += dy[k]", "dx[k] += dy[k]")
    not_a_sum = RULE.replace("dx[idx[k]] += dy[k]", "dx[idx[k]] = dy[k]")
    used_after = RULE.replace("        return dx, None\n", "        return dx * k, None\n")
    for text in (reads_target, other_array, plain_index, not_a_sum, used_after):
        assert not any("index_add" in f.message for _, f in snip.fixes_of(text)), text


PERMUTE = '''\
import array_api_compat


def rrule_sort(x):
    xp = array_api_compat.array_namespace(x)
    p = xp.argsort(x)
    y = x[p]

    def sort_pullback(dy):
        dx = xp.empty_like(dy)
        for i in range(len(p)):
            dx[int(p[i])] = dy[i]
        return (dx,)

    return y, sort_pullback
'''


def test_an_assignment_scatter_becomes_one_assignment_without_imports(snip) -> None:
    outcome = snip.fixed(PERMUTE)
    assert "        dx[p] = dy[:len(p)]\n" in outcome.text and "import" not in outcome.text.split("\n", 1)[1]
    namespace: dict[str, object] = {}
    exec(compile(outcome.text, "fixed", "exec"), namespace)
    x, dy = np.array([3.0, 1.0, 2.0]), np.array([10.0, 20.0, 30.0])
    with disallow_scalar():
        _, pullback = namespace["rrule_sort"](strict(x))  # type: ignore[operator]
        (dx,) = pullback(strict(dy))
    np.testing.assert_array_equal(to_host(dx), [30.0, 10.0, 20.0])
    kinds = {f.applicability for _, f in snip.fixes_of(PERMUTE) if "assignment through" in f.message}
    assert kinds == {snip.UNSAFE}
