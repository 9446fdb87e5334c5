"""SL105: `int()` of an index element, to write through a permutation one trip at a time (sort's pullback)."""
from array_api_compat import array_namespace


def rrule_sort(x):
    xp = array_namespace(x)
    p = xp.argsort(x)
    y = x[p]  # an integer-array index: a gather, not a finding

    def sort_pullback(dy):
        dx = xp.empty_like(dy)
        for i in range(len(p)):  # expect: SL104
            dx[int(p[i])] = dy[i]  # expect: SL105 SL101
        back = dy[p]  # an integer-array index: a gather, not a finding
        return (dx + 0 * back,)

    return y, sort_pullback
