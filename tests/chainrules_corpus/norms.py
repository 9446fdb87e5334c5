"""LinearAlgebra norm rules of ChainRules.jl (norm.jl), translated in their scalar-indexing form."""
from array_api_compat import array_namespace


def rrule_norm_inf(x):
    """`_normInf_back`: the cotangent goes to the LAST index achieving the maximum."""
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    y = xp.max(xp.abs(x))

    def norm_inf_pullback(dy):
        i = -1
        for j in range(x.shape[0]):  # expect: SL103
            if abs(x[j]) == y:  # expect: SL101
                i = j
        dx = xp.zeros_like(x)
        dx[i] = xp.sign(x[i]) * dy  # expect: SL102 SL101
        return (dx,)

    return y, norm_inf_pullback


def rrule_norm_neg_inf(x):
    xp = x.__array_namespace__()
    v = xp.reshape(x, (-1,))
    y = xp.min(xp.abs(v))

    def norm_neg_inf_pullback(dy):
        i = v.shape[0] - 1
        while abs(v[i]) != y:  # expect: SL103 SL101
            i -= 1
        dv = xp.zeros_like(v)
        dv[i] = xp.sign(v[i]) * dy  # expect: SL102 SL101
        return (xp.reshape(dv, x.shape),)

    return y, norm_neg_inf_pullback


def rrule_norm1(x):
    xp = array_namespace(x)
    y = xp.sum(xp.abs(x))

    def norm1_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(x.size):  # expect: SL104
            dx.flat[i] = dy * (1.0 if x.flat[i] > 0 else -1.0)  # expect: SL102 SL101 SL105
        return (dx,)

    return y, norm1_pullback


def rrule_norm2(x):
    xp = array_namespace(x)
    y = xp.sqrt(xp.sum(x * x))

    def norm2_pullback(dy):
        if float(y) == 0.0:
            return (xp.zeros_like(x),)
        return (x * (dy / y),)

    return y, norm2_pullback


def rrule_normp(x, p):
    xp = array_namespace(x)
    v = xp.reshape(x, (-1,))
    y = xp.sum(xp.abs(v) ** p) ** (1.0 / p)

    def normp_pullback(dy):
        dv = xp.empty_like(v)
        n = v.shape[0]
        for i in range(n):  # expect: SL104
            a = v[i]  # expect: SL101
            if a == 0:  # expect: SL105
                dv[i] = 0.0  # expect: SL102
            else:
                dv[i] = dy * xp.sign(a) * (abs(a) / y) ** (p - 1)  # expect: SL102
        return (xp.reshape(dv, x.shape), None)

    return y, normp_pullback


def rrule_norm0(x):
    xp = array_namespace(x)
    y = xp.sum(x != 0)

    def norm0_pullback(dy):
        return (xp.zeros_like(x),)

    return y, norm0_pullback


def rrule_normalize(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    nrm = xp.sqrt(xp.sum(x * x))
    y = x / nrm

    def normalize_pullback(dy):
        s = 0.0
        for i in range(len(x)):  # expect: SL104
            s += float(y[i] * dy[i])  # expect: SL105
        return ((dy - s * y) / nrm,)

    return y, normalize_pullback


def rrule_norm_matrix_inf(A):
    """opnorm(A, Inf): the row with the largest absolute sum gets the cotangent."""
    xp = array_namespace(A)
    m, n = A.shape
    sums = xp.sum(xp.abs(A), axis=1)
    y = xp.max(sums)

    def opnorm_inf_pullback(dy):
        k = 0
        for r in range(m):  # expect: SL103
            if sums[r] > sums[k]:  # expect: SL101
                k = r
        dA = xp.zeros_like(A)
        for j in range(n):  # expect: SL104
            dA[k, j] = xp.sign(A[k, j]) * dy  # expect: SL102 SL101
        return (dA,)

    return y, opnorm_inf_pullback


def rrule_norm_inf_vectorized(x):
    """The GPU-safe form of the same rule: nothing to report."""
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))
    a = xp.abs(x)
    y = xp.max(a)

    def pullback(dy):
        n = x.shape[0]
        last = n - 1 - xp.argmax(xp.flip(a == y))
        onehot = xp.arange(n) == last
        return (xp.where(onehot, xp.sign(x) * dy, 0),)

    return y, pullback
