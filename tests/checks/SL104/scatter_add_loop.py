"""SL104: a loop over the positions of an index array, adding into the element each names (take's pullback)."""
from array_api_compat import array_namespace


def rrule_take(x, idx):
    xp = array_namespace(x)
    y = xp.take(x, idx)

    def take_pullback(dy):
        dx = xp.zeros_like(x)
        for k in range(idx.shape[0]):  # expect: SL104
            dx[idx[k]] += dy[k]  # expect: SL101
        gathered = dx[idx]  # an integer-array index: a gather, not a finding
        return (dx + 0 * gathered.sum(), None)

    return y, take_pullback
