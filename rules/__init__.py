"""Reference AD rule set (installed as ``scalarlint.rules``).

``RULES`` maps a rule name to an rrule: ``RULES[name](*args, **kwargs)`` returns
``(y, pullback)`` and ``pullback(dy)`` returns one cotangent per positional
argument (``None`` for non-differentiable ones such as index arrays or ``p``).

Every rule is written against the array API (``array_api_compat``), so it runs
unchanged on NumPy, CuPy, PyTorch and the strict array, and none of them reads
an element to the host, loops over data or produces a data-dependent shape.
Conventions (ties, zeros, kinks) are in each rule's docstring and in
``docs/rules.md``.
"""

from __future__ import annotations

from ._core import RRule
from .decompositions import rrule_cholesky, rrule_eigvalsh, rrule_hermitian_part, rrule_svdvals
from .elementwise import rrule_abs, rrule_clip, rrule_where
from .indexing import rrule_concatenate, rrule_getindex, rrule_repeat, rrule_sort, rrule_take
from .linalg import rrule_det, rrule_logdet, rrule_matmul, rrule_trace
from .logexp import rrule_logsumexp, rrule_softmax
from .norms import rrule_norm, rrule_normalize
from .polynomials import rrule_evalpoly
from .reductions import (
    rrule_findmax,
    rrule_findmin,
    rrule_maximum,
    rrule_mean,
    rrule_median,
    rrule_minimum,
    rrule_prod,
    rrule_sum,
)
from .scans import rrule_cumprod, rrule_cumsum

RULES: dict[str, RRule] = {
    "sum": rrule_sum,
    "mean": rrule_mean,
    "prod": rrule_prod,
    "cumsum": rrule_cumsum,
    "cumprod": rrule_cumprod,
    "maximum": rrule_maximum,
    "minimum": rrule_minimum,
    "findmax": rrule_findmax,
    "findmin": rrule_findmin,
    "norm": rrule_norm,
    "normalize": rrule_normalize,
    "getindex": rrule_getindex,
    "take": rrule_take,
    "sort": rrule_sort,
    "logsumexp": rrule_logsumexp,
    "softmax": rrule_softmax,
    "trace": rrule_trace,
    "det": rrule_det,
    "logdet": rrule_logdet,
    "concatenate": rrule_concatenate,
    "repeat": rrule_repeat,
    "clip": rrule_clip,
    "abs": rrule_abs,
    "where": rrule_where,
    "matmul": rrule_matmul,
    "median": rrule_median,
    "evalpoly": rrule_evalpoly,
    "cholesky": rrule_cholesky,
    "svdvals": rrule_svdvals,
    "eigvalsh": rrule_eigvalsh,
    "hermitian_part": rrule_hermitian_part,
}

__all__ = ["RULES"] + sorted(f.__name__ for f in RULES.values())
