"""Linear algebra: trace, det, logdet, matmul (batched over leading axes).

``det``'s pullback is the cofactor matrix. The textbook ``det(A) * inv(A)^T``
is NaN/Inf for a singular ``A`` and CPU code patches that with pivoting loops;
here the cofactor comes from an SVD, with the "product of the other singular
values" computed by exclusive cumulative products, so it is exact and finite
for rank-deficient matrices too.
"""

from __future__ import annotations

from typing import Any

from ._core import Pullback, broadcast_shapes, positional_cotangents
from ._portable import (
    Array,
    as_cotangent,
    is_complex,
    device_of,
    exclusive_cumprod,
    namespace,
    unbroadcast,
)



def _eye_like(xp: Any, n: int, m: int, like: Array) -> Array:
    """Identity-like ``n x m`` matrix with ``like``'s dtype on its device."""
    dev = device_of(like)
    if dev is None:
        return xp.eye(n, m, dtype=like.dtype)
    return xp.eye(n, m, dtype=like.dtype, device=dev)


def _as_matrix_scalar(xp: Any, s: Array) -> Array:
    """Give a batch of scalars two trailing unit axes, to scale a batch of matrices."""
    return xp.expand_dims(xp.expand_dims(s, axis=-1), axis=-1)


@positional_cotangents
def rrule_trace(A: Array) -> tuple[Array, Pullback]:
    """``y = trace(A)`` over the last two axes (batched); ``dA = dy * I``.

    ``A`` may be rectangular (``n x m``): the cotangent is ``dy`` on the main
    diagonal of an ``n x m`` identity-like matrix and zero elsewhere.
    """
    xp = namespace(A)
    y = xp.linalg.trace(A)
    n, m = A.shape[-2], A.shape[-1]

    def trace_pullback(dy: Any) -> tuple[Array]:
        dy = as_cotangent(xp, dy, A)
        return (_as_matrix_scalar(xp, dy) * _eye_like(xp, n, m, A),)

    return y, trace_pullback


@positional_cotangents
def rrule_det(A: Array) -> tuple[Array, Pullback]:
    """``y = det(A)`` (square, batched); ``dA = dy * cofactor(A)`` (conjugated for complex).

    For invertible ``A`` this is ChainRules' ``dy * det(A) * inv(A)^T``. Computed
    as ``U diag(c) Vh * det(U) det(Vh)`` from the SVD ``A = U diag(s) Vh`` with
    ``c[i] = prod(s[j] for j != i)`` (exclusive cumprods, no division), so a
    singular ``A`` gets its true, finite gradient: zero for rank <= n-2, the
    adjugate transpose for rank n-1 (ChainRules' formula gives NaN/Inf there).
    """
    xp = namespace(A)
    y = xp.linalg.det(A)

    def det_pullback(dy: Any) -> tuple[Array]:
        dy = as_cotangent(xp, dy, y)
        U, s, Vh = xp.linalg.svd(A)
        last = s.ndim - 1
        others = exclusive_cumprod(xp, s, last) * exclusive_cumprod(xp, s, last, reverse=True)
        orientation = xp.linalg.det(U) * xp.linalg.det(Vh)
        cof = xp.matmul(U * xp.expand_dims(xp.astype(others, U.dtype), axis=-2), Vh)
        if is_complex(xp, A):
            orientation = xp.conj(orientation)
        return (_as_matrix_scalar(xp, orientation * dy) * cof,)

    return y, det_pullback


@positional_cotangents
def rrule_logdet(A: Array) -> tuple[Array, Pullback]:
    """``y = log(det(A))`` for real square ``A`` (batched); ``dA = dy * inv(A)^T``.

    Via ``slogdet``: ``y = logabsdet`` where ``det > 0``, ``-inf`` where
    ``det == 0`` and NaN where ``det < 0`` (Julia's ``logdet`` throws a
    DomainError there; a device rule cannot raise on data). The pullback is
    ChainRules' ``dy * inv(A)'``, which is also the gradient of ``log|det A|``,
    so it stays finite for ``det < 0``. For singular ``A`` the gradient does not
    exist: NumPy's ``inv`` raises ``LinAlgError``, CuPy returns non-finite values.
    """
    xp = namespace(A)
    if is_complex(xp, A):
        raise TypeError("logdet: complex matrices are not supported (use log|det| via slogdet)")
    sign, logabsdet = xp.linalg.slogdet(A)
    nan = xp.full_like(logabsdet, float("nan"))
    y = xp.where(sign < 0, nan, logabsdet)

    def logdet_pullback(dy: Any) -> tuple[Array]:
        dy = as_cotangent(xp, dy, y)
        inv_t = xp.matrix_transpose(xp.linalg.inv(A))
        return (_as_matrix_scalar(xp, dy) * inv_t,)

    return y, logdet_pullback


@positional_cotangents
def rrule_matmul(A: Array, B: Array) -> tuple[Array, Pullback]:
    """``y = A @ B`` with NumPy's rules for 1-D operands and batch broadcasting.

    ``dA = dy @ B^H`` and ``dB = A^H @ dy`` (conjugate transposes; plain
    transposes for real), each summed over broadcast batch axes back to its
    operand's shape. A 1-D ``A`` is treated as a row and a 1-D ``B`` as a column,
    and the cotangents come back 1-D.
    """
    xp = namespace(A, B)
    y = xp.matmul(A, B)
    a_vec = A.ndim == 1
    b_vec = B.ndim == 1
    A2 = xp.expand_dims(A, axis=0) if a_vec else A
    B2 = xp.expand_dims(B, axis=-1) if b_vec else B
    a_shape = tuple(A.shape)
    b_shape = tuple(B.shape)
    y2_shape = broadcast_shapes((A2.shape[:-2], B2.shape[:-2])) + (A2.shape[-2], B2.shape[-1])

    def matmul_pullback(dy: Any) -> tuple[Array, Array]:
        dy = as_cotangent(xp, dy, y)
        dy2 = xp.reshape(dy, y2_shape)  # 1-D operands: restore the unit axes
        Bh = xp.matrix_transpose(B2)
        Ah = xp.matrix_transpose(A2)
        if is_complex(xp, B2):
            Bh = xp.conj(Bh)
        if is_complex(xp, A2):
            Ah = xp.conj(Ah)
        dA2 = unbroadcast(xp, xp.matmul(dy2, Bh), tuple(A2.shape))
        dB2 = unbroadcast(xp, xp.matmul(Ah, dy2), tuple(B2.shape))
        return xp.reshape(dA2, a_shape), xp.reshape(dB2, b_shape)

    return y, matmul_pullback
