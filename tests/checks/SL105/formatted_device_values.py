"""SL105: an f-string or `%` formatting of a device value writes its digits on the host, like
`str()` or `print()` of it: a copy and a sync each time the rule runs (a warning printed in a
backward, an error message built from an element). Host values (a name, a shape, a setting)
format freely, and so does a value an `isinstance` test narrowed to a Python number; a message
built for a `raise` or an `assert` is formatted only once the rule has failed."""
import torch


class Compare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, tol):
        ctx.save_for_backward(x)
        ctx.tol = tol
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        diff = (grad - x).abs()
        print(f"mismatch at {x.shape}: {diff}")  # expect: SL105
        first = x[0]
        message = "first %f of %d (%s)" % (first, x.shape[0], ctx.tol)  # expect: SL105
        if first.numel() == 0:
            raise ValueError(f"no first element in {x}")
        assert message, "empty message for %s" % diff
        label = f"tolerance {ctx.tol} on {x.dtype}, {len(message)} characters"
        if isinstance(diff, float):  # a backend that hands Python numbers for 0-d values
            label += f" off by {diff}"
        return grad * 2 if label else grad, None
