"""SL103: the first or last match picked out of nonzero/flatnonzero, in an rrule pullback."""
from array_api_compat import array_namespace


def rrule_minimum_nonzero(x):
    xp = array_namespace(x)
    y = xp.min(x)

    def minimum_nonzero_pullback(dy):
        i = xp.flatnonzero(x == y)[0]  # expect: SL103
        dx = xp.zeros_like(x)
        dx[i] = dy
        j = xp.argmax(x == y)  # argmax of a mask: not a finding
        return (dx + 0 * x[j],)

    return y, minimum_nonzero_pullback
