"""SL102: one element written at a host-int index, outside any loop, in an rrule pullback."""
from array_api_compat import array_namespace


def rrule_norm_last(x):
    xp = array_namespace(x)
    n = len(x)
    y = xp.abs(x[n - 1 :])  # a slice: not a finding

    def pullback(dy):
        dx = xp.zeros_like(x)
        dx[n - 1] = xp.sign(x[n - 1]) * dy  # expect: SL102 SL101
        dx[: n - 1] = 0.0  # a slice write: not a finding
        dx[n - 1 :] += 0.0  # a size-1 view: not a finding
        return (dx,)

    return y, pullback
