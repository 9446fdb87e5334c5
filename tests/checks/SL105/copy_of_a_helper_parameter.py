"""SL105: a helper hands its parameter to a host-copy function (``utils.to_numpy``).

A function named for copying to the host exists to copy device data; what a rule's helper
hands it is that data unless the code proves it host data, so the copy is a sync and a
transfer, even where the rule's own parameter might be a tuple. A value built from Python data
is host data already and is left alone.
"""
from . import ops, utils


def _host_values(values):
    host = utils.to_numpy(values)  # expect: SL105
    limits = utils.to_numpy([0, 1])
    return host, limits


def scale(x, factor):
    def backward(gradient, result, arrays):
        host, _ = _host_values(gradient)
        return host * factor, None

    return ops.apply(lambda a: a * factor, x, backward=backward)
