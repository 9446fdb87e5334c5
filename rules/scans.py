"""Scans: cumsum and cumprod.

Both pullbacks are reverse scans. ``cumprod`` is the famous one: its textbook
pullback divides by ``x`` and CPU implementations patch the zero case with an
element loop. Here the zero case is a handful of masks built from a running
count of zeros, so the pullback is a fixed number of whole-array kernels.
"""

from __future__ import annotations

from typing import Any

from ._core import Pullback, normalize_axis, positional_cotangents
from ._portable import (
    Array,
    as_cotangent,
    count_along,
    cumprod,
    cumsum,
    namespace,
    reverse_cumsum,
    zeros_where_not,
)


def _scan_operand(xp: Any, x: Array, axis: int | None) -> tuple[Array, int]:
    """The array and axis a scan works on: ``axis=None`` scans the flattened array."""
    if axis is None:
        return xp.reshape(x, (-1,)), 0
    return x, normalize_axis(axis, x.ndim)


@positional_cotangents
def rrule_cumsum(x: Array, axis: int | None = 0) -> tuple[Array, Pullback]:
    """``y = cumsum(x, axis)``; ``dx[i] = sum(dy[i:])`` along ``axis`` (a reverse cumsum).

    ``axis=None`` scans the flattened array (NumPy's convention) and ``dx`` is
    reshaped back to ``x.shape``. An empty axis gives empty ``y`` and ``dx``.
    """
    xp = namespace(x)
    work, ax = _scan_operand(xp, x, axis)
    y = cumsum(xp, work, ax)
    shape = tuple(x.shape)

    def cumsum_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        dx = reverse_cumsum(xp, dy, ax)
        return xp.reshape(dx, shape), None

    return y, cumsum_pullback


@positional_cotangents
def rrule_cumprod(x: Array, axis: int | None = 0) -> tuple[Array, Pullback]:
    """``y = cumprod(x, axis)``; zeros are handled exactly, without element loops.

    ``dx[i] = sum_{k >= i} dy[k] * prod_{j <= k, j != i} x[j]``. Let ``z`` be the
    first zero along the axis (per slice). Then, exactly:

    - ``i < z`` (and every ``i`` when there is no zero): ``x[i] != 0`` and
      ``y[k] == 0`` for ``k >= z``, so ``dx[i] = sum_{k >= i} dy[k] y[k] / x[i]``;
    - ``i == z``: ``dx[z] = sum_{k >= z} dy[k] * cumprod(x with x[z] := 1)[k]``,
      which automatically stops at a second zero;
    - ``i > z``: every product contains ``x[z] == 0``, so ``dx[i] = 0``.

    This is the case split of ChainRules' ``∇cumprod``, done with masks built
    from a running count of zeros. Caveat shared with ChainRules: for ``i < z``
    the division means a prefix product that under- or overflows (no zero
    involved) loses accuracy in ``dx``. ``axis=None`` scans the flattened array.
    """
    xp = namespace(x)
    work, ax = _scan_operand(xp, x, axis)
    y = cumprod(xp, work, ax)
    shape = tuple(x.shape)

    def cumprod_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        dy = xp.reshape(dy, tuple(work.shape))
        is_zero = work == 0
        zeros_so_far = count_along(xp, is_zero, ax)
        before_first_zero = zeros_so_far == 0
        first_zero = is_zero & (zeros_so_far == 1)
        safe_x = xp.where(before_first_zero, work, xp.ones_like(work))
        part_before = reverse_cumsum(xp, dy * y, ax) / safe_x
        skip_zero = cumprod(xp, xp.where(first_zero, xp.ones_like(work), work), ax)
        part_zero = reverse_cumsum(xp, dy * skip_zero, ax)
        dx = xp.where(before_first_zero, part_before, zeros_where_not(xp, first_zero, part_zero))
        return xp.reshape(dx, shape), None

    return y, cumprod_pullback
