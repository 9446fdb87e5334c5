"""Small AD rules with findings, shared by tests in several folders (``tests`` is on the
path through its conftest)."""

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

# one scalar write inside an element loop: three findings
LOOP_RULE = '''\
import numpy as np


def rrule_last(x):
    def pullback(dy):
        dx = np.zeros(len(x))
        for i in range(len(x)):
            dx[i] = x[i] * dy
        return (dx,)

    return x, pullback
'''
