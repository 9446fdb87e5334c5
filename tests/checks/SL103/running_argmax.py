"""SL103: a running argmax, the winner found element by element before the pullback."""
from array_api_compat import array_namespace


def rrule_maximum(x):
    xp = array_namespace(x)
    n = x.shape[0]
    best = 0
    for k in range(1, n):  # expect: SL103
        if x[k] > x[best]:  # expect: SL101
            best = k
    y = x[best]  # expect: SL101
    top = xp.argmax(x)  # a device argmax: not a finding

    def maximum_pullback(dy):
        dx = xp.zeros_like(x)
        dx[best] = dy  # expect: SL102
        return (dx + 0 * x[top],)

    return y, maximum_pullback
