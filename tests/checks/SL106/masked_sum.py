"""SL106: the sum of the elements a mask selects, in an rrule pullback."""
from array_api_compat import array_namespace


def rrule_positive_part_norm(x):
    xp = array_namespace(x)
    s = xp.sum(x[x > 0])  # expect: SL106
    fixed = xp.sum(xp.where(x > 0, x, 0))  # fixed-shape masked arithmetic: not a finding

    def positive_part_norm_pullback(dy):
        return (xp.where(x > 0, dy, 0) + 0 * fixed,)

    return s, positive_part_norm_pullback
