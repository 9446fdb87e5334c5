"""getindex, cumsum, clip and a 2x2 determinant written element by element."""
import array_api_compat


def rrule_getindex(x, i: int):
    """One element by a host index: a 0-d result, so the access itself is the rule."""
    xp = array_api_compat.array_namespace(x)
    y = x[i]

    def getindex_pullback(dy):
        dx = xp.zeros_like(x)
        dx[i] = dy
        return dx, None

    return y, getindex_pullback


def rrule_getindex_many(x, idx):
    """Gather with repeated indices; the pullback scatters element by element."""
    xp = array_api_compat.array_namespace(x)
    y = xp.take(x, idx)

    def getindex_many_pullback(dy):
        dx = xp.zeros_like(x)
        for k in range(idx.shape[0]):
            dx[idx[k]] += dy[k]
        return dx, None

    return y, getindex_many_pullback


def rrule_getindex_skipping(x, idx):
    """Gather with repeated indices; the pullback reads each index on the host and skips
    negative ones with ``continue`` (no whole-array form): one sync per index until the
    index array is copied to the host once."""
    xp = array_api_compat.array_namespace(x)
    y = xp.take(x, idx)

    def getindex_skipping_pullback(dy):
        dx = xp.zeros_like(x)
        for k in range(idx.shape[0]):
            i = int(idx[k])
            if i < 0:
                continue
            dx[i:i + 1] += dy[k:k + 1]
        return dx, None

    return y, getindex_skipping_pullback


def rrule_last(x):
    """The last element as a size-1 vector; the pullback writes it back by a negative literal."""
    xp = array_api_compat.array_namespace(x)
    v = x.reshape(-1)
    y = v[-1:]

    def last_pullback(dy):
        dv = xp.zeros_like(v)
        dv[-1] = xp.sum(dy)
        return (xp.reshape(dv, x.shape),)

    return y, last_pullback


def rrule_cumsum(x):
    """Reverse accumulation in a Python loop (a loop-carried dependency)."""
    xp = array_api_compat.array_namespace(x)
    y = xp.cumsum(x)

    def cumsum_pullback(dy):
        dx = xp.zeros_like(x)
        acc = 0.0
        for k in reversed(range(len(x))):
            acc = acc + dy[k]
            dx[k] = acc
        return (dx,)

    return y, cumsum_pullback


def rrule_clip(x, lo, hi):
    """Per-element control flow: pass the cotangent where lo <= x <= hi."""
    xp = array_api_compat.array_namespace(x)
    y = xp.clip(x, lo, hi)

    def clip_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(len(x)):
            if lo <= x[i] <= hi:
                dx[i] = dy[i]
        return dx, None, None

    return y, clip_pullback


def rrule_det2(A):
    """det of a 2x2 matrix; the pullback writes the cofactors one element at a time."""
    xp = array_api_compat.array_namespace(A)
    M = A.reshape(2, 2)
    y = M[0:1, 0:1] * M[1:2, 1:2] - M[0:1, 1:2] * M[1:2, 0:1]

    def det2_pullback(dy):
        dM = xp.zeros_like(M)
        dM[0, 0] = dy * M[1, 1]
        dM[0, 1] = -dy * M[1, 0]
        dM[1, 0] = -dy * M[0, 1]
        dM[1, 1] = dy * M[0, 0]
        return (xp.reshape(dM, A.shape),)

    return xp.reshape(y, ()), det2_pullback
