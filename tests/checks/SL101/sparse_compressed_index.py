"""SL101: entries of a sparse CSR tensor's row pointers, in a torch Function's backward.

``crow_indices()`` (like ``col_indices()``, ``ccol_indices()``, ``row_indices()``) is a vector,
so a host int picks one element of it: ``crow[row]`` is a sync once used. A slice of it is a
view, and ``values()`` says nothing about its rank.
"""
import torch


class RowSums(torch.autograd.Function):
    @staticmethod
    def forward(ctx, matrix):
        ctx.save_for_backward(matrix)
        return matrix.sum(dim=1).to_dense()

    @staticmethod
    def backward(ctx, grad):
        (matrix,) = ctx.saved_tensors
        crow = matrix.crow_indices()
        values = matrix.values()
        offset = 2
        rebased = crow[offset : offset + 3] - crow[offset]  # expect: SL101
        first = values[offset]
        return grad * rebased.sum() * first
