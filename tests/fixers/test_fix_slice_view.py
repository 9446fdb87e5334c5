"""Size-1 slice views (SL101/SL102): what is rewritten, what is not, and how safe it is."""

from __future__ import annotations

import numpy as np
import pytest

HEAD = """\
import array_api_compat


def rrule_f(x, A, dy):
    xp = array_api_compat.array_namespace(x)
    v = x.reshape(-1)
    M = A.reshape(2, 2)
"""


def body(*lines: str) -> str:
    return HEAD + "".join(f"    {line}\n" for line in lines) + "    return v, M\n"


def test_write_and_its_reads_become_views_together(snip) -> None:
    text = body("i = v.shape[0] - 1", "dv = xp.zeros_like(v)", "dv[i] = xp.sign(v[i]) * dy")
    found = snip.fixes_of(text)
    by_code = {d.code: f for d, f in found if f.applicability is snip.SAFE}
    assert set(by_code) == {"SL101", "SL102"}
    assert by_code["SL101"] == by_code["SL102"]  # one fix, shared by both findings
    out = snip.apply_one(text, by_code["SL102"])
    assert "    dv[i:i + 1] = xp.sign(v[i:i + 1]) * dy\n" in out


@pytest.mark.parametrize(
    ("index", "view"),
    [("0", "0:1"), ("3", "3:4"), ("-1", "-1:"), ("-2", "-2:-1"), ("n - 1", "n - 1:n"), ("k + 2", "k + 2:k + 3")],
)
def test_index_forms(snip, index: str, view: str) -> None:
    text = body("n = len(v)", "k = n // 2", "dv = xp.zeros_like(v)", f"dv[{index}] = v[{index}] * dy")
    outcome = snip.fixed(text, unsafe=False)
    assert f"dv[{view}] = v[{view}] * dy" in outcome.text
    assert outcome.remaining == []


@pytest.mark.parametrize("k", range(-4, 4))
def test_literal_views_select_the_same_element(snip, k: int) -> None:
    text = body("dv = xp.zeros_like(v)", f"dv[{k}] = v[{k}] * dy").replace("return v, M", "return dv")
    outcome = snip.fixed(text, unsafe=False)
    assert outcome.applied and outcome.remaining == []
    before, after = {}, {}
    exec(compile(snip.source(text).text, "before", "exec"), before)
    exec(compile(outcome.text, "after", "exec"), after)
    x, A = np.arange(1.0, 5.0), np.eye(2)
    np.testing.assert_array_equal(before["rrule_f"](x, A, 2.0), after["rrule_f"](x, A, 2.0))


def test_every_axis_gets_a_view(snip) -> None:
    text = body("dM = xp.zeros_like(M)", "dM[0, 1] = -dy * M[1, 0]")
    outcome = snip.fixed(text, unsafe=False)
    assert "dM[0:1, 1:2] = -dy * M[1:2, 0:1]" in outcome.text


def test_augmented_write(snip) -> None:
    text = body("dv = xp.zeros_like(v)", "dv[-1] += xp.exp(v[-1]) * dy")
    assert "dv[-1:] += xp.exp(v[-1:]) * dy" in snip.fixed(text, unsafe=False).text


@pytest.mark.parametrize(
    "line",
    [
        "y = v[0]",  # bound to a name: the 0-d value escapes
        "print(v[0])",  # passed to an unknown function
        "dy = dy if v[0] > 0 else -dy",  # Python control flow
    ],
)
def test_escaping_reads_are_not_sliced(snip, line: str) -> None:
    text = body(line)
    found = snip.fixes_of(text, "SL101")
    assert found, "the read is reported"
    assert all(f.applicability is snip.UNSAFE and "allow_scalar" in f.message for _, f in found)


def test_read_escaping_into_an_unknown_call_inside_a_write(snip) -> None:
    text = body("dv = xp.zeros_like(v)", "dv[0] = foo(v[1]) * dy")
    found = snip.fixes_of(text)
    write = [f for d, f in found if d.code == "SL102" and "slice" in f.message]
    assert len(write) == 1 and write[0].applicability is snip.UNSAFE  # foo's result shape is unknown
    out = snip.apply_one(text, write[0])
    assert "dv[0:1] = foo(v[1]) * dy" in out  # the escaping read is left alone
    read = [f for d, f in found if d.code == "SL101"]
    assert all("slice" not in f.message for f in read)


def test_index_of_unknown_sign_gets_a_view_that_is_right_for_minus_one(snip) -> None:
    text = HEAD.replace("rrule_f(x, A, dy)", "rrule_f(x, A, dy, i: int)") + "    dv = xp.zeros_like(v)\n    dv[i] = dy * v[i]\n    return v, M\n"
    found = [f for _, f in snip.fixes_of(text, "SL102") if "slice" in f.message]
    assert len(found) == 1 and found[0].applicability is snip.SAFE
    out = snip.apply_one(text, found[0])
    assert "dv[i:i + 1 or None] = dy * v[i:i + 1 or None]" in out
    # the view is the element for every index, -1 and the other negatives included
    x = np.arange(5.0)
    for i in range(-5, 5):
        view = x[i : i + 1 or None]
        assert view.shape == (1,) and view[0] == x[i]


def test_loop_over_data_gets_no_view(snip) -> None:
    text = body("dv = xp.zeros_like(v)", "for i in range(len(v)):", "    dv[i] = v[i] * dy")
    assert [d for d in snip.diagnostics(text) if d.code in ("SL101", "SL102")]
    found = snip.fixes_of(text)
    assert found and all("slice" not in f.message and "allow_scalar" not in f.message for _, f in found)
    assert {f.message for _, f in found if not f.fallback} == {"Vectorize the element loop into whole-array statements"}
    assert all(f.message.startswith("Copy `v` to the host once") for _, f in found if f.fallback)
    assert "dv[:len(v)] = v * dy" in snip.fixed(text).text  # the rewrite wins over the fallback


def test_structural_loop_index_is_nonnegative(snip) -> None:
    text = body("dM = xp.zeros_like(M)", "for k in range(2):", "    dM[k, k] = M[k, k] * dy")
    outcome = snip.fixed(text, unsafe=False)
    assert "dM[k:k + 1, k:k + 1] = M[k:k + 1, k:k + 1] * dy" in outcome.text


def test_read_with_more_axes_than_the_write_is_not_sliced(snip) -> None:
    text = body("dv = xp.zeros_like(v)", "dv[0] = M[0, 1] * dy")
    found = snip.fixes_of(text)
    assert all("slice" not in f.message for _, f in found)


def test_fixed_views_compute_the_same_numbers(snip) -> None:
    text = body(
        "n = v.shape[0]",
        "dv = xp.zeros_like(v)",
        "dv[n - 1] = xp.sign(v[n - 1]) * dy + v[0]",
        "dM = xp.zeros_like(M)",
        "dM[1, 0] = M[0, 1] * dy",
    ).replace("return v, M", "return dv, dM")
    outcome = snip.fixed(text, unsafe=False)
    assert outcome.remaining == []
    run = {}
    exec(compile(snip.source(text).text, "before", "exec"), run)
    after = {}
    exec(compile(outcome.text, "after", "exec"), after)
    x, A = np.array([1.0, -2.0, 3.0]), np.array([[1.0, 2.0], [3.0, 4.0]])
    for a, b in zip(run["rrule_f"](x, A, 0.5), after["rrule_f"](x, A, 0.5)):
        np.testing.assert_array_equal(a, b)

    from scalarlint.runtime import strict, to_host

    for a, b in zip(run["rrule_f"](x, A, 0.5), after["rrule_f"](strict(x), strict(A), 0.5)):
        np.testing.assert_array_equal(a, to_host(b))


def test_value_of_unknown_kind_makes_the_view_unsafe(snip) -> None:
    # an object array stores a list as one element in a[0] = seq but spreads it over a[0:1]
    text = body("obj = make()", "dv = xp.zeros_like(v)", "dv[0] = obj", "dv[1] = 2.0 * dy")
    views = {d.location.row: f.applicability for d, f in snip.fixes_of(text, "SL102") if "slice" in f.message}
    assert sorted(views.values()) == [snip.SAFE, snip.UNSAFE]
