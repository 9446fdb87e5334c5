"""Vector norms and normalization.

``norm(x, Inf)`` is the rule from the ChainRules issue that started this
project: its pullback searched for the winning element with ``findlast`` (one
scalar read per element on a GPU) and wrote it with ``∂x[ind] = ...``. Here the
search is ``n - 1 - argmax(flip(mask))`` and the write is a one-hot ``where``.
"""

from __future__ import annotations

import math
from typing import Any

from ._core import Pullback, positional_cotangents
from ._portable import (
    Array,
    as_cotangent,
    is_complex,
    flat_size,
    last_true_along,
    namespace,
    one_hot_along,
    zeros_where_not,
)



def _safe_reciprocal(xp: Any, y: Array) -> Array:
    """``1 / y`` where ``y != 0`` and ``0`` where ``y == 0`` (no division warning).

    This is the ``pinv`` of a scalar, which ChainRules uses for ``normalize`` and,
    in effect, for the 2-norm at ``x = 0``. The test is a device comparison
    inside ``where``: no host sync.
    """
    is_zero = y == 0
    return xp.where(is_zero, xp.zeros_like(y), 1 / xp.where(is_zero, xp.ones_like(y), y))


def _check_p(p: Any) -> float:
    """``p`` must be a host number: comparing a device ``p`` with 2 would sync."""
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"norm: p must be a host Python int or float, got {type(p).__name__}")
    return float(p)


def _norm_value(xp: Any, flat: Array, p: float) -> Array:
    """The forward ``norm(flat, p)`` for a 1-D, non-empty ``flat``."""
    a = xp.abs(flat)
    if p == math.inf:
        return xp.max(a)
    if p == -math.inf:
        return xp.min(a)
    if p == 0:
        return xp.sum(xp.astype(flat != 0, a.dtype))
    linalg = getattr(xp, "linalg", None)
    vector_norm = getattr(linalg, "vector_norm", None) if linalg is not None else None
    if vector_norm is not None and p > 0:
        return vector_norm(flat, ord=p)
    if p == 1:
        return xp.sum(a)
    if p == 2:
        return xp.sqrt(xp.sum(a * a))
    if p < 0:
        # 0 ** p is +inf for p < 0 and the norm is then 0: spell it without a
        # division-by-zero warning
        is_zero = a == 0
        powered = xp.where(is_zero, xp.full_like(a, math.inf), xp.where(is_zero, xp.ones_like(a), a) ** p)
        return xp.sum(powered) ** (1 / p)
    return xp.sum(a**p) ** (1 / p)


@positional_cotangents
def rrule_norm(x: Array, p: float = 2) -> tuple[Array, Pullback]:
    """``y = norm(x, p)`` of all elements (flattened, as Julia's ``norm``); ``p`` has no cotangent.

    Conventions, matching ChainRules' ``norm`` rules:

    - ``p = 2``: ``dx = dy * x / y``; at ``x = 0`` (``y = 0``) ``dx = 0``.
    - ``p = 1``: ``dx = dy * sign(x)``; subgradient ``0`` where ``x == 0``.
    - ``p = inf`` / ``-inf``: the cotangent goes to the LAST index whose magnitude
      equals ``y`` (ChainRules uses ``findlast``), ``dx[k] = dy * sign(x[k])``; ties
      do not split. If no element matches (``y`` is NaN) ``dx = 0``.
    - ``p = 0``: ``y`` is the number of non-zeros (a float); ``dx = 0``.
    - other ``p`` (including negative): ``dx = x * (|x|/y)**(p-2) * dy / y``; every
      element where that is not finite (``x == 0`` with ``p < 1``, ``y == 0``, ...)
      gets ``0``, as ChainRules' ``_normp_back_x`` does.
    - empty ``x``: ``y = 0`` (Julia's ``norm`` of an empty array) and an empty ``dx``.

    ``p`` must be a host Python number. Complex ``x`` is supported (``sign`` is
    ``x/|x|``).
    """
    xp = namespace(x)
    pf = _check_p(p)
    shape = tuple(x.shape)
    if flat_size(x) == 0:
        y = xp.sum(xp.abs(xp.reshape(x, (-1,))))  # a real 0 on x's device

        def empty_norm_pullback(dy: Any) -> tuple[Array, None]:
            return xp.zeros_like(x), None

        return y, empty_norm_pullback

    flat = xp.reshape(x, (-1,))
    y = _norm_value(xp, flat, pf)

    def norm_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, y)
        if pf == 2:
            dx = flat * (dy * _safe_reciprocal(xp, y))
        elif pf == 1:
            dx = xp.sign(flat) * dy
        elif pf in (math.inf, -math.inf):
            matches = xp.abs(flat) == y
            winner = last_true_along(xp, matches, 0)
            mask = one_hot_along(xp, winner, flat.shape[0], 0, 1, flat) & matches
            dx = zeros_where_not(xp, mask, xp.sign(flat) * dy)
        elif pf == 0:
            dx = xp.zeros_like(flat)
        else:
            a = xp.abs(flat)
            # y == 0 or y == inf: every term is 0 or non-finite, so dx = 0;
            # substitute 1s first so that no 0 ** negative is ever evaluated
            y_ok = (y != 0) & xp.isfinite(y)
            y_safe = xp.where(y_ok, y, xp.ones_like(y))
            skip = (a == 0) | ~y_ok
            ratio = xp.where(skip, xp.ones_like(a), a / y_safe)
            raw = flat * (ratio ** (pf - 2)) * (dy / y_safe)
            dx = zeros_where_not(xp, ~skip & xp.isfinite(raw), raw)
        return xp.reshape(dx, shape), None

    return y, norm_pullback


@positional_cotangents
def rrule_normalize(x: Array) -> tuple[Array, Pullback]:
    """``y = x / norm(x)`` (2-norm of all elements).

    ``dx = (dy - y * Re<y, dy>) / norm(x)``, ChainRules' ``normalize`` pullback.
    At ``x = 0`` we define ``y = 0`` and ``dx = 0``: ChainRules multiplies by
    ``pinv(norm(x))`` in the pullback (giving 0) while Base's forward returns
    NaNs; we use ``pinv`` in both, so the pair stays consistent.
    """
    xp = namespace(x)
    nrm, _ = rrule_norm(x, p=2)
    inv = _safe_reciprocal(xp, nrm)
    y = x * inv

    def normalize_pullback(dy: Any) -> tuple[Array]:
        dy = as_cotangent(xp, dy, x)
        if is_complex(xp, x):
            inner = xp.real(xp.sum(xp.conj(y) * dy))
        else:
            inner = xp.sum(y * dy)
        return ((dy - y * inner) * inv,)

    return y, normalize_pullback
