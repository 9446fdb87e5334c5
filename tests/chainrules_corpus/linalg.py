"""LinearAlgebra rules of ChainRules.jl (dense.jl, structured.jl, factorization), in scalar-indexing form."""
import numpy as np
from array_api_compat import array_namespace


def rrule_diag(A):
    xp = array_namespace(A)
    n = min(A.shape)
    y = xp.empty(n, dtype=A.dtype)
    for i in range(n):  # expect: SL104
        y[i] = A[i, i]  # expect: SL102 SL101

    def diag_pullback(dy):
        dA = xp.zeros_like(A)
        for i in range(n):  # expect: SL104
            dA[i, i] = dy[i]  # expect: SL102 SL101
        return (dA,)

    return y, diag_pullback


def rrule_tr(A):
    xp = array_namespace(A)
    y = xp.sum(xp.linalg.diagonal(A))

    def tr_pullback(dy):
        dA = xp.zeros_like(A)
        for i in range(A.shape[0]):  # expect: SL104
            dA[i, i] = dy  # expect: SL102
        return (dA,)

    return y, tr_pullback


def rrule_triu(A):
    xp = array_namespace(A)
    m, n = A.shape
    y = xp.triu(A)

    def triu_pullback(dy):
        dA = xp.zeros_like(A)
        for i in range(m):  # expect: SL104
            for j in range(i, n):  # expect: SL104
                dA[i, j] = dy[i, j]  # expect: SL102 SL101
        return (dA,)

    return y, triu_pullback


def rrule_det2(A):
    """det of a 2x2 matrix from its entries."""
    a, b, c, d = A[0, 0], A[0, 1], A[1, 0], A[1, 1]  # expect: SL101
    y = a * d - b * c

    def det2_pullback(dy):
        xp = array_namespace(A)
        dA = xp.empty_like(A)
        dA[0, 0] = d * dy  # expect: SL102
        dA[0, 1] = -c * dy  # expect: SL102
        dA[1, 0] = -b * dy  # expect: SL102
        dA[1, 1] = a * dy  # expect: SL102
        return (dA,)

    return y, det2_pullback


def rrule_inv(A):
    xp = array_namespace(A)
    Ainv = xp.linalg.inv(A)

    def inv_pullback(dY):
        return (-(Ainv.T @ dY @ Ainv.T),)

    return Ainv, inv_pullback


def rrule_matmul_loops(A, B):
    xp = array_namespace(A, B)
    m, k = A.shape
    _, n = B.shape
    C = A @ B

    def matmul_loops_pullback(dC):
        dA = xp.zeros((m, k), dtype=A.dtype)
        for i, j in np.ndindex(m, k):  # expect: SL104
            dA[i, j] = xp.sum(dC[i, :] * B[j, :])  # expect: SL102
        return (dA, A.T @ dC)

    return C, matmul_loops_pullback


def rrule_cholesky(A):
    """The unblocked reverse-mode Cholesky: elementwise sweeps over the factor."""
    xp = array_namespace(A)
    L = xp.linalg.cholesky(A)
    n = A.shape[0]

    def cholesky_pullback(dL):
        dA = xp.zeros_like(A)
        P = xp.tril(L.T @ dL)
        for i in range(n):  # expect: SL104
            P[i, i] = P[i, i] / 2  # expect: SL102 SL101
        S = xp.linalg.solve(L.T, xp.linalg.solve(L.T, P.T).T)
        dA = (S + S.T) / 2
        return (dA,)

    return L, cholesky_pullback


def rrule_kron(a, b):
    xp = array_namespace(a, b)
    a = xp.reshape(a, (-1,))
    b = xp.reshape(b, (-1,))
    y = xp.reshape(a[:, None] * b[None, :], (-1,))
    nb = b.shape[0]

    def kron_pullback(dy):
        da = xp.zeros_like(a)
        for i in range(a.shape[0]):  # expect: SL104
            da[i] = xp.sum(dy[i * nb : (i + 1) * nb] * b)  # expect: SL102
        return (da, xp.reshape(xp.reshape(dy, (-1, nb)).T @ a, (-1,)))

    return y, kron_pullback


def rrule_hermitian_part(A):
    xp = array_namespace(A)
    y = (A + xp.conj(A.T)) / 2

    def hermitian_pullback(dy):
        return ((dy + xp.conj(dy.T)) / 2,)

    return y, hermitian_pullback


def rrule_svd_values(A):
    xp = array_namespace(A)
    U, s, Vh = xp.linalg.svd(A, full_matrices=False)

    def svd_values_pullback(ds):
        k = s.shape[0]
        dA = xp.zeros_like(A)
        for i in range(k):  # expect: SL104
            dA += ds[i] * xp.outer(U[:, i], Vh[i, :])  # expect: SL101
        return (dA,)

    return s, svd_values_pullback
