"""SL104: a loop summing scaled outer products (svdvals' pullback as ChainRules writes it)."""
from array_api_compat import array_namespace


def rrule_svdvals(A):
    xp = array_namespace(A)
    U, s, Vh = xp.linalg.svd(A, full_matrices=False)
    k = s.shape[0]

    def svdvals_pullback(ds):
        dA = xp.zeros_like(A)
        for i in range(k):  # expect: SL104
            dA += ds[i] * xp.outer(U[:, i], Vh[i, :])  # expect: SL101
        return (dA,)

    return s, svdvals_pullback
