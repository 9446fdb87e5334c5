"""SL103: searches written as generators and comprehensions, in rrule pullbacks."""
from array_api_compat import array_namespace


def rrule_maximum_next(x):
    xp = array_namespace(x)
    y = xp.max(x)

    def maximum_next_pullback(dy):
        i = next(k for k in range(len(x)) if x[k] == y)  # expect: SL103 SL101
        dx = xp.zeros_like(x)
        dx[i] = dy  # expect: SL102
        return (dx,)

    return y, maximum_next_pullback


def rrule_minimum_last(x):
    xp = array_namespace(x)
    y = xp.min(x)

    def minimum_last_pullback(dy):
        i = [k for k in range(len(x)) if x[k] == y][-1]  # expect: SL103 SL101
        dx = xp.where(xp.arange(len(x)) == i, dy, 0)  # a one-hot write: not a finding
        names = [f"x{k}" for k in range(3)]  # host labels: not a finding
        return (dx, names)

    return y, minimum_last_pullback
