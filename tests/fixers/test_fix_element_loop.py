"""Element loops (SL101/SL102 in a loop over data) become whole-array statements."""

from __future__ import annotations

import numpy as np
import pytest

from scalarlint.fixers import element_loop
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
        ["for i in range(1, len(x)):", "    dx[i] = dx[i - 1] + x[i]"],  # a recurrence on the written array
        ["for i in range(len(x)):", "    dx[i] = x[i - 1]"],  # x[-1] at i = 0: no slice reads that
        ["for i in range(len(x)):", "    dx[i] = x[i] * i"],  # the index as a value
        ["for i in range(len(x)):", "    dx[i] = foo(x[i])"],  # unknown function of an element
        ["for i in range(len(x)):", "    dx[i] = x[i]", "    if x[i] > 0:", "        break"],
        ["for i in range(len(x)):", "    if x[i] > 0:", "        dx[i] = 1.0", "    else:", "        g[i] = 2.0"],  # two targets
        ["for i in range(len(x)):", "    if x[i] > 0:", "        x[i] = 0.0"],  # the mask would change
        ["for i in range(len(x)):", "    dx[i] = x[i]", "k = i"],  # the index is used after the loop
        ["for i in range(len(x)):", "    for j in range(len(w)):", "        g[j] = x[i] * w[j]"],  # a nest over data
        # rows of a rank-2 array, not elements: the vector form would broadcast x against w
        ["rows = xp.zeros((len(x), len(w)))", "for i in range(len(x)):", "    if x[i] > 0:", "        rows[i] = w"],
    ],
)
def test_loops_that_are_not_elementwise_are_left_alone(snip, lines: list[str]) -> None:
    text = rule(*lines)
    assert [d for d in snip.diagnostics(text) if d.code in ("SL101", "SL102")]
    assert all(f.message != element_loop.MESSAGE for _, f in snip.fixes_of(text))


DIAGONAL = '''\
from array_api_compat import array_namespace


def rrule_diag(A):
    xp = array_namespace(A)
    n = min(A.shape)
    y = xp.empty(n, dtype=A.dtype)
    for i in range(n):
        y[i] = A[i, i]

    def diag_pullback(dy):
        dA = xp.zeros_like(A)
        for i in range(n):
            dA[i, i] = dy[i] * A[i, i]
        return (dA,)

    return y, diag_pullback
'''


def test_diagonal_reads_and_writes_become_one_gather_and_one_scatter(snip) -> None:
    from scalarlint.runtime import disallow_scalar, strict, to_host

    outcome = snip.fixed(DIAGONAL)
    assert "    y[:n] = A[xp.arange(n), xp.arange(n)]\n" in outcome.text
    assert "        dA[xp.arange(n), xp.arange(n)] = dy[:n] * A[xp.arange(n), xp.arange(n)]\n" in outcome.text
    namespace: dict[str, object] = {}
    exec(compile(outcome.text, "fixed", "exec"), namespace)
    A = np.arange(12.0).reshape(3, 4)
    with disallow_scalar():
        y, pullback = namespace["rrule_diag"](strict(A))  # type: ignore[operator]
        (dA,) = pullback(strict(np.array([1.0, 2.0, 3.0])))
    np.testing.assert_array_equal(to_host(y), [0.0, 5.0, 10.0])
    expected = np.zeros((3, 4))
    expected[[0, 1, 2], [0, 1, 2]] = [0.0, 10.0, 30.0]
    np.testing.assert_array_equal(to_host(dA), expected)


def test_mixed_axes_are_not_a_diagonal(snip) -> None:
    text = DIAGONAL.replace("dA[i, i] = dy[i] * A[i, i]", "dA[i, 0] = dy[i]")
    assert not any("Vectorize" in f.message for d, f in snip.fixes_of(text) if d.location.row > 10)


MIRROR = '''\
from array_api_compat import array_namespace


def rrule_reverse(x):
    xp = array_namespace(x)
    n = x.shape[0]
    y = xp.flip(x)

    def reverse_pullback(dy):
        dx = xp.empty_like(dy)
        for i in range(n):
            dx[i] = dy[n - 1 - i] * x[i]
        return (dx,)

    return y, reverse_pullback
'''


def test_a_mirrored_read_becomes_a_flip(snip) -> None:
    from scalarlint.runtime import disallow_scalar, strict, to_host

    outcome = snip.fixed(MIRROR)
    assert "        dx[:n] = xp.flip(dy[:n], axis=0) * x[:n]\n" in outcome.text
    namespace: dict[str, object] = {}
    exec(compile(outcome.text, "fixed", "exec"), namespace)
    x, dy = np.array([1.0, 2.0, 3.0, 4.0]), np.array([10.0, 20.0, 30.0, 40.0])
    with disallow_scalar():
        _, pullback = namespace["rrule_reverse"](strict(x))  # type: ignore[operator]
        (dx,) = pullback(strict(dy))
    np.testing.assert_array_equal(to_host(dx), [40.0, 60.0, 60.0, 40.0])
    also = MIRROR.replace("dy[n - 1 - i]", "dy[n - i - 1]")
    assert "xp.flip(dy[:n], axis=0)" in snip.fixed(also).text


def test_a_mirrored_read_of_the_written_array_is_left_alone(snip) -> None:
    in_place = MIRROR.replace("dx[i] = dy[n - 1 - i] * x[i]", "dy[i] = dy[n - 1 - i]")  # reads what it overwrote
    other_length = MIRROR.replace("dy[n - 1 - i]", "dy[n - 2 - i]")
    for text in (in_place, other_length):
        assert not any("Vectorize" in f.message for _, f in snip.fixes_of(text)), text


BRANCHES = '''\
import numpy as np


def rrule_abs_loop(x: np.ndarray):
    y = np.abs(x)

    def abs_loop_pullback(dy):
        dx = np.zeros_like(x)
        for i, v in enumerate(x):
            if v > 0:
                dx[i] = dy[i]
            elif v < 0:
                dx[i] = -dy[i]
        return (dx,)

    return y, abs_loop_pullback


def rrule_normp(x, p):
    y = np.sum(np.abs(x) ** p) ** (1.0 / p)

    def normp_pullback(dy):
        dv = np.empty_like(x)
        n = x.shape[0]
        for i in range(n):
            a = x[i]
            if a == 0:
                dv[i] = 0.0
            else:
                dv[i] = dy * np.sign(a) * (abs(a) / y) ** (p - 1)
        return (dv, None)

    return y, normp_pullback
'''


def test_enumerate_elif_else_and_temporaries_become_nested_where(snip) -> None:
    from scalarlint.runtime import disallow_scalar, strict, to_host

    outcome = snip.fixed(BRANCHES)
    assert "        dx[:len(x)] = np.where(x > 0, dy[:len(x)], np.where(x < 0, -dy[:len(x)], dx[:len(x)]))\n" in outcome.text
    assert "        a = x[:n]\n        dv[:n] = np.where(a == 0, 0.0, dy * np.sign(a) * (np.abs(a) / y) ** (p - 1))\n" in outcome.text
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    exec(compile(BRANCHES, "before", "exec"), before)
    exec(compile(outcome.text, "after", "exec"), after)
    x, dy = np.array([-2.0, 0.0, 3.0, 1.0]), np.array([1.0, 2.0, 3.0, 4.0])
    for name, args, cotangent in (("rrule_abs_loop", (x,), dy), ("rrule_normp", (x, 3.0), np.asarray(1.5))):
        expected = before[name](*args)[1](cotangent)[0]  # type: ignore[operator]
        with disallow_scalar(), np.errstate(divide="ignore", invalid="ignore"):
            _, pullback = after[name](strict(x), *args[1:])  # type: ignore[operator]
            got = to_host(pullback(strict(cotangent))[0])
        np.testing.assert_allclose(got, expected)


def test_branches_and_temporaries_that_cannot_be_vectors_are_left_alone(snip) -> None:
    cases = {
        "a branch with two statements": BRANCHES.replace(
            "                dx[i] = dy[i]\n", "                dx[i] = dy[i]\n                dx[i] += 1\n"
        ),
        "a temporary read after the loop": BRANCHES.replace("        return (dv, None)\n", "        return (dv * a, None)\n"),
        "a test reading the written array": BRANCHES.replace("            if v > 0:\n", "            if dx[i] > 0:\n"),
    }
    for why, text in cases.items():
        before = [line for line in text.splitlines() if "for i" in line]
        after = snip.fixed(text).text
        assert any(line in after for line in before), why


FLAT = '''\
from array_api_compat import array_namespace


def rrule_norm1(x):
    xp = array_namespace(x)
    y = xp.sum(xp.abs(x))

    def norm1_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(x.size):
            dx.flat[i] = dy * (1.0 if x.flat[i] > 0 else -1.0)
        return (dx,)

    return y, norm1_pullback
'''


def test_flat_writes_over_every_element_and_conditional_expressions(snip) -> None:
    from scalarlint.runtime import disallow_scalar, strict, to_host

    outcome = snip.fixed(FLAT)
    assert "        dx[...] = xp.reshape(dy * xp.where(xp.reshape(x, (-1,)) > 0, 1.0, -1.0), dx.shape)\n" in outcome.text
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    exec(compile(FLAT, "before", "exec"), before)
    exec(compile(outcome.text, "after", "exec"), after)
    x = np.array([[1.0, -2.0, 0.0], [3.0, -0.5, 2.0]])
    expected = before["rrule_norm1"](x)[1](np.asarray(2.0))[0]  # type: ignore[operator]
    with disallow_scalar():
        _, pullback = after["rrule_norm1"](strict(x))  # type: ignore[operator]
        got = to_host(pullback(strict(np.asarray(2.0)))[0])
    np.testing.assert_array_equal(got, expected)


def test_a_flat_write_that_may_not_cover_the_array_is_left_alone(snip) -> None:
    other_shape = FLAT.replace("dx = xp.zeros_like(x)", "dx = xp.zeros_like(dy)")
    partial = FLAT.replace("range(x.size)", "range(x.size - 1)")
    for text in (other_shape, partial):
        assert "for i in range" in snip.fixed(text).text, text


COLUMNS = '''\
from array_api_compat import array_namespace


def rrule_maximum_dims(A):
    xp = array_namespace(A)
    m, n = A.shape
    y = xp.max(A, axis=0)

    def maximum_dims_pullback(dy):
        dA = xp.zeros_like(A)
        for j in range(n):
            i = int(xp.argmax(A[:, j]))
            dA[i, j] = dy[j]
        return (dA,)

    return y, maximum_dims_pullback
'''


def test_a_loop_over_columns_becomes_an_axis_reduction_and_one_scatter(snip) -> None:
    from scalarlint.runtime import disallow_scalar, strict, to_host

    outcome = snip.fixed(COLUMNS)
    assert "        i = xp.argmax(A[:, :n], axis=0)\n        dA[i, xp.arange(n)] = dy[:n]\n" in outcome.text
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    exec(compile(COLUMNS, "before", "exec"), before)
    exec(compile(outcome.text, "after", "exec"), after)
    A, dy = np.array([[1.0, 5.0, 2.0], [3.0, 5.0, 0.0]]), np.array([10.0, 20.0, 30.0])
    expected = before["rrule_maximum_dims"](A)[1](dy)[0]  # type: ignore[operator]
    with disallow_scalar():
        _, pullback = after["rrule_maximum_dims"](strict(A))  # type: ignore[operator]
        got = to_host(pullback(strict(dy))[0])
    np.testing.assert_array_equal(got, expected)  # ties go to the first row in both


HOST_OUTPUT = '''\
import numpy as np


def rrule_mean_numpy(x: np.ndarray):
    y = np.mean(x)

    def mean_numpy_pullback(dy):
        out = np.empty(x.shape[0])
        for i in range(x.shape[0]):
            out[i] = dy / x.shape[0]
        return (out,)

    return y, mean_numpy_pullback
'''


def test_an_output_allocated_by_numpy_is_allocated_like_the_input(snip) -> None:
    from scalarlint.runtime import StrictArray, disallow_scalar, strict, to_host

    outcome = snip.fixed(HOST_OUTPUT)
    assert "        out = np.empty(x.shape[0], like=x)\n        out[:x.shape[0]] = dy / x.shape[0]\n" in outcome.text
    namespace: dict[str, object] = {}
    exec(compile(outcome.text, "fixed", "exec"), namespace)
    with disallow_scalar():
        _, pullback = namespace["rrule_mean_numpy"](strict(np.arange(4.0)))  # type: ignore[operator]
        (out,) = pullback(strict(np.asarray(2.0)))
    assert isinstance(out, StrictArray)  # on the device, not a host array filled by a sync
    np.testing.assert_array_equal(to_host(out), [0.5] * 4)
    # the rule's own namespace already allocates on the device: nothing to add
    own = HOST_OUTPUT.replace("    def mean_numpy_pullback(dy):\n", "    xp = x.__array_namespace__()\n\n    def mean_numpy_pullback(dy):\n").replace("np.empty(x.shape[0])", "xp.empty(x.shape[0])")
    assert "like=" not in snip.fixed(own).text



NEIGHBOURS = '''\
from array_api_compat import array_namespace


def rrule_diff(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    y = x[1:] - x[:-1]

    def diff_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(1, len(x)):
            dx[i] = dy[i - 1]
        for i in range(len(x) - 1):
            dx[i] -= dy[i] * x[i + 1] / x[i + 1]
        return (dx,)

    return y, diff_pullback
'''


def test_neighbour_reads_become_shifted_slices(snip) -> None:
    from scalarlint.runtime import disallow_scalar, strict, to_host

    outcome = snip.fixed(NEIGHBOURS)
    assert "        dx[1:len(x)] = dy[:len(x) - 1]\n" in outcome.text
    assert "        dx[:len(x) - 1] -= dy[:len(x) - 1] * x[1:len(x)] / x[1:len(x)]\n" in outcome.text
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    exec(compile(NEIGHBOURS, "before", "exec"), before)
    exec(compile(outcome.text, "after", "exec"), after)
    x, dy = np.array([1.0, 2.0, 4.0, 8.0, 3.0]), np.array([1.0, -1.0, 2.0, 5.0])
    expected = before["rrule_diff"](x)[1](dy)[0]  # type: ignore[operator]
    with disallow_scalar():
        _, pullback = after["rrule_diff"](strict(x))  # type: ignore[operator]
        got = to_host(pullback(strict(dy))[0])
    np.testing.assert_allclose(got, expected)
