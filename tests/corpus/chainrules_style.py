"""ChainRules-style rrules with pullback closures: the seed report's shapes."""
from array_api_compat import array_namespace


def rrule_norm_inf(x):
    xp = array_namespace(x)
    y = xp.max(xp.abs(x))

    def pullback(dy):
        i = -1
        for j in range(len(x)):  # expect: SL103
            if abs(x[j]) == y:  # expect: SL101
                i = j
        dx = xp.zeros_like(x)
        dx[i] = xp.sign(x[i]) * dy  # expect: SL102 SL101
        return (dx,)

    return y, pullback


def rrule_maximum(x):
    xp = array_namespace(x)
    n = x.shape[0]
    best = 0
    for k in range(1, n):  # expect: SL103
        if x[k] > x[best]:  # expect: SL101
            best = k
    y = x[best]  # expect: SL101

    def pullback(dy):
        dx = xp.zeros_like(x)
        dx[best] = dy  # expect: SL102
        return (dx,)

    return y, pullback


def rrule_cumsum(x):
    xp = array_namespace(x)
    y = xp.cumsum(x)

    def pullback(dy):
        dx = xp.zeros_like(x)
        acc = 0.0
        for k in reversed(range(len(x))):  # expect: SL104
            acc = acc + dy[k]  # expect: SL101
            dx[k] = acc  # expect: SL102
        return (dx,)

    return y, pullback


def rrule_prod(x):
    xp = array_namespace(x)
    y = xp.prod(x)

    def pullback(dy):
        return (xp.asarray([y / v for v in x]) * dy,)  # expect: SL104

    return y, pullback


def rrule_first_positive(x):
    xp = array_namespace(x)
    i = next(k for k in range(len(x)) if x[k] > 0)  # expect: SL103 SL101
    j = xp.flatnonzero(x > 0)[-1]  # expect: SL103

    def pullback(dy):
        return (dy * xp.ones_like(x), float(x[0]))  # expect: SL105 SL101

    return x[i:j], pullback  # expect: SL105


def rrule_good_norm_inf(x):
    """The GPU-safe version: nothing to report."""
    xp = array_namespace(x)
    a = xp.abs(x)
    y = xp.max(a)

    def pullback(dy):
        n = x.shape[0]
        mask = a == y
        last = n - 1 - xp.argmax(xp.flip(mask))
        onehot = xp.arange(n) == last
        dx = xp.where(onehot, xp.sign(x) * dy, 0)
        dx2 = xp.zeros_like(x)
        dx2[last] = dy  # a 0-d device index: a scatter kernel, no sync
        v = x[last]  # a gather, no sync
        w = x[0:1] * dy  # size-1 view
        return (dx + dx2 + v + w,)

    return y, pullback
