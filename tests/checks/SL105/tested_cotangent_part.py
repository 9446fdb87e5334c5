"""SL105: a test of what host ints pick from a rule's parameters (`grad_output[0][0]` of
`*grad_output`, `dy[0]` of a cotangent tuple): only one element can be tested, so Python
reads it from the device, a sync. Values unpacked from the saved tensors may be reduction
results (SL107's domain) and are left alone, as is a test of a parameter's size."""
import torch


class PreferenceLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x * w, w.sum())
        return (x * w).sum()

    @staticmethod
    def backward(ctx, *grad_output):
        grad_input, total = ctx.saved_tensors
        if torch.ne(grad_output[0][0], torch.tensor(1.0, device=grad_input.device)):  # expect: SL105
            grad_input = grad_input * grad_output[0][0]
        if grad_output[0] != 1.0:  # expect: SL105
            grad_input = grad_input * 2.0
        if grad_output[0].shape[0] > 1 or len(grad_output) > 2:  # sizes: not a finding
            grad_input = -grad_input
        if total > 0:  # a saved reduction: not a finding (SL107's, opt-in)
            grad_input = grad_input / total
        return grad_input, total
