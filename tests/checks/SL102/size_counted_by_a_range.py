"""SL102: an array built with a size nobody types (`backend.empty(n)`, `n` read off a settings
object) has one axis when the same function counts with that size (`for i in range(n)`): only
an int is a range bound, and an array built from an int size is a vector, so `out[i] = ...`
writes one element. A size the function never counts with proves nothing (`grid`)."""
import numpy


def make_band(backend, settings):
    def band_backward(g):
        n, grid = settings.length, settings.grid
        out = backend.empty(n)
        for i in range(n):  # expect: SL104
            out[i] = g * i  # expect: SL102
        other = backend.empty(grid)
        other[0] = g
        return out, other

    return band_backward


def band_rrule(x, settings):
    return x, make_band(numpy, settings)
