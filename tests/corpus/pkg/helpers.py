"""Helpers with no AD rule of their own: checked because rules in pkg.rules call them."""


def last_nonzero(x):
    n = len(x)
    for i in reversed(range(n)):  # expect: SL103
        if x[i] != 0:  # expect: SL101
            return i
    return -1


def _unused(x):
    return x[len(x) - 1]  # reached from no rule: not checked


def scale_first(x, dy):
    return inner_scale(x, dy)


def inner_scale(x, dy):
    return x[len(x) - 1] * dy  # expect: SL101
