"""4. MyGrad: Operation.backward_var, with the base class defined in the project being linted."""
import numpy as np

from .operation_base import Operation


class Max(Operation):
    def backward_var(self, grad, index, **kwargs):
        a = self.variables[index].data
        out = np.zeros_like(a)
        for k in range(a.shape[0]):  # expect: SL104
            if a[k] == a.max():  # expect: SL101 SL105
                out[k] = grad  # expect: SL102
        return out
