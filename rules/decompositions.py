"""Factorizations and their values: cholesky, svdvals, eigvalsh, and the Hermitian part.

ChainRules writes the reverse-mode Cholesky as sweeps over the factor (halving the
diagonal one element at a time) and the singular-value rule as a sum of outer products, one
per singular value. Each is a handful of whole-matrix kernels: a masked triangle, two
triangular solves, one scaled matrix product. Real matrices; every rule is batched over
leading axes.
"""

from __future__ import annotations

from typing import Any

from ._core import Pullback, positional_cotangents
from ._portable import Array, as_cotangent, device_of, namespace


def _eye(xp: Any, n: int, like: Array) -> Array:
    dev = device_of(like)
    if dev is None:
        return xp.eye(n, dtype=like.dtype)
    return xp.eye(n, dtype=like.dtype, device=dev)


def _transpose(xp: Any, a: Array) -> Array:
    return xp.matrix_transpose(a)


@positional_cotangents
def rrule_cholesky(A: Array) -> tuple[Array, Pullback]:
    """``L = cholesky(A)`` (lower, ``A`` symmetric positive definite); the symmetric
    ``dA = (S + S^T) / 2`` with ``S = L^-T Phi(L^T dL) L^-1``.

    ``Phi`` keeps the lower triangle and halves the diagonal (Murray's formulation, as in
    ChainRules). The halving is ``tril(M) - M * I / 2``: a mask, not a loop over the
    diagonal, and the two inverses are triangular solves.
    """
    xp = namespace(A)
    L = xp.linalg.cholesky(A)
    n = A.shape[-1]

    def cholesky_pullback(dL: Any) -> tuple[Array]:
        dL = as_cotangent(xp, dL, L)
        Lt = _transpose(xp, L)
        M = xp.matmul(Lt, dL)
        P = xp.tril(M) - M * _eye(xp, n, A) / 2
        right = _transpose(xp, xp.linalg.solve(Lt, _transpose(xp, P)))  # P L^-1
        S = xp.linalg.solve(Lt, right)  # L^-T P L^-1
        return ((S + _transpose(xp, S)) / 2,)

    return L, cholesky_pullback


@positional_cotangents
def rrule_svdvals(A: Array) -> tuple[Array, Pullback]:
    """``s = svdvals(A)`` (descending); ``dA = U diag(ds) Vh`` from the thin SVD.

    The sum over singular values of ``ds[i] * outer(U[:, i], Vh[i, :])`` is one product of
    the scaled columns of ``U`` with ``Vh``. Repeated singular values make ``U`` and ``Vh``
    non-unique, but ``U diag(ds) Vh`` is the same for any choice when ``ds`` is equal on
    the repeated ones.
    """
    xp = namespace(A)
    U, s, Vh = xp.linalg.svd(A, full_matrices=False)

    def svdvals_pullback(ds: Any) -> tuple[Array]:
        ds = as_cotangent(xp, ds, s)
        return (xp.matmul(U * xp.expand_dims(ds, axis=-2), Vh),)

    return s, svdvals_pullback


@positional_cotangents
def rrule_eigvalsh(A: Array) -> tuple[Array, Pullback]:
    """``w = eigvalsh(A)`` (ascending, symmetric ``A``); ``dA = V diag(dw) V^T``.

    Only the lower triangle of ``A`` is read by the factorization, but the cotangent is
    the symmetric one (ChainRules' convention for ``Symmetric`` inputs).
    """
    xp = namespace(A)
    w, V = xp.linalg.eigh(A)

    def eigvalsh_pullback(dw: Any) -> tuple[Array]:
        dw = as_cotangent(xp, dw, w)
        return (xp.matmul(V * xp.expand_dims(dw, axis=-2), _transpose(xp, V)),)

    return w, eigvalsh_pullback


@positional_cotangents
def rrule_hermitian_part(A: Array) -> tuple[Array, Pullback]:
    """``y = (A + A^H) / 2``; the map is its own adjoint: ``dA = (dy + dy^H) / 2``."""
    xp = namespace(A)

    def conjugate_transpose(a: Array) -> Array:
        return xp.conj(_transpose(xp, a)) if xp.isdtype(a.dtype, "complex floating") else _transpose(xp, a)

    y = (A + conjugate_transpose(A)) / 2

    def hermitian_part_pullback(dy: Any) -> tuple[Array]:
        dy = as_cotangent(xp, dy, y)
        return ((dy + conjugate_transpose(dy)) / 2,)

    return y, hermitian_part_pullback
