"""SL102: writes into the array a helper was handed as `out=None` (NumPy's convention for the
array a function fills) or allocated itself: `E[i - 1, j - 1] = ...` is one element whichever
path made `E`. Without the convention `out` is unknown, and the two paths together tell nothing."""
import numpy as np
from autograd.extend import defvjp, primitive


def make_soft_dtw_grad(backend):
    def soft_dtw_grad(D, R, gamma, out=None):
        m, n = D.shape
        if out is not None:
            E = out
        else:
            E = backend.empty((m, n), dtype=D.dtype)
        E[-1, -1] = 1  # expect: SL102
        for j in range(n, 0, -1):  # expect: SL104
            for i in range(m, 0, -1):  # expect: SL104
                e = E[i, j - 1] if i != m else 0  # expect: SL101
                E[i - 1, j - 1] = e * R[i, j]  # expect: SL102 SL101
        return E

    return soft_dtw_grad


soft_dtw_grad = make_soft_dtw_grad(np)


@primitive
def soft_dtw(D, R):
    return R[-1, -1]  # expect: SL101


defvjp(soft_dtw, lambda ans, D, R: lambda g: g * soft_dtw_grad(D, R, 1.0))
