"""SL102 and SL104: a helper reached through a table of classes (``op = operators[name]``).

``op.max(M)`` runs the ``max`` of one of the classes the module-level table holds, so those
methods are helpers of the rule, even under a name every array has. A class outside the table
is not reached (``Unused.max``).
"""
import torch


class SoftMaxOp:
    @staticmethod
    def max(X):
        return torch.logsumexp(X, dim=-1)


class SparseMaxOp:
    @staticmethod
    def max(X):
        n = X.shape[-1]
        ind = X.new(n)
        for i in range(n):  # expect: SL104
            ind[i] = i + 1  # expect: SL102
        return (X * ind).sum(-1)


class Unused:
    @staticmethod
    def max(X):
        ind = X.new(X.shape[-1])
        for i in range(X.shape[-1]):
            ind[i] = i
        return ind


operators = {"softmax": SoftMaxOp, "sparsemax": SparseMaxOp}


class Smoothed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, theta, name):
        op = operators[name]
        return op.max(theta)

    @staticmethod
    def backward(ctx, grad):
        return grad, None
