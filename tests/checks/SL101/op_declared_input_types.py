"""SL101: the ranks a PyTensor op declares for the arrays `perform` receives.

`itypes = [pt.dvector, pt.dmatrix, pt.dvector]` types `inputs`: `params` is a vector, so
`params.view(self._deriv_dtype)[0]` (a view as another dtype keeps the axes) reads one element,
`y[i]` is a row of the matrix (not reported) whose first entry of the view is one element, and
`tvals[-1]` is the last time. An op without `itypes` says nothing of its inputs' ranks.
"""
import numpy as np
import pytensor.tensor as pt
from pytensor.graph.op import Op


class Solve(Op):
    itypes = [pt.dvector, pt.dmatrix, pt.dvector]
    otypes = [pt.dmatrix]

    def __init__(self, solver):
        self._solver = solver
        self._deriv_dtype = solver.derivative_params_dtype

    def perform(self, node, inputs, outputs):
        params, y, tvals = inputs
        self._solver.set_params(params.view(self._deriv_dtype)[0])  # expect: SL101
        row = y[0]
        for i in range(len(tvals)):  # expect: SL104
            self._solver.rhs(y[i].view(self._solver.state_dtype)[0])  # expect: SL101
        self._solver.solve(tvals[-1], row)  # expect: SL101
        outputs[0][0] = y

    def grad(self, inputs, g):
        return [g[0].sum(), g[0], g[0].sum()]


class Untyped(Op):
    def perform(self, node, inputs, outputs):
        params, y = inputs
        outputs[0][0] = y * params[0]

    def grad(self, inputs, g):
        return [g[0].sum(), g[0]]
