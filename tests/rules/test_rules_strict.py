"""Every rule on the strict array through ``scalarlint.testing``.

``check_rule`` runs each case on NumPy and on StrictArray inside
``disallow_scalar()``: any scalar read or write, iteration, host conversion or
data-dependent shape raises, the outputs and cotangents must equal NumPy's and
must be device (strict) arrays of the right shapes. ``check_rule_fd`` is the
library's own finite-difference check, run on the random cases as a second
opinion next to ``test_rules_fd.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from scalarlint.rules import RULES
from scalarlint.runtime import ScalarIndexingError, allow_scalar, strict, to_host
from scalarlint.testing import check_rule, check_rule_fd
import rule_cases as cases  # tests/rules is on sys.path (pytest's default import mode)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("case", cases.ALL_CASES, ids=[c.id for c in cases.ALL_CASES])
def test_rule_on_strict_array(case: Any) -> None:
    check_rule(RULES[case.rule], *case.make_args(), backends=("strict",), rtol=1e-12, atol=1e-14, **case.kwargs)


FD_RANDOM = [c for c in cases.RANDOM_CASES if c.fd]


@pytest.mark.parametrize("case", FD_RANDOM, ids=[c.id for c in FD_RANDOM])
def test_rule_check_rule_fd(case: Any) -> None:
    check_rule_fd(RULES[case.rule], *case.make_args(), **case.kwargs)


def test_strict_array_catches_a_chainrules_style_norm_inf_pullback() -> None:
    """The harness is not vacuous: the loop our norm-inf rule replaces does raise."""

    def chainrules_norm_inf_back(x: Any, y: Any, dy: Any) -> Any:
        dx = x * 0
        for i in range(x.shape[0] - 1, -1, -1):  # findlast(==(y), abs.(x))
            if abs(x[i]) == y:
                dx[i] = np.sign(x[i]) * dy
                return dx
        return dx

    x = strict(np.array([3.0, -3.0, 1.0]))
    with pytest.raises(ScalarIndexingError):
        chainrules_norm_inf_back(x, strict(np.array(3.0)), 1.0)
    with allow_scalar():
        got = chainrules_norm_inf_back(x, strict(np.array(3.0)), 1.0)
    y, pullback = RULES["norm"](x, p=np.inf)
    (dx,) = pullback(strict(np.array(1.0)))
    np.testing.assert_array_equal(to_host(dx), to_host(got))


def test_rule_outputs_stay_on_the_strict_device() -> None:
    x = strict(np.array([1.0, 5.0, 5.0, 2.0]))
    (value, index), pullback = RULES["findmax"](x)
    assert type(index).__name__ == "StrictArray" and type(value).__name__ == "StrictArray"
    (dx,) = pullback((strict(np.array(2.0)), None))
    np.testing.assert_array_equal(to_host(dx), [0.0, 2.0, 0.0, 0.0])
