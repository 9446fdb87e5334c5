"""SL106: a hand-written engine's op given its gradient under the keyword ``backward=``.

``ops.apply(forward, weight, indices, backward=backward)`` registers ``backward`` as the op's
rule, whatever the function is called; the tuple of arrays it is handed (``arrays``) unpacks
into arrays, so a mask built from one of them and read through is a data-dependent shape.
A function passed under any other keyword (``on_error=``) is no rule.
"""
import cupy as cp

from . import ops


def embedding(indices, weight, padding_idx):
    def backward(gradient, result, arrays):
        matrix, indices = arrays
        grad_weight = cp.zeros_like(matrix)
        selected = indices != padding_idx
        cp.add.at(grad_weight, indices[selected], gradient[selected])  # expect: SL106 SL106
        return grad_weight, None

    def report(arrays):
        kept, rows = arrays
        chosen = rows != 0
        return kept[chosen]

    return ops.apply(lambda m, i: m[i], weight, indices, backward=backward, on_error=report)
