"""SL102: per-element suffix sums in nested loops (cumprod's pullback as ChainRules writes it)."""
from array_api_compat import array_namespace


def rrule_cumprod(x):
    xp = array_namespace(x)
    y = xp.cumprod(x)

    def cumprod_pullback(dy):
        n = len(x)
        dx = xp.zeros_like(x)
        for i in range(n):  # expect: SL104
            s = 0.0
            for k in range(i, n):  # expect: SL104
                s += dy[k] * y[k]  # expect: SL101
            dx[i] = s / x[i]  # expect: SL102 SL101
        return (dx,)

    return y, cumprod_pullback
