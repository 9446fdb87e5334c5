"""Every reference rule on strict PyTorch CPU tensors (the ``torch-strict`` backend).

The same cases as ``test_rules_strict.py``, with ``check_rule`` comparing NumPy with PyTorch on
the CPU inside ``disallow_scalar()``: a scalar read or write, iteration, host conversion or
data-dependent shape in a rule (or in what it calls, ``array_api_compat.torch`` included) fails.
Skipped with the reason where PyTorch is not installed.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("torch", reason="the torch-strict backend needs torch (pip install torch)")

from scalarlint.rules import RULES  # noqa: E402
from scalarlint.testing import check_rule  # noqa: E402
import rule_cases as cases  # noqa: E402  (tests/rules is on sys.path)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("case", cases.ALL_CASES, ids=[c.id for c in cases.ALL_CASES])
def test_rule_on_strict_torch(case: Any) -> None:
    check_rule(RULES[case.rule], *case.make_args(), backends=("torch-strict",), rtol=1e-12, atol=1e-14, **case.kwargs)


def test_the_torch_strict_harness_is_not_vacuous() -> None:
    """A per-element pullback fails on torch-strict and names its line."""
    import numpy as np

    from scalarlint.runtime import ScalarIndexingError

    def rrule_loop_square(x: Any) -> Any:
        def pullback(dy: Any) -> Any:
            dx = x * 0
            for i in range(x.shape[0]):
                dx[i] = 2 * x[i] * dy[i]
            return (dx,)

        return x * x, pullback

    with pytest.raises(ScalarIndexingError, match="scalar access") as info:
        check_rule(rrule_loop_square, np.array([1.0, 2.0]), backends=("torch-strict",))
    assert "getindex x[0]" in str(info.value)
