"""evalpoly: a polynomial's value at every point of an array, and its pullback.

ChainRules evaluates ``evalpoly(x, p)`` by Horner's rule and walks the coefficients one at
a time in the pullback: a loop-carried recurrence, one launch per coefficient. Here the
powers ``x**k`` are one broadcast, and the value and both cotangents are reductions over
the coefficient axis.
"""

from __future__ import annotations

from typing import Any

from ._core import Pullback, positional_cotangents
from ._portable import Array, arange_like, as_cotangent, namespace


@positional_cotangents
def rrule_evalpoly(x: Array, p: Array) -> tuple[Array, Pullback]:
    """``y = sum_k p[k] * x**k`` (``p[0]`` the constant term) for every element of ``x``.

    ``dx = dy * sum_k k p[k] x**(k-1)`` and ``dp[k] = sum(dy * x**k)`` over ``x``'s
    elements. ``x**(k-1)`` is taken with the exponent clipped at 0 and multiplied by ``k``,
    so ``x = 0`` gives ``p[1]`` and no ``0 * inf``. No coefficients give ``y = 0``.
    Summing the powers is less accurate than Horner's rule for high degrees with large
    ``|x|``; the rule targets the small degrees of AD code.
    """
    xp = namespace(x, p)
    x = xp.asarray(x)
    n = p.shape[0]
    k = xp.astype(arange_like(xp, n, p), p.dtype)
    base = xp.expand_dims(x, axis=-1)
    powers = base ** k
    y = xp.sum(powers * p, axis=-1)

    def evalpoly_pullback(dy: Any) -> tuple[Array, Array]:
        dy = as_cotangent(xp, dy, y)
        slopes = k * base ** xp.maximum(k - 1, xp.zeros_like(k))
        dx = dy * xp.sum(slopes * p, axis=-1)
        weighted = xp.expand_dims(dy, axis=-1) * powers
        dp = xp.sum(weighted, axis=tuple(range(weighted.ndim - 1))) if weighted.ndim > 1 else weighted
        return dx, dp

    return y, evalpoly_pullback
