from array_api_compat import array_namespace

from . import helpers
from .helpers import scale_first


def rrule_tail(x):
    xp = array_namespace(x)
    i = helpers.last_nonzero(x)

    def pullback(dy):
        return (scale_first(x, dy) * xp.ones_like(x),)

    return x, pullback
