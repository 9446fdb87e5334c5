"""max/min rules with their winner found element by element."""
import array_api_compat


def rrule_maximum(x):
    """Running argmax: strict ``>`` keeps the FIRST maximum, as the reference rule does."""
    xp = array_api_compat.array_namespace(x)
    n = x.shape[0]
    best = 0
    for k in range(1, n):
        if x[k] > x[best]:
            best = k
    y = x[best]

    def maximum_pullback(dy):
        dx = xp.zeros_like(x)
        dx[best] = dy
        return (dx,)

    return y, maximum_pullback


def rrule_minimum(x):
    """Running argmin over the whole range (best starts at 0, k = 0 compares with itself)."""
    xp = array_api_compat.array_namespace(x)
    best = 0
    for k in range(len(x)):
        if x[k] < x[best]:
            best = k
    y = x[best]

    def minimum_pullback(dy):
        dx = xp.zeros_like(x)
        dx[best] = dy
        return (dx,)

    return y, minimum_pullback


def rrule_maximum_next(x):
    """Builtin max for the value, a generator search for the first winner."""
    xp = array_api_compat.array_namespace(x)
    y = max(x)

    def maximum_next_pullback(dy):
        i = next(k for k in range(len(x)) if x[k] == y)
        dx = xp.zeros_like(x)
        dx[i] = dy
        return (dx,)

    return y, maximum_next_pullback


def rrule_minimum_nonzero(x):
    """The first minimum through flatnonzero(...)[0]."""
    xp = array_api_compat.array_namespace(x)
    y = xp.min(x)

    def minimum_nonzero_pullback(dy):
        i = xp.flatnonzero(x == y)[0]
        dx = xp.zeros_like(x)
        dx[i] = dy
        return (dx,)

    return y, minimum_nonzero_pullback
