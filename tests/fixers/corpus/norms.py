"""Norm pullbacks written the way ChainRules' ``_normInf_back`` was: search, then one write."""
import array_api_compat


def rrule_norm_inf(x):
    """The seed report: findlast over |x| == y, then a single-element write."""
    xp = array_api_compat.array_namespace(x)
    y = xp.max(xp.abs(x))

    def norm_inf_pullback(dy):
        i = -1
        for j in range(len(x)):
            if abs(x[j]) == y:
                i = j
        dx = xp.zeros_like(x)
        dx[i] = xp.sign(x[i]) * dy
        return (dx,)

    return y, norm_inf_pullback


def rrule_norm_neg_inf(x):
    """-Inf norm: the smallest magnitude, last index, found by a backward scan with break."""
    xp = array_api_compat.array_namespace(x)
    y = xp.min(xp.abs(x))

    def norm_neg_inf_pullback(dy):
        k = 0
        for j in reversed(range(x.shape[0])):
            if xp.abs(x[j]) == y:
                k = j
                break
        dx = xp.zeros_like(x)
        dx[k] = xp.sign(x[k]) * dy
        return (dx,)

    return y, norm_neg_inf_pullback


def rrule_norm_inf_nonzero(x):
    """Inf norm, the index taken from flatnonzero (a data-dependent shape, then a sync)."""
    xp = array_api_compat.array_namespace(x)
    a = xp.abs(x)
    y = xp.max(a)

    def norm_inf_nonzero_pullback(dy):
        hits = a == y
        i = xp.flatnonzero(hits)[-1]
        dx = xp.zeros_like(x)
        dx[i] = xp.sign(x[i]) * dy
        return (dx,)

    return y, norm_inf_nonzero_pullback


def rrule_norm1(x):
    """1-norm with an element loop over the cotangent (vectorizing it is a rewrite of the rule)."""
    xp = array_api_compat.array_namespace(x)
    y = xp.sum(xp.abs(x))

    def norm1_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(len(x)):
            dx[i] = xp.sign(x[i]) * dy
        return (dx,)

    return y, norm1_pullback
