"""Elementwise rules with kinks: abs, clip, where.

Nothing here needs an index at all; these rules are in the set because their
subgradient conventions at the kinks (``x == 0``, ``x == lo``) are where ports
from scalar code go wrong, and because ``clip``/``where`` broadcast, so their
cotangents must be summed back to each operand's shape.
"""

from __future__ import annotations

from typing import Any

from ._core import Pullback, positional_cotangents
from ._portable import (
    Array,
    as_cotangent,
    full_like_device,
    namespace,
    unbroadcast,
    zeros_where_not,
)


def _is_array(v: Any) -> bool:
    """Arrays have a shape and a dtype; Python numbers and ``None`` do not."""
    return hasattr(v, "shape") and hasattr(v, "dtype")


def _as_bound(xp: Any, v: Any, like: Array) -> Array:
    """A clip bound as an array: arrays pass through, numbers become 0-d on ``like``'s device."""
    return v if _is_array(v) else full_like_device(xp, (), v, like)


@positional_cotangents
def rrule_abs(x: Array) -> tuple[Array, Pullback]:
    """``y = |x|``; ``dx = dy * sign(x)``, subgradient ``0`` at ``x == 0`` (ChainRules).

    For complex ``x``, ``sign(x) = x / |x|`` (and 0 at 0), which is ChainRules'
    ``real(dy) * x / |x|`` for a real ``dy``.
    """
    xp = namespace(x)
    y = xp.abs(x)

    def abs_pullback(dy: Any) -> tuple[Array]:
        dy = as_cotangent(xp, dy, y)
        return (dy * xp.sign(x),)

    return y, abs_pullback


@positional_cotangents
def rrule_clip(x: Array, lo: Any = None, hi: Any = None) -> tuple[Array, Pullback]:
    """``y = min(max(x, lo), hi)`` (NumPy ``clip``; ``lo``/``hi`` may be ``None``).

    The cotangent goes to whichever operand ``y`` equals by construction:

    - ``x`` where ``lo <= x <= hi`` (ties at a bound go to ``x``, as ChainRules'
      ``clamp`` rule: ``ifelse(lo <= x <= hi, dy, 0)``);
    - ``lo`` where ``x < lo``, ``hi`` where ``max(x, lo) > hi`` (so ``lo > hi``
      sends everything to ``hi``, whose value ``y`` takes, as in NumPy);
    - NaN in ``x`` passes through to ``x``.

    Array bounds broadcast and get cotangents summed back to their shapes;
    Python-number or ``None`` bounds are constants and get ``None``.
    """
    xp = namespace(x, lo, hi)
    lower = x if lo is None else xp.maximum(x, _as_bound(xp, lo, x))
    y = lower if hi is None else xp.minimum(lower, _as_bound(xp, hi, x))

    def clip_pullback(dy: Any) -> tuple[Array, Any, Any]:
        dy = as_cotangent(xp, dy, x)
        dy = xp.zeros_like(y) + dy
        above = xp.zeros_like(y, dtype=xp.bool) if hi is None else lower > hi
        below = xp.zeros_like(y, dtype=xp.bool) if lo is None else (x < lo) & ~above
        to_x = ~above & ~below
        dx = unbroadcast(xp, zeros_where_not(xp, to_x, dy), tuple(x.shape))
        dlo = unbroadcast(xp, zeros_where_not(xp, below, dy), tuple(lo.shape)) if _is_array(lo) else None
        dhi = unbroadcast(xp, zeros_where_not(xp, above, dy), tuple(hi.shape)) if _is_array(hi) else None
        return dx, dlo, dhi

    return y, clip_pullback


@positional_cotangents
def rrule_where(c: Array, x: Any, y: Any) -> tuple[Array, Pullback]:
    """``out = where(c, x, y)``; ``dx = dy`` where ``c`` holds, ``dy`` gets the rest.

    ``c`` is a boolean array (no cotangent). ``x`` and ``y`` broadcast against
    ``c``; array operands get cotangents summed back to their shapes, Python
    numbers get ``None``. The cotangent is routed by ``c`` even where ``x == y``.
    """
    xp = namespace(c, x, y)
    out = xp.where(c, x, y)

    def where_pullback(dout: Any) -> tuple[None, Any, Any]:
        dout = as_cotangent(xp, dout, out)
        dout = xp.zeros_like(out) + dout
        dx = unbroadcast(xp, zeros_where_not(xp, c, dout), tuple(x.shape)) if _is_array(x) else None
        dy = unbroadcast(xp, zeros_where_not(xp, ~c, dout), tuple(y.shape)) if _is_array(y) else None
        return None, dx, dy

    return out, where_pullback
