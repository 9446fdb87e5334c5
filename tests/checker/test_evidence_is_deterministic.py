"""The evidence of a finding does not depend on where nodes sit in memory.

libcst hands a name's assignments over as a set ordered by the nodes' identities, which change
from run to run; the evidence of a name assigned on several paths followed that order, so the
same file could print different evidence (and, past the three paths it quotes, different
reasons) in two runs. The reaching assignments now come in source order.
"""

from __future__ import annotations

import gc

from scalarlint.analysis.sources import SourceFile
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic
from scalarlint.engine import check_source

# Four paths assign `axes`; the read after them is reported with the reason of each.
SEVERAL_PATHS = '''\
import numpy as np
import torch


class Plot(torch.autograd.Function):
    @staticmethod
    def backward(ctx, grad, flag, mode):
        axes = grad * 2.0
        if flag:
            axes = np.asarray([axes])
        elif mode:
            axes = axes[None, :]
        else:
            axes = np.zeros_like(grad)
        return axes[0, 1]
'''


def _evidence() -> tuple[str, ...]:
    found = check_source(SourceFile("m.py", SEVERAL_PATHS, "utf-8", SEVERAL_PATHS.encode()), Config())
    assert isinstance(found, list)
    reads = [d for d in found if isinstance(d, Diagnostic) and d.code == "SL101" and d.location.row == 15]
    assert len(reads) == 1, [(d.code, d.location.row) for d in found]
    return reads[0].evidence


def test_the_paths_of_a_name_are_quoted_in_source_order() -> None:
    evidence = " | ".join(_evidence())
    quoted = [evidence.find(text) for text in ("grad * 2.0", "np.asarray([axes])", "axes[None, :]", "np.zeros_like(grad)")]
    present = [at for at in quoted if at >= 0]
    assert len(present) >= 2, evidence
    assert present == sorted(present), evidence


def test_the_same_source_gives_the_same_evidence_every_time() -> None:
    first = _evidence()
    for _ in range(12):  # each analysis builds its tree at other addresses
        gc.collect()
        assert _evidence() == first
