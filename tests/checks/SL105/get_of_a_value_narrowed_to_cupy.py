"""SL105: ``.get()`` of a value a type test says is a CuPy array.

Under ``if type(sl).__module__ == "cupy" and ...:`` (or ``isinstance(rows, cupy.ndarray)``) the
value is a device array, so ``sl.get()`` is CuPy's copy to the host, a sync. ``.get()`` of a
value nothing narrows is a dict's as often as an array's, and is left alone.
"""
import cupy
import numpy
from chainer import function


class GetItem(function.Function):
    def forward(self, inputs):
        t, key = inputs
        sl, rows = key.data, self.rows
        options = self.options
        if type(sl).__module__ == "cupy" and self.xp is numpy:
            sl = sl.get()  # expect: SL105
        if isinstance(rows, cupy.ndarray):
            rows = rows.get()  # expect: SL105
        mode = options.get()
        self.retain_inputs(())
        return t[sl][rows] * mode,
