"""SL103: findlast written as a for loop that remembers the index (ChainRules' norm(x, Inf) pullback)."""
from array_api_compat import array_namespace


def rrule_norm_inf(x):
    xp = array_namespace(x)
    y = xp.max(xp.abs(x))

    def norm_inf_pullback(dy):
        i = -1
        for j in range(len(x)):  # expect: SL103
            if abs(x[j]) == y:  # expect: SL101
                i = j
        dx = xp.zeros_like(x)
        dx[i] = xp.sign(x[i]) * dy  # expect: SL102 SL101
        for axis in range(x.ndim):  # a loop over axes: not a finding
            pass
        return (dx,)

    return y, norm_inf_pullback
