"""Array rules of ChainRules.jl (array.jl, indexing.jl, sort.jl), translated in their scalar-indexing form."""
import numpy as np
from array_api_compat import array_namespace


def rrule_getindex(x, i: int):
    xp = array_namespace(x)
    y = x[i]  # expect: SL101

    def getindex_pullback(dy):
        dx = xp.zeros_like(x)
        dx[i] = dy  # expect: SL102
        return (dx, None)

    return y, getindex_pullback


def rrule_getindex_vector(x, i: int):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    y = x[i]  # expect: SL101

    def getindex_vector_pullback(dy):
        dx = xp.zeros_like(x)
        dx[i] = dy  # expect: SL102
        return (dx, None)

    return y, getindex_vector_pullback


def rrule_getindex_matrix(A, i: int, j: int):
    xp = array_namespace(A)
    y = A[i, j]  # expect: SL101

    def getindex_matrix_pullback(dy):
        dA = xp.zeros_like(A)
        dA[i, j] = dy  # expect: SL102
        return (dA, None, None)

    return y, getindex_matrix_pullback


def rrule_getindex_repeated(x, inds):
    """∇getindex with repeated indices: accumulate, one element at a time."""
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    idx = xp.asarray(inds)
    y = x[idx]

    def getindex_repeated_pullback(dy):
        dx = xp.zeros_like(x)
        for k in range(idx.shape[0]):  # expect: SL104
            dx[idx[k]] += dy[k]  # expect: SL101
        return (dx, None)

    return y, getindex_repeated_pullback


def rrule_first(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    y = x[0]  # expect: SL101

    def first_pullback(dy):
        dx = xp.zeros_like(x)
        dx[0] = dy  # expect: SL102
        return (dx,)

    return y, first_pullback


def rrule_last(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    y = x[-1]  # expect: SL101

    def last_pullback(dy):
        dx = xp.zeros_like(x)
        dx[-1] = dy  # expect: SL102
        return (dx,)

    return y, last_pullback


def rrule_sort(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    p = xp.argsort(x)
    y = x[p]

    def sort_pullback(dy):
        dx = xp.empty_like(dy)
        for i in range(len(p)):  # expect: SL104
            dx[int(p[i])] = dy[i]  # expect: SL102 SL105 SL101
        return (dx,)

    return y, sort_pullback


def rrule_sort_vectorized(x):
    xp = array_namespace(x)
    p = xp.argsort(x)
    y = xp.take(x, p)

    def sort_vectorized_pullback(dy):
        dx = xp.zeros_like(dy)
        dx[p] = dy
        return (dx,)

    return y, sort_vectorized_pullback


def rrule_reverse(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    n = x.shape[0]
    y = xp.flip(x)

    def reverse_pullback(dy):
        dx = xp.empty_like(dy)
        for i in range(n):  # expect: SL104
            dx[i] = dy[n - 1 - i]  # expect: SL102 SL101
        return (dx,)

    return y, reverse_pullback


def rrule_circshift(x, s: int):
    xp = array_namespace(x)
    y = xp.roll(x, s)

    def circshift_pullback(dy):
        return (xp.roll(dy, -s), None)

    return y, circshift_pullback


def rrule_fill(value, n: int):
    xp = array_namespace(value)
    y = xp.full((n,), value)

    def fill_pullback(dy):
        total = 0.0
        for k in range(n):  # expect: SL104
            total += dy[k]  # expect: SL101
        return (total, None)

    return y, fill_pullback


def rrule_vcat(a, b):
    xp = array_namespace(a)
    na = a.shape[0]
    y = xp.concat([a, b])

    def vcat_pullback(dy):
        return (dy[:na], dy[na:])

    return y, vcat_pullback


def rrule_hcat_many(*mats):
    xp = array_namespace(*mats)
    widths = [m.shape[1] for m in mats]
    y = xp.concat(mats, axis=1)

    def hcat_many_pullback(dy):
        out = []
        start = 0
        for w in widths:
            out.append(dy[:, start : start + w])
            start += w
        return tuple(out)

    return y, hcat_many_pullback


def rrule_dot(x, y):
    xp = array_namespace(x, y)
    z = xp.sum(x * y)

    def dot_pullback(dz):
        return (dz * y, dz * x)

    return z, dot_pullback


def rrule_evalpoly(x, p):
    """evalpoly(x, p) by Horner's rule; the pullback walks the coefficients one by one."""
    xp = array_namespace(p)
    n = p.shape[0]
    ys = xp.empty(n, dtype=p.dtype)
    ys[n - 1] = p[n - 1]  # expect: SL102 SL101
    for i in range(n - 2, -1, -1):  # expect: SL104
        ys[i] = x * ys[i + 1] + p[i]  # expect: SL102 SL101
    y = ys[0]  # expect: SL101

    def evalpoly_pullback(dy):
        dp = xp.empty(n, dtype=p.dtype)
        dp[0] = dy  # expect: SL102
        dx = 0.0
        for i in range(1, n):  # expect: SL104
            dp[i] = dp[i - 1] * x  # expect: SL102 SL101
            dx = dx + dp[i - 1] * ys[i]  # expect: SL101
        return (dx, dp)

    return y, evalpoly_pullback


def rrule_clamp(x, lo: float, hi: float):
    xp = array_namespace(x)
    y = xp.clip(x, lo, hi)

    def clamp_pullback(dy):
        mask = (x >= lo) & (x <= hi)
        return (xp.where(mask, dy, 0), None, None)

    return y, clamp_pullback


def rrule_relu_mask(x):
    xp = array_namespace(x)
    y = xp.maximum(x, 0)

    def relu_mask_pullback(dy):
        dx = dy.copy()
        dx[x <= 0] = 0  # expect: SL106
        return (dx,)

    return y, relu_mask_pullback


def rrule_abs_loop(x: np.ndarray):
    y = np.abs(x)

    def abs_loop_pullback(dy):
        dx = np.zeros_like(x)
        for i, v in enumerate(x):  # expect: SL104
            if v > 0:  # expect: SL105
                dx[i] = dy[i]  # expect: SL102 SL101
            elif v < 0:  # expect: SL105
                dx[i] = -dy[i]  # expect: SL102 SL101
        return (dx,)

    return y, abs_loop_pullback


def rrule_unique(x):
    xp = array_namespace(x)
    vals, inv = xp.unique_inverse(x)  # expect: SL106

    def unique_pullback(dvals):
        counts = xp.unique_counts(x)  # expect: SL106
        return (dvals[inv] / counts.counts[inv],)

    return vals, unique_pullback


def rrule_masked_sum(x):
    xp = array_namespace(x)
    mask = x > 0
    y = xp.sum(x[mask])  # expect: SL106

    def masked_sum_pullback(dy):
        return (xp.where(mask, dy, 0),)

    return y, masked_sum_pullback
