"""SL105: elements of a device array used as slice bounds (segment sums), in an rrule pullback."""
from array_api_compat import array_namespace


def rrule_segment_sum(x, offsets):
    xp = array_namespace(x)
    y = xp.cumsum(x)

    def segment_sum_pullback(dy):
        dx = xp.zeros_like(x)
        start = offsets[0]  # expect: SL101
        stop = offsets[1]  # expect: SL101
        dx[start:stop] = dy[start:stop]  # expect: SL105
        return (dx, None)

    return y, segment_sum_pullback
