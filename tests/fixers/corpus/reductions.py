"""Reductions computed with Python builtins over device arrays."""
import array_api_compat


def rrule_sum(x):
    """Builtin sum of a vector."""
    xp = array_api_compat.array_namespace(x)
    y = sum(x)

    def sum_pullback(dy):
        return (dy * xp.ones_like(x),)

    return y, sum_pullback


def rrule_mean(x):
    """Builtin sum divided by the length."""
    xp = array_api_compat.array_namespace(x)
    n = len(x)
    y = sum(x) / n

    def mean_pullback(dy):
        return (xp.ones_like(x) * (dy / n),)

    return y, mean_pullback


def rrule_column_sum(X):
    """Builtin sum of a matrix adds its rows: the column sums."""
    xp = array_api_compat.array_namespace(X)
    M = xp.reshape(X, (X.shape[0], -1))
    y = sum(M)

    def column_sum_pullback(dy):
        return (xp.reshape(xp.zeros_like(M) + dy, X.shape),)

    return y, column_sum_pullback


def rrule_logsumexp(x):
    """A max shift taken with the builtin, and a builtin sum of a generator."""
    xp = array_api_compat.array_namespace(x)
    m = max(x)
    s = sum(xp.exp(v - m) for v in x)
    y = m + xp.log(s)

    def logsumexp_pullback(dy):
        return (dy * xp.exp(x - y),)

    return y, logsumexp_pullback


def rrule_softmax(x):
    """Softmax with builtin reductions for the shift and the normaliser."""
    xp = array_api_compat.array_namespace(x)
    e = xp.exp(x - max(x))
    y = e / sum(e)

    def softmax_pullback(dy):
        return (y * (dy - xp.sum(dy * y)),)

    return y, softmax_pullback


def rrule_prod(x):
    """The product rule with zeros: one concatenate and prod per element (a loop over data)."""
    xp = array_api_compat.array_namespace(x)
    y = xp.prod(x)

    def prod_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(len(x)):
            others = xp.concatenate([x[:i], x[i + 1 :]])
            dx[i] = xp.prod(others) * dy
        return (dx,)

    return y, prod_pullback


def rrule_prod_masks(x):
    """The product rule with zeros patched through boolean masks, as MyGrad's ``Prod`` does:
    ``prod / x``, then 0 where two or more zeros meet, then the product of the others at a
    lone zero."""
    xp = array_api_compat.array_namespace(x)
    y = xp.prod(x)

    def prod_masks_pullback(dy):
        zero_count = xp.broadcast_to(xp.sum(x == 0, keepdims=True), x.shape)
        is_zero = x == 0
        ones_at_zeros = xp.where(is_zero, 1.0, x)
        dx = xp.prod(x, keepdims=True) / ones_at_zeros  # right but at a lone zero
        dx[zero_count > 1] = 0.0
        lone = xp.logical_and(is_zero, zero_count == 1)
        dx[lone] = (xp.prod(ones_at_zeros, keepdims=True) / ones_at_zeros)[lone]
        return (dx * dy,)

    return y, prod_masks_pullback
