"""SL106: an index named ``mask`` is a boolean mask, unless it was cast to integers.

``mask`` is the universal name of a boolean mask, so ``grad[mask]`` of an array whose dtype the
inference cannot follow is a mask read; ``mask = inputs.astype(np.int64)`` (or ``.long()``)
makes an index array, and indexing with it is a gather of a fixed size.
"""
import numpy as np


def EmbeddingBackward(outputs):
    inputs, weight = outputs.in_bounds
    mask = inputs.eval.astype(np.int64)
    np.add.at(weight.grad.eval, mask, outputs.grad.eval)
    rows = weight.grad.eval[mask]
    kept = outputs.grad.eval[outputs.keep_mask]  # expect: SL106
    return rows, kept


def embedding(inputs, weight):
    out = Tensor(weight.eval[inputs.eval])
    out.in_bounds = (inputs, weight)
    out.grad_fn = EmbeddingBackward
    return out
