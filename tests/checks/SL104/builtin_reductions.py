"""SL104: Python's builtin sum/max applied to arrays, in an rrule and its pullback."""
from array_api_compat import array_namespace


def rrule_sum_plus_max(x):
    xp = array_namespace(x)
    v = xp.reshape(x, (-1,))
    y = sum(v) + max(v)  # expect: SL104
    sizes = [1, 2, 3]
    total = sum(sizes) + max(sizes)  # a Python list: not a finding
    s = xp.sum(v)  # the array module's reduction: not a finding

    def sum_plus_max_pullback(dy):
        return (dy * (xp.ones_like(v) + (v == xp.max(v))) + 0 * (s + total),)

    return y, sum_plus_max_pullback
