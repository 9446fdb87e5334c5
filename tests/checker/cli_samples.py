"""A rule with one scalar read and one scalar write, shared by the CLI tests."""

BAD_RULE = '''\
from array_api_compat import array_namespace


def rrule_last(x):
    xp = array_namespace(x)
    n = len(x)

    def pullback(dy):
        dx = xp.zeros_like(x)
        dx[n - 1] = dy * x[n - 1]
        return (dx,)

    return x, pullback
'''
