"""SL106: a mask made by a constructor with a boolean dtype.

``torch.ones(n, dtype=torch.bool)`` (or ``np.zeros_like(x, dtype=bool)``) is an array of
booleans by construction, so indexing with it keeps a data-dependent number of rows. An index
array made with an integer dtype is a gather and stays quiet.
"""
import torch


class QuickCumsum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, geom_feats, ranks):
        x = x.cumsum(0)
        kept = torch.ones(x.shape[0], device=x.device, dtype=torch.bool)
        kept[:-1] = ranks[1:] != ranks[:-1]
        x, geom_feats = x[kept], geom_feats[kept]  # expect: SL106 SL106
        ids = torch.zeros(x.shape[0], dtype=torch.long)
        y = x[ids]
        ctx.save_for_backward(kept)
        return x, geom_feats, y

    @staticmethod
    def backward(ctx, gradx, gradgeom, grady):
        return gradx, None, None
