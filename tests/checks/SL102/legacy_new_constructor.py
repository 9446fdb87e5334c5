"""SL102: writes into an array made by torch's legacy ``x.new(n)`` constructor.

``X.new(n_states)`` makes an array of one axis (one size per argument), so ``ind[i] = i + 1`` in
a loop writes one element per trip. ``X.new_zeros(n, n)`` has two axes: ``grid[0] = 1`` fills a
row and stays quiet.
"""
import torch


class SparseMax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X):
        seq_len, n_batch, n_states = X.shape
        ind = X.new(n_states)
        for i in range(n_states):  # expect: SL104
            ind[i] = i + 1  # expect: SL102
        grid = X.new_zeros(n_states, n_states)
        grid[0] = 1
        return X / ind + grid.sum()

    @staticmethod
    def backward(ctx, g):
        return g
