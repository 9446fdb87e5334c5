"""Reduction rules of ChainRules.jl (mapreduce.jl, maxmin), translated in their scalar-indexing form."""
import numpy as np
from array_api_compat import array_namespace


def rrule_maximum(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    n = x.shape[0]
    best = 0
    for k in range(1, n):  # expect: SL103
        if x[k] > x[best]:  # expect: SL101
            best = k
    y = x[best]  # expect: SL101

    def maximum_pullback(dy):
        dx = xp.zeros_like(x)
        dx[best] = dy  # expect: SL102
        return (dx,)

    return y, maximum_pullback


def rrule_minimum(x):
    xp = array_namespace(x)
    v = xp.reshape(x, (-1,))
    y = xp.min(v)

    def minimum_pullback(dy):
        i = next(j for j in range(v.shape[0]) if v[j] == y)  # expect: SL103 SL101
        dv = xp.zeros_like(v)
        dv[i] = dy  # expect: SL102
        return (xp.reshape(dv, x.shape),)

    return y, minimum_pullback


def rrule_findmax(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    k = int(xp.argmax(x))
    y = x[k]  # expect: SL101

    def findmax_pullback(dy):
        dx = xp.zeros_like(x)
        dx[k] = dy  # expect: SL102
        return (dx,)

    return (y, k), findmax_pullback


def rrule_findmin(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    k = xp.argmin(x)
    y = x[k]

    def findmin_pullback(dy):
        dx = xp.zeros_like(x)
        dx[k] = dy
        return (dx,)

    return (y, k), findmin_pullback


def rrule_maximum_dims(A):
    """maximum(A; dims=1): one index per column, ties to the first."""
    xp = array_namespace(A)
    m, n = A.shape
    y = xp.max(A, axis=0)

    def maximum_dims_pullback(dy):
        dA = xp.zeros_like(A)
        for j in range(n):  # expect: SL104
            i = int(xp.argmax(A[:, j]))
            dA[i, j] = dy[j]  # expect: SL102 SL101
        return (dA,)

    return y, maximum_dims_pullback


def rrule_sum_abs2(x):
    xp = array_namespace(x)
    y = xp.sum(x * x)

    def sum_abs2_pullback(dy):
        return (2 * x * dy,)

    return y, sum_abs2_pullback


def rrule_prod(x):
    """∇prod: the product of all the others, with care for zeros."""
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    y = xp.prod(x)

    def prod_pullback(dy):
        dx = xp.empty_like(x)
        n = len(x)
        for i in range(n):  # expect: SL104
            p = 1.0
            for j in range(n):  # expect: SL104
                if j != i:
                    p = p * x[j]  # expect: SL101
            dx[i] = p * dy  # expect: SL102
        return (dx,)

    return y, prod_pullback


def rrule_prod_zeros(x):
    xp = array_namespace(x)
    y = xp.prod(x)

    def prod_zeros_pullback(dy):
        zeros = xp.nonzero(x == 0)[0]  # expect: SL106
        if zeros.shape[0] == 0:
            return (y / x * dy,)
        dx = xp.zeros_like(x)
        if zeros.shape[0] == 1:
            k = int(zeros[0])  # expect: SL105 SL101
            others = xp.concatenate([x[:k], x[k + 1 :]])
            dx[k] = xp.prod(others) * dy  # expect: SL102
        return (dx,)

    return y, prod_zeros_pullback


def rrule_cumsum(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    y = xp.cumsum(x)

    def cumsum_pullback(dy):
        dx = xp.zeros_like(x)
        acc = 0.0
        for k in reversed(range(len(x))):  # expect: SL104
            acc = acc + dy[k]  # expect: SL101
            dx[k] = acc  # expect: SL102
        return (dx,)

    return y, cumsum_pullback


def rrule_cumprod(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    y = xp.cumprod(x)

    def cumprod_pullback(dy):
        n = x.shape[0]
        dx = xp.zeros_like(x)
        for i in range(n):  # expect: SL104
            s = 0.0
            for k in range(i, n):  # expect: SL104
                s += dy[k] * y[k]  # expect: SL101
            dx[i] = s / x[i]  # expect: SL102 SL101
        return (dx,)

    return y, cumprod_pullback


def rrule_mean(x):
    xp = array_namespace(x)
    n = x.shape[0]
    y = xp.mean(x)

    def mean_pullback(dy):
        return (xp.ones_like(x) * (dy / n),)

    return y, mean_pullback


def rrule_logsumexp(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    i = int(xp.argmax(x))
    m = x[i]  # expect: SL101
    y = m + xp.log(xp.sum(xp.exp(x - m)))

    def logsumexp_pullback(dy):
        return (xp.exp(x - y) * dy,)

    return y, logsumexp_pullback


def rrule_sum_builtin(x):
    y = sum(x)  # expect: SL104

    def sum_pullback(dy):
        return ([dy for _ in x],)  # expect: SL104

    return y, sum_pullback


def rrule_maximum_builtin(x):
    xp = array_namespace(x)
    y = max(x)  # expect: SL104

    def maximum_builtin_pullback(dy):
        return (xp.where(x == y, dy, 0),)

    return y, maximum_builtin_pullback


def rrule_median(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    n = x.shape[0]
    order = xp.argsort(x)
    mid = order[n // 2]  # expect: SL101
    y = x[mid]

    def median_pullback(dy):
        dx = xp.zeros_like(x)
        dx[mid] = dy
        return (dx,)

    return y, median_pullback


def rrule_mean_numpy(x: np.ndarray):
    y = np.mean(x)

    def mean_numpy_pullback(dy):
        out = np.empty(x.shape[0])
        for i in range(x.shape[0]):  # expect: SL104
            out[i] = dy / x.shape[0]  # expect: SL102
        return (out,)

    return y, mean_numpy_pullback
