"""SL104/SL105/SL101: Theano, Aesara and PyTensor hand `Op.perform(node, inputs,
output_storage)` its inputs as a list of arrays (GPU arrays under a GPU backend): the values
unpacked from `inputs` are arrays, whatever `node` is called. Iterating one of them on the host
and testing each item is one sync per element; `node` itself is the graph node, not data."""
import numpy as np
from pytensor.graph.op import Op


class SolveAtTimes(Op):
    def perform(self, node, inputs, output_storage):
        y0, tvals = inputs
        out = np.empty((len(tvals), y0.shape[0]))
        for i, t in enumerate(tvals):  # expect: SL104
            if t == tvals[0]:  # expect: SL101 SL105
                out[i] = y0
        output_storage[0][0] = out

    def grad(self, inputs, output_grads):
        return [output_grads[0].sum(axis=0), inputs[1].zeros_like()]
