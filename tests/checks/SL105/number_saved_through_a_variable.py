"""SL105: an older forward wraps what it saves in `torch.autograd.Variable(...)`, which has
been the tensor itself since torch 0.4. A number saved that way (`Variable(torch.tensor(flag))`)
is a 0-d tensor, and the backward that tests it reads that element back: a sync, as when it
is saved bare. A Variable around a whole tensor (`scaled`) stays that array, used whole."""
import torch


class Threshold(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, graded, scale):
        flag = 1 if graded else 0
        ctx.save_for_backward(
            x,
            torch.autograd.Variable(torch.tensor(flag, device=x.device), requires_grad=False),
            torch.autograd.Variable(x * scale, requires_grad=False),
        )
        return (x > 0).to(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, flag, scaled = ctx.saved_tensors
        graded = True if flag > 0.5 else False  # expect: SL105
        return grad * scaled if graded else grad, None, None
