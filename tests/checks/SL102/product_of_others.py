"""SL102: the product of all the other elements, written per element (prod's pullback)."""
from array_api_compat import array_namespace


def rrule_prod(x):
    xp = array_namespace(x)
    y = xp.prod(x)

    def prod_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(len(x)):  # expect: SL104
            others = xp.concatenate([x[:i], x[i + 1 :]])
            dx[i] = xp.prod(others) * dy  # expect: SL102
        return (dx,)

    return y, prod_pullback
