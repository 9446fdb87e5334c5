"""SL104: a loop over the entries of device data copied to the host (`for i in idx.cpu().numpy():`,
a slice or `enumerate` of such a copy) runs once per entry; when its body reads or writes single
elements of device arrays it is an element loop, as `range(len(idx))` would be. A loop over a
host copy whose body only touches the copy is host work: no finding."""
import torch


class Scatter(torch.autograd.Function):
    @staticmethod
    def forward(ctx, values, index, n):
        ctx.save_for_backward(index)
        out = torch.zeros(n)
        out.index_add_(0, index, values)
        return out

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        grad_values = torch.zeros(index.shape[0])
        host = index.cpu().numpy()  # expect: SL105 SL105
        for k, i in enumerate(host):  # expect: SL104
            grad_values[k] = grad[i]  # expect: SL102
        total = 0
        for i in host[:10]:
            total += int(i)
        return grad_values, None, None
