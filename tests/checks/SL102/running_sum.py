"""SL102: a running sum carried through a reversed loop and written element by element (cumsum's pullback)."""
from array_api_compat import array_namespace


def rrule_cumsum(x):
    xp = array_namespace(x)
    y = xp.cumsum(x)

    def cumsum_pullback(dy):
        dx = xp.zeros_like(x)
        acc = 0.0
        for k in reversed(range(len(x))):  # expect: SL104
            acc = acc + dy[k]  # expect: SL101
            dx[k] = acc  # expect: SL102
        return (dx,)

    return y, cumsum_pullback
