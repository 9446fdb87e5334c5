"""Scalar-indexing pullbacks shared by the integration tests (LSP, pre-commit, output formats)."""

ONE_WRITE = '''\
import numpy as np


def norm_inf_pullback(x, g):
    xp = np
    dx = xp.zeros_like(x)
    i = len(x) - 1
    dx[i] = xp.sign(x[i]) * g
    return dx
'''
"""A single scalar read and write: one SL101 and one SL102, with a safe size-1-view fix."""

LOOP = '''\
import numpy as np


def abs_pullback(x, g):
    xp = np
    dx = xp.zeros_like(x)
    for i in range(len(x)):
        dx[i] = xp.sign(x[i]) * g
    return dx
'''
"""The same access inside a loop over the data: errors, not warnings, and the loop itself (SL104)."""

TORCH_LOOP_SQUARE = '''\
import torch


class LoopSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x * x).sum()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        dx = torch.zeros_like(x)
        for i in range(x.shape[0]):
            dx[i] = 2 * g * x[i]
        return dx
'''
"""A torch ``Function`` whose backward writes one element per trip: what strict torch refuses."""
