"""SL102/SL101: Gauss quadrature nodes and weights (`leggauss(n)`) are two vectors, and
`torch.tensor` of a vector keeps its one axis (of a number, it is a 0-d tensor), so the nodes
scaled by a 0-d bound still have one axis and a loop writing them one by one writes elements.
The weights summed whole are no finding."""
import numpy as np
import torch


class Integral(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return _integrate(g)


def _integrate(g, n=16, upper=1.0):
    nodes, weights = np.polynomial.legendre.leggauss(n)
    nodes = torch.tensor(nodes, dtype=g.dtype, device=g.device)
    weights = torch.tensor(weights, dtype=g.dtype, device=g.device)
    bound = torch.tensor(upper, dtype=g.dtype, device=g.device)
    points = nodes * (0.5 * bound) + 0.5 * bound
    values = torch.empty_like(points)
    for i in range(n):  # expect: SL104
        values[i] = torch.exp(points[i]) * g  # expect: SL101 SL102
    return (values * weights).sum()
