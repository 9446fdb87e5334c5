"""Suppression comments and allow_scalar blocks."""
# The checker honours these; nothing in this file may be reported.
from array_api_compat import array_namespace

from scalarlint.runtime import allow_scalar
from scalarlint import runtime as rt


def rrule_last(x):
    xp = array_namespace(x)
    n = len(x)
    y = x[n - 1]  # noqa: SL101
    z = x[n - 2]  # scalarlint: ignore[SL101]
    w = x[n - 3]  # noqa
    with allow_scalar():
        v = x[n - 4]
    with rt.allow_scalar():
        u = x[n - 5]

    def pullback(dy):
        dx = xp.zeros_like(x)
        dx[n - 1] = dy  # noqa: SL102, SL101
        return (dx,)

    return y + z + w + v + u, pullback


@allow_scalar
def rrule_declared(x):
    n = len(x)
    return x[n - 1], None
