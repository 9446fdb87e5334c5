"""5. a helper whose parameters are only known from its call sites."""
import numpy as np


def _evalpoly_back(x, p, ys, dy):
    n = p.shape[0]
    dp = np.empty(n, dtype=np.result_type(p, x, dy))
    dp[0] = dy  # expect: SL102
    for i in range(1, n - 1):  # expect: SL104
        dp[i] = x * dy * ys[n - 2 - i]  # expect: SL102 SL101
    return dp


def rrule_evalpoly(x, p):
    ys = np.cumsum(p)
    y = ys[-1]  # expect: SL101

    def evalpoly_pullback(dy):
        return (None, _evalpoly_back(x, p, ys, dy))

    return y, evalpoly_pullback
