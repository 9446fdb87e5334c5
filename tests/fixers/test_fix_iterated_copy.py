"""A loop over a device array iterates a host copy made in its header (SL104, SL105): the
rewrite, what it answers, when it is declined, and that the fixed rule computes the same."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from scalarlint.runtime import ScalarIndexingError, disallow_scalar, strict, to_host

# The thread bookkeeping of torchkbnufft's interpolation, in array-API form: each loop walks an
# array expression whose elements are converted with ``int`` or compared as numbers.
RULE = '''\
import array_api_compat


def fork_backward(gy, sizes, num_threads):
    xp = array_api_compat.array_namespace(gy)
    factors = xp.arange(1, num_threads + 1)
    per_fork = num_threads
    # the most forks that still fit the batch
    for factor in xp.flip(factors, axis=0):
        if num_threads // int(factor) <= gy.shape[0]:
            per_fork = int(factor)
    shape = [gy.shape[0]]
    for el in xp.asarray(sizes) * 1:
        shape.append(int(el))
    count = 0
    for i, v in enumerate(xp.arange(gy.shape[0]) * 2):
        if v > 2:
            count += i
    return xp.reshape(gy, tuple(shape)) / (per_fork + count)
'''

SIZES_LOOP = "    for el in xp.asarray(sizes) * 1:\n        shape.append(int(el))\n"


def _load(text: str):  # type: ignore[no-untyped-def]
    namespace: dict[str, object] = {}
    exec(compile(text, "<fixed>", "exec"), namespace)
    return namespace["fork_backward"]


def test_each_loop_iterates_a_host_copy_made_in_its_header(snip) -> None:
    outcome = snip.fixed(RULE)
    text = outcome.text
    assert text.count("from scalarlint.runtime import to_host\n") == 1
    assert "    # the most forks that still fit the batch\n    for factor in to_host(xp.flip(factors, axis=0)):\n" in text
    assert "    for el in to_host(xp.asarray(sizes) * 1):\n        shape.append(int(el))\n" in text
    assert "    for i, v in enumerate(to_host(xp.arange(gy.shape[0]) * 2)):\n" in text
    assert text.count("to_host(") == 3 and outcome.remaining == []


def test_every_finding_it_claims_is_gone_and_fixing_again_changes_nothing(snip) -> None:
    found = snip.diagnostics(RULE)
    claimed = Counter(d.code for d in found if any(f.fallback and "host copy" in f.message for f in d.fixes))
    assert claimed == Counter({"SL104": 3, "SL105": 4})
    fixes = [f for _, f in snip.fixes_of(RULE)]
    assert all(f.applicability is snip.UNSAFE and f.fallback for f in fixes)
    assert snip.fixed(RULE, unsafe=False).text == snip.source(RULE).text
    once = snip.fixed(RULE).text
    assert snip.fixed(once).text == once


@pytest.mark.parametrize("sizes", [[2, 3], [6], [1, 2, 3]])
def test_the_fixed_rule_computes_the_same_and_runs_on_the_strict_array(snip, sizes: list[int]) -> None:
    original, fixed = _load(RULE), _load(snip.fixed(RULE).text)
    gy = np.arange(6.0).reshape(1, 6)
    expected = original(gy, np.array(sizes), 4)
    np.testing.assert_array_equal(fixed(gy, np.array(sizes), 4), expected)
    with disallow_scalar():
        with pytest.raises(ScalarIndexingError):
            original(strict(gy), strict(np.array(sizes)), 4)
        on_device = fixed(strict(gy), strict(np.array(sizes)), 4)
    np.testing.assert_array_equal(to_host(on_device), expected)


@pytest.mark.parametrize(
    "loop",
    [
        "    for el in xp.asarray(sizes) * 1:\n        shape.append(el)\n",  # handed on whole
        "    for el in xp.asarray(sizes) * 1:\n        if el > 0:\n            shape.append(3)\n",  # no conversion, rank unknown
        "    for el in xp.asarray(sizes) * 1:\n        if len(shape) > 1:\n            shape.append(int(el))\n",  # converted on some trips
        "    for el in xp.asarray(sizes) * 1:\n        if len(shape) > 5:\n            continue\n        shape.append(int(el))\n",  # a trip may end first
        "    for el in xp.asarray(sizes) * 1:\n        shape.append(len(shape) > 5 and int(el))\n",  # the right of `and`
    ],
    ids=["handed-on", "no-conversion", "conditional-conversion", "continue-before", "right-of-and"],
)
def test_declined_where_an_element_may_be_a_row(snip, loop: str) -> None:
    """Without rank evidence, only an ``int``/``float`` of the element on every trip proves
    each element is one number; and an element used otherwise stays on the device."""
    text = RULE.replace(SIZES_LOOP, loop)
    assert any(d.code == "SL104" and "xp.asarray(sizes)" in d.message for d in snip.diagnostics(text))
    assert "to_host(xp.asarray(sizes) * 1)" not in snip.fixed(text).text


def test_declined_where_int_is_not_the_builtin(snip) -> None:
    text = RULE.replace("    count = 0\n", "    count = 0\n\n    def int(v):\n        return v\n\n", 1)
    assert "to_host(xp.asarray(sizes) * 1)" not in snip.fixed(text).text


def test_declined_in_a_torchscript_function(snip) -> None:
    """``torch.jit.script`` compiles the function: a call of a Python helper would not compile."""
    text = "import torch\n" + RULE.replace("def fork_backward", "@torch.jit.script\ndef fork_backward")
    assert any(d.code == "SL104" for d in snip.diagnostics(text))
    assert "to_host" not in snip.fixed(text).text


def test_an_array_hoisted_before_an_outer_loop_is_left_to_that_copy(snip) -> None:
    """``host_copy`` copies a one-dimensional parameter once before the outermost loop; the
    inner loop then iterates that copy, not a second one made per outer trip."""
    text = (
        "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\nimport array_api_compat\n\n"
        "if TYPE_CHECKING:\n    from thinc.types import Ints1d\n\n\n"
        "def repeat_backward(dY, lengths: Ints1d, times):\n"
        "    xp = array_api_compat.array_namespace(dY)\n"
        "    total = 0\n"
        "    for _ in range(dY.shape[0]):\n"
        "        for length in lengths:\n"
        "            total += int(length)\n"
        "    return dY * total\n"
    )
    iteration = [d for d in snip.diagnostics(text) if d.code == "SL104" and "`lengths`" in d.message]
    assert [f.message.split(" ")[0] for d in iteration for f in d.fixes] == ["Copy"]
    fixed = snip.fixed(text).text
    assert "    lengths_host = to_host(lengths)\n" in fixed and "for length in lengths_host:" in fixed
    assert "to_host(lengths_host)" not in fixed
