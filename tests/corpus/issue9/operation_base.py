"""A project's own base class (MyGrad's ``Operation``), found across modules."""


class Operation:
    def __call__(self, *input_vars):
        self.variables = input_vars
        return None

    def backward_var(self, grad, index, **kwargs):
        raise NotImplementedError
