"""Every reference rule on every backend the pytest plugin selects (``--scalarlint-backends``).

The other rule tests name their backend (``backends=("strict",)``); this module takes the
plugin's ``check_rule`` fixture instead, so one run covers whatever ``--scalarlint-backends``
picks: NumPy, the strict array, PyTorch (CUDA when it sees a GPU, else the CPU), strict CPU
PyTorch, and CuPy and JAX where they are installed (skipped with the reason elsewhere; JAX's
float32 default is skipped by the fixture). ``benchmarks/gpu_run.sh`` runs it on a GPU machine
with ``--scalarlint-backends=all``, where the CuPy and PyTorch CUDA runs check for host syncs
with the libraries' own detectors. Finite differences are ``test_rules_fd.py``'s job.
"""

from __future__ import annotations

from typing import Any

import pytest

from scalarlint.rules import RULES
import rule_cases as cases  # tests/rules is on sys.path (pytest's default import mode)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("case", cases.ALL_CASES, ids=[c.id for c in cases.ALL_CASES])
def test_rule_on_each_selected_backend(check_rule: Any, case: Any) -> None:
    check_rule(RULES[case.rule], *case.make_args(), fd=False, rtol=1e-12, atol=1e-14, **case.kwargs)
