"""SL105: float() of one element, outside any loop, in an rrule pullback."""
from array_api_compat import array_namespace


def rrule_scale_by_last(x):
    xp = array_namespace(x)
    n = len(x)
    y = xp.multiply(x, x[n - 1 :])  # a size-1 view: not a finding

    def scale_by_last_pullback(dy):
        scale = float(x[n - 1])  # expect: SL105 SL101
        count = float(n)  # float() of a host int: not a finding
        return (dy * scale / count,)

    return y, scale_by_last_pullback
