"""SL105: Python numbers taken from the tensors a rule was handed, through a name.

`num_samples = args[k]` holds one of a custom gradient's tensors, so `int(num_samples)` reads
it on the host whatever its rank, as `int(args[k])` does. In the `else` branch of an `if` whose
other branch rebinds the name, only the binding before the `if` reaches (the two branches never
both run), so `int(num_samples[0])` there reads one element of that tensor: SL101 and SL105.
Inside a loop the other branch's binding reaches the next pass, so a name that may hold a
host number by then is no finding; nor is a tensor handed on through other names.
"""
import tensorflow as tf


@tf.custom_gradient
def render(*args):
    index = 0
    num_samples = args[index]
    index += 1
    if len(num_samples.shape) == 0 or num_samples.shape[0] == 1:
        num_samples = int(num_samples)  # expect: SL105
    else:
        num_samples = (int(num_samples[0]), int(num_samples[1]))  # expect: SL101 SL105
    scale = args[index]
    total = 0.0
    for k in range(3):
        if k == 0:
            scale = 1.5
        else:
            total = total + float(scale)

    carried = args[index]
    for k in range(2):
        copy = carried
        carried = copy
    steps = int(carried)  # bound through other names, around a loop: not followed, no finding

    def grad(dy):
        return [dy * total * steps] + [None] * (len(args) - 1)

    return args[-1] * 2.0, grad
