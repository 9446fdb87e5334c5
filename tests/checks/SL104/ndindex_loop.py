"""SL104: a loop over every (i, j) of a matrix through np.ndindex, in a matmul rrule's pullback."""
import numpy as np
from array_api_compat import array_namespace


def rrule_matmul_loops(A, B):
    xp = array_namespace(A, B)
    m, k = A.shape
    C = A @ B

    def matmul_loops_pullback(dC):
        dA = xp.zeros((m, k), dtype=A.dtype)
        for i, j in np.ndindex(m, k):  # expect: SL104
            dA[i, j] = xp.sum(dC[i, :] * B[j, :])  # expect: SL102
        for i in range(m):
            dA[i, :] = dA[i, :] * 1.0  # a row at a time: not a finding
        return (dA, A.T @ dC)

    return C, matmul_loops_pullback
