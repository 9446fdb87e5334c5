"""SL105: .item() of an element, in a chainer FunctionNode backward."""
import chainer


class ScaleByLast(chainer.FunctionNode):
    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        return (x * x[-1:],)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        n = len(x.array)
        last = x.array[n - 1].item()  # expect: SL105 SL101
        first = indexes[0]  # a tuple of ints: not a finding
        return (gy * last + first * 0,)
