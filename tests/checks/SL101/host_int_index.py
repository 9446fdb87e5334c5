"""SL101: one element read at a host-int index (len, shape, literal on a known rank), in an rrule pullback."""
from array_api_compat import array_namespace


def rrule_last_times_x(x):
    xp = array_namespace(x)
    y = x * x[-1:]  # a size-1 view: not a finding

    def pullback(dy):
        n = len(x)
        dx = dy * x[n - 1 :]  # a slice: not a finding
        dx[n - 1] = xp.sign(x[n - 1]) * dy[0]  # expect: SL102 SL101
        flat = xp.reshape(x, (-1,))
        first = flat[0]  # expect: SL101
        m = x.shape[0]  # shape bookkeeping: not a finding
        pair = (dy, m)
        return (dx + first + pair[1] * 0,)  # a tuple: not a finding

    return y, pullback
