"""SL105: an element tested in `if` while iterating the lengths, in an rrule pullback."""
from array_api_compat import array_namespace


def rrule_packed(x, lengths):
    xp = array_namespace(x)
    y = x * 1.0

    def packed_pullback(dy):
        dx = xp.zeros_like(x)
        offset = 0
        for length in lengths:  # expect: SL104
            if length <= 0:  # expect: SL105
                continue
            dx[offset : offset + length] = dy[offset : offset + length]  # expect: SL105
            offset = offset + length
        return (dx, None)

    return y, packed_pullback
