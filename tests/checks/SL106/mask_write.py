"""SL106: writes through a boolean mask, in an rrule pullback (relu's)."""
from array_api_compat import array_namespace


def rrule_relu(x):
    xp = array_namespace(x)
    x = xp.reshape(x, (-1,))  # rank 1, like the written array below
    y = xp.maximum(x, 0)

    def relu_pullback(dy):
        dx = xp.reshape(dy, (-1,)) * 1
        dx[x <= 0] = 0  # expect: SL106
        same = xp.where(x > 0, dy, 0)  # three-argument where: not a finding
        return (dx + 0 * same,)

    return y, relu_pullback
