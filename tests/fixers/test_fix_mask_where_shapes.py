"""``mask_where`` on the shapes of real code: aliases, attribute targets, masks that share the
written array's shape by construction, and masked reads of whole expressions
(``fixers/mask_where.py``, ``fixers/mask_shape.py``; MyGrad's margin ranking loss and ``prod``)."""

from __future__ import annotations

import numpy as np

ALIAS = '''\
import numpy as np


class MarginRanking:
    def rrule(self, x1, x2, y, margin):
        M = margin - y * np.subtract(x1, x2)
        not_thresh = M <= 0
        loss = M
        loss[not_thresh] = 0.0
        self._grad = np.ones_like(M)
        self._grad[not_thresh] = 0.0
        return np.mean(loss), M
'''

PROD = '''\
import numpy as np


def rrule_prod(x):
    x = np.asarray(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        dldx = np.prod(x, axis=0, keepdims=True) / x
    has_zero = np.broadcast_to(np.sum(x == 0, axis=0, keepdims=True), x.shape)
    dldx[has_zero > 1] = np.nan_to_num(dldx[has_zero > 1])
    x = x.copy()
    is_zero = x == 0
    x[is_zero] = 1
    loc = np.logical_and(is_zero, has_zero == 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        dldx[loc] = (np.prod(x, axis=0, keepdims=True) / x)[loc]
    return dldx
'''


def _run(text: str, name: str, *args: object) -> object:
    namespace: dict[str, object] = {}
    exec(compile(text, "rule", "exec"), namespace)
    return namespace[name](*args)  # type: ignore[operator]


def _margin(text: str, x1: np.ndarray, x2: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    namespace: dict[str, object] = {}
    exec(compile(text, "rule", "exec"), namespace)
    op = namespace["MarginRanking"]()  # type: ignore[operator]
    loss, M = op.rrule(x1, x2, y, 0.5)
    return float(loss), M, op._grad


def test_an_alias_and_an_attribute_target_become_where(snip) -> None:
    outcome = snip.fixed(ALIAS)
    assert "        loss[...] = np.where(not_thresh, 0.0, loss)\n" in outcome.text
    assert "        self._grad[...] = np.where(not_thresh, 0.0, self._grad)\n" in outcome.text
    assert snip.fixed(outcome.text).text == outcome.text
    assert not snip.fixes_of(outcome.text, "SL106")


def test_the_alias_sees_the_write_after_the_fix_as_before(snip) -> None:
    fixed = snip.fixed(ALIAS).text
    rng = np.random.default_rng(3)
    for n in (1, 5, 12):
        x1, x2, y = rng.normal(size=n), rng.normal(size=n), rng.choice([-1.0, 1.0], size=n)
        loss, M, grad = _margin(ALIAS, x1, x2, y)
        loss2, M2, grad2 = _margin(fixed, x1, x2, y)
        assert loss2 == loss
        np.testing.assert_array_equal(grad2, grad)
        # the masked write zeroed ``M`` through its alias ``loss``; the whole write into the
        # same buffer does too
        kept = 0.5 - y * (x1 - x2)
        np.testing.assert_array_equal(M, np.where(kept <= 0, 0.0, kept))
        np.testing.assert_array_equal(M2, M)


def test_masked_reads_of_whole_expressions_through_the_same_mask(snip) -> None:
    outcome = snip.fixed(PROD)
    assert "    dldx[...] = np.where(has_zero > 1, np.nan_to_num(dldx), dldx)\n" in outcome.text
    assert "    x[...] = np.where(is_zero, 1, x)\n" in outcome.text
    assert "        dldx[...] = np.where(loc, np.prod(x, axis=0, keepdims=True) / x, dldx)\n" in outcome.text
    assert snip.fixed(outcome.text).text == outcome.text
    x = np.array([[0.0, 0.0, 2.0, 1.5], [0.0, 3.0, 0.0, 2.0], [4.0, 0.0, 0.0, -1.0]])
    for case in (x, x.T, np.abs(x) + 1, np.zeros((2, 3))):
        expected = _run(PROD, "rrule_prod", case)
        np.testing.assert_array_equal(_run(outcome.text, "rrule_prod", case), expected)


def test_a_masked_read_in_the_value_gets_the_writes_fix(snip) -> None:
    fixes = {}
    for diagnostic, fix in snip.fixes_of(PROD, "SL106"):
        fixes.setdefault(diagnostic.location.row, []).append(fix.edits)
    assert len(fixes[9]) == 2 and fixes[9][0] == fixes[9][1]  # the write and its read
    assert len(fixes[15]) == 2 and fixes[15][0] == fixes[15][1]


def _left_alone(snip, original: str, cases: dict[str, str]) -> None:
    """Each case's new lines (or, where it only removes lines, the attribute's masked write)
    survive every fix offered for it."""
    for why, text in cases.items():
        changed = [line for line in text.splitlines() if line not in original.splitlines()]
        kept = changed or [line for line in text.splitlines() if "self._grad[not_thresh] =" in line]
        fixed = {snip.apply_one(text, f) for _, f in snip.fixes_of(text, "SL106")}
        assert all(line in out for out in fixed for line in kept), why


def test_left_alone_where_the_shapes_or_the_value_are_not_proven(snip) -> None:
    write = "        dldx[loc] = (np.prod(x, axis=0, keepdims=True) / x)[loc]"
    _left_alone(snip, PROD, {
        # a mask of lower rank (one per row) picks whole rows; `np.where` would not
        "a lower-rank mask": PROD.replace(write, "        rows = np.sum(x, axis=1) > 0\n        dldx[rows] = 0"),
        # a keepdims reduction has the rank but not the shape: it only broadcasts back
        "a reduced mask": PROD.replace(write, "        cols = np.sum(x, axis=0, keepdims=True) > 0\n        dldx[cols] = 0"),
        "a read through another mask": PROD.replace(write, "        dldx[loc] = (x * 2)[has_zero > 1]"),
        "a mask built through a mask": PROD.replace(write, "        big = x[is_zero] > 0\n        dldx[big] = 0"),
        # the sum of the selected elements is not the sum of all of them
        "a reduction of the masked read": PROD.replace(write, "        dldx[loc] = np.sum(dldx[loc])"),
        "a running sum of the masked read": PROD.replace(write, "        dldx[loc] = np.cumsum(x[loc])"),
        "a mask bound in a loop": PROD.replace(write, "        for _ in range(2):\n            loc = x > 1\n        dldx[loc] = 0"),
    })
    _left_alone(snip, ALIAS, {
        # a call between the assignment and the write could rebind the attribute
        "an attribute written after a call": ALIAS.replace(
            "        self._grad[not_thresh] = 0.0", "        self.reset()\n        self._grad[not_thresh] = 0.0"
        ),
        "an attribute with nothing assigned before": ALIAS.replace("        self._grad = np.ones_like(M)\n", ""),
    })


def test_a_declined_write_and_its_reads_say_what_stopped_it(snip) -> None:
    write = "        dldx[loc] = (np.prod(x, axis=0, keepdims=True) / x)[loc]"
    reasons = {
        "        rows = np.sum(x, axis=1) > 0\n        dldx[rows] = 0": "nothing shows the mask has the array's shape",
        "        dldx[loc] = np.sum(dldx[loc])": "the value is not elementwise in reads through the same mask",
    }
    for lines, reason in reasons.items():
        found = [d for d in snip.diagnostics(PROD.replace(write, lines)) if d.code == "SL106" and d.location.row >= 15]
        assert len(found) == lines.count("[") and all(reason in (d.no_fix_reason or "") for d in found), lines
