"""The log-sum-exp family: logsumexp and softmax.

Both shift by the maximum for stability. The maximum is only used as a constant
shift (replaced by 0 where it is not finite), so no index or host value is
needed, and the pullbacks are a couple of elementwise kernels and one reduction.
"""

from __future__ import annotations

from typing import Any

from ._core import Axis, Pullback, keepdims_shape, normalize_axes, normalize_axis, positional_cotangents
from ._portable import Array, as_cotangent, namespace, zeros_where_not


def _finite_shift(xp: Any, m: Array) -> Array:
    """The max used as a shift, with non-finite values replaced by 0."""
    return xp.where(xp.isfinite(m), m, xp.zeros_like(m))


@positional_cotangents
def rrule_logsumexp(x: Array, axis: Axis = None) -> tuple[Array, Pullback]:
    """``y = log(sum(exp(x), axis))``, computed as ``m + log(sum(exp(x - m)))``.

    ``dx = dy * exp(x - y)`` (the softmax), LogExpFunctions' rule. Conventions:
    a slice that is all ``-inf`` gives ``y = -inf`` and ``dx = 0`` there (the
    LogExpFunctions formula gives NaN); ``-inf`` entries get ``dx = 0``; a
    ``+inf`` entry makes ``y = +inf`` and that slice's ``dx`` NaN. An empty
    reduced axis gives ``y = -inf`` and an empty ``dx``.
    """
    xp = namespace(x)
    axes = normalize_axes(axis, x.ndim)
    red = None if axis is None else axes
    kshape = keepdims_shape(x.shape, axes)
    if 0 in tuple(x.shape[a] for a in axes):
        # max of an empty slice raises; a zero shift of the right shape and device
        m = xp.zeros_like(xp.sum(x, axis=red, keepdims=True))
    else:
        m = _finite_shift(xp, xp.max(x, axis=red, keepdims=True))
    total = xp.sum(xp.exp(x - m), axis=red, keepdims=True)
    positive = total > 0
    # log(0) = -inf, spelled without NumPy's divide-by-zero warning
    log_total = xp.where(positive, xp.log(xp.where(positive, total, xp.ones_like(total))), xp.full_like(total, -float("inf")))
    y_keep = m + log_total
    y = xp.reshape(y_keep, tuple(s for i, s in enumerate(x.shape) if i not in axes))

    def logsumexp_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        finite = y_keep > -float("inf")
        shift = xp.where(finite, y_keep, xp.zeros_like(y_keep))
        weights = zeros_where_not(xp, finite, xp.exp(x - shift))
        return weights * xp.reshape(dy, kshape), None

    return y, logsumexp_pullback


@positional_cotangents
def rrule_softmax(x: Array, axis: int = -1) -> tuple[Array, Pullback]:
    """``y = exp(x - m) / sum(exp(x - m), axis)``; ``dx = y * (dy - sum(dy * y, axis))``.

    The standard (NNlib) pullback. Conventions: ``-inf`` entries get ``y = 0``
    and ``dx = 0``; a slice that is all ``-inf`` gives NaN (0/0, as NNlib); a
    ``+inf`` entry gives NaN in its slice.
    """
    xp = namespace(x)
    ax = normalize_axis(axis, x.ndim)
    m = _finite_shift(xp, xp.max(x, axis=ax, keepdims=True))
    e = xp.exp(x - m)
    y = e / xp.sum(e, axis=ax, keepdims=True)

    def softmax_pullback(dy: Any) -> tuple[Array, None]:
        dy = as_cotangent(xp, dy, x)
        inner = xp.sum(dy * y, axis=ax, keepdims=True)
        return y * (dy - inner), None

    return y, softmax_pullback
