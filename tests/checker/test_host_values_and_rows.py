"""Where a value leaves the device and where it never was on it: ``round()`` of an element, the
tensors of a custom gradient's ``*args`` converted one by one, the host copies a
``jax.pure_callback`` callback gets, host NumPy that stays host through ``reshape``, and a
read that picks a row because the row is indexed afterwards."""

from __future__ import annotations

from pathlib import Path


from snippet_codes import snippet_codes  # tests/ is on the path through its conftest


_codes = snippet_codes


ROUNDED_BOX = '''\
import chainer


class BoxPool(chainer.Function):
    def forward_cpu(self, inputs):
        x, boxes = inputs
        out = []
        for i in range(len(boxes)):
            x0, y0, x1, y1 = boxes[i]
            x0 = round(x0 * self.scale)
            x1 = round(x1 * self.scale)
            width = max(x1 - x0, 1)
            out.append(x[:, y0:y1, x0:x0 + width])
        return out,
'''


def test_round_of_an_element_is_the_host_copy_and_what_it_returns_is_host(tmp_path: Path) -> None:
    """``round(x0 * s)`` reads the element (SL105); ``max(x1 - x0, 1)`` then compares Python
    ints, which is no second sync."""
    found = _codes(tmp_path, ROUNDED_BOX)
    assert (10, "SL105") in found and (11, "SL105") in found
    assert (12, "SL105") not in found


CUSTOM_GRADIENT_ARGS = '''\
import tensorflow as tf


def unpack(args):
    position = 0
    count = int(args[position])
    position += 1
    scale = float(args[position])
    return count, scale


def settings():
    return unpack([1, 2.0])


@tf.custom_gradient
def draw(*x):
    count, scale = unpack(x[1:])

    def grad(dy):
        return [tf.zeros_like(v) for v in x]

    return x[0] * scale, grad
'''


def test_the_tensors_of_star_args_converted_one_by_one(tmp_path: Path) -> None:
    """``unpack`` gets the rule's tensors from the rule and a list from another caller: it holds
    tensors, so each ``int()``/``float()`` of one is a host copy."""
    found = _codes(tmp_path, CUSTOM_GRADIENT_ARGS)
    assert (6, "SL105") in found and (8, "SL105") in found


HOST_CALLBACK = '''\
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_vjp
def solve(a, b):
    def callback(values, rhs):
        values = np.asarray(values)
        rhs = np.asarray(rhs)
        return np.linalg.solve(values, rhs).astype(rhs.dtype)

    return jax.pure_callback(callback, b, a, b)


def solve_fwd(a, b):
    return solve(a, b), (a, b)


def solve_bwd(res, g):
    a, b = res
    return jnp.outer(g, b), g


solve.defvjp(solve_fwd, solve_bwd)
'''


def test_a_pure_callback_gets_host_copies(tmp_path: Path) -> None:
    """The callback runs on NumPy copies on the host: its ``np.asarray`` calls move nothing.
    The ``pure_callback`` call itself is the round trip (SL105 on line 13)."""
    found = _codes(tmp_path, HOST_CALLBACK)
    assert [f for f in found if f[0] in (9, 10, 11)] == []
    assert (13, "SL105") in found


HOST_TABLE_IN_AN_OP = '''\
import mxnet as mx
import numpy as np


class Anchors(mx.operator.CustomOp):
    def __init__(self, sizes):
        super().__init__()
        self.sizes = np.array(sizes).reshape(-1, 2)

    def forward(self, is_train, req, in_data, out_data, aux):
        table = np.zeros((self.sizes.shape[0], 2))
        for k, size in enumerate(self.sizes):
            table[k, 0] = size[0] * 0.5
            table[k, 1] = size[1] * 0.5
        self.assign(out_data[0], req[0], mx.nd.array(table))
'''


def test_host_numpy_stays_host_through_reshape(tmp_path: Path) -> None:
    """``np.array(sizes).reshape(-1, 2)`` in an MXNet op is a host table: looping over it and
    filling another host table is no device work."""
    assert _codes(tmp_path, HOST_TABLE_IN_AN_OP) == []


ROWS_OF_A_MATRIX = '''\
import torch


class Merge(torch.autograd.Function):
    @staticmethod
    def forward(ctx, scores, gates):
        scores = scores.clone()
        for i in range(scores.shape[0]):
            row = scores[i]
            row[1:] *= gates[i][1:]
            scores[i] = row
        return scores
'''


def test_a_read_whose_name_is_indexed_again_is_a_row(tmp_path: Path) -> None:
    """``row = scores[i]`` then ``row[1:]``: ``scores`` has two axes, so neither the read nor the
    write back picks one element (the loop over rows is no per-element loop)."""
    found = _codes(tmp_path, ROWS_OF_A_MATRIX)
    assert [f for f in found if f[1] in ("SL101", "SL102")] == []


SCALED_BOX_IN_A_HELPER = '''\
import chainer
import numpy as np


class BoxAlign(chainer.Function):
    def __init__(self, scale):
        self.scale = scale

    def forward_cpu(self, inputs):
        x, boxes = inputs
        scale = self.scale
        out = np.zeros((len(boxes),), dtype=x.dtype)
        for n in range(len(boxes)):
            start = boxes[n, 0] * scale
            end = boxes[n, 2] * scale
            out[n] = max(end - start, 1.0)
        return out,

    def backward_cpu(self, inputs, grad_outputs):
        return box_align(grad_outputs[0], inputs[1], self.scale), None


def box_align(x, boxes, scale):
    return BoxAlign(scale)(x, boxes)
'''


def test_an_element_times_a_setting_passed_through_a_helper_stays_one_element(tmp_path: Path) -> None:
    """``scale`` reaches the op through ``box_align``'s parameter: a setting, not an array the
    element broadcasts against, so ``max(end - start, 1.0)`` compares one element on the host."""
    assert (16, "SL105") in _codes(tmp_path, SCALED_BOX_IN_A_HELPER)


NUMPY_ON_A_TENSOR = '''\
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def pick(tensor, *, key):
    value = tensor[key]

    def grad(dy):
        host = np.zeros_like(dy)
        rows = np.shape(dy)[0]
        return tf.convert_to_tensor(host[:rows]), None

    return value, grad
'''


def test_a_numpy_function_of_a_tensor_reads_it_on_the_host(tmp_path: Path) -> None:
    """In a module written for TensorFlow, ``np.zeros_like(dy)`` reads the cotangent through
    ``__array__`` (SL105); ``np.shape`` reads only what the tensor says about itself."""
    found = _codes(tmp_path, NUMPY_ON_A_TENSOR)
    assert (10, "SL105") in found
    assert (11, "SL105") not in found


FLOAT_ANNOTATED_TENSOR = '''\
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def rotate(theta: float, angle: float):
    table = np.asarray(theta)

    def grad(dy):
        return dy * tf.cos(theta), tf.zeros((), dtype=theta.dtype)

    return tf.constant(table) * angle, grad
'''


def test_a_float_annotated_input_of_a_rule_read_as_a_tensor_is_one(tmp_path: Path) -> None:
    """``theta: float``, but the rule reads ``theta.dtype``: TensorFlow hands a custom gradient
    tensors, so ``np.asarray(theta)`` is a host copy. ``angle`` has no such use and stays a float."""
    found = _codes(tmp_path, FLOAT_ANNOTATED_TENSOR)
    assert (7, "SL105") in found


ENGINE_WITH_NAMED_BACKWARD = '''\
import numpy as np


def is_tensor(value):
    return hasattr(value, "_data")


class Amin:
    def forward(self, t, dim=None):
        if is_tensor(dim):
            dim = int(dim.item())
        self.saved = t
        return np.amin(t, axis=dim)

    def _backward(self, grad):
        return grad
'''


def test_the_forward_of_a_class_whose_backward_is_named_a_rule_is_checked(tmp_path: Path) -> None:
    """``_backward`` is a rule by its name, so ``forward`` is its forward; inside
    ``if is_tensor(dim):`` the setting-like ``dim`` holds a tensor and ``.item()`` copies it."""
    assert (11, "SL105") in _codes(tmp_path, ENGINE_WITH_NAMED_BACKWARD)


HOST_COPY_BY_A_BACKEND_METHOD = '''\
import numpy as np
import tensorflow as tf


class Backend:
    def asnumpy(self, tensor):
        return np.array(tensor)

    @tf.custom_gradient
    def polynomial(self, A, C):
        A, C = self.asnumpy(A), self.asnumpy(C)
        value = tf.numpy_function(np.polyval, [A, C.item()], [A.dtype])

        def grad(dy):
            return dy * C.item(), None

        return value, grad
'''


def test_what_a_function_named_asnumpy_returns_is_host_data(tmp_path: Path) -> None:
    """``self.asnumpy(C)`` copies ``C`` to the host (SL105 there); ``C.item()`` afterwards reads
    the host copy, no second sync."""
    found = _codes(tmp_path, HOST_COPY_BY_A_BACKEND_METHOD)
    assert (11, "SL105") in found
    assert (12, "SL105") in found  # tf.numpy_function: the callback round trip
    assert [f for f in found if f[0] == 15] == []


HOST_NUMPY_HELPER = '''\
import numpy as np
import torch


def shortest(matrix):
    costs = np.full_like(matrix, 1.0e10)
    costs[0, 0] = matrix[0, 0]
    return costs


def to_np(x):
    return x.detach().cpu().numpy()


class Path(torch.autograd.Function):
    @staticmethod
    def forward(ctx, weights):
        host = to_np(weights)
        return torch.from_numpy(np.stack(list(map(shortest, host))))

    @staticmethod
    def backward(ctx, grad):
        return grad
'''


def test_a_helper_that_hands_its_parameter_to_host_numpy_gets_numpy(tmp_path: Path) -> None:
    """In a torch module ``shortest`` gives ``matrix`` to ``np.full_like``: it holds NumPy, so its
    element reads are host work; the copy is in ``to_np`` (SL105 on its ``.cpu()``/``.numpy()``)."""
    found = _codes(tmp_path, HOST_NUMPY_HELPER)
    assert [f for f in found if f[0] in (6, 7)] == []
    assert (12, "SL105") in found


ELEMENT_LIST = '''\
import torch
from torch.autograd import Function


class Rotate(Function):
    @staticmethod
    def forward(ctx, x, h):
        c = x[0, 0]
        s = x[0, 1]
        g = torch.tensor([[c, s], [-s, c]], dtype=x.dtype)
        k = torch.tensor([1.0, 2.0])
        m = torch.stack([c, s])
        return g @ h + k + m

    @staticmethod
    def backward(ctx, g):
        return g, None
'''


def test_an_array_built_from_a_list_of_device_elements_reads_each_on_the_host(tmp_path: Path) -> None:
    """``torch.tensor([[c, s], [-s, c]])`` asks each 0-d element for its host value (SL105 on
    line 10); a list of Python numbers (line 11) and ``torch.stack`` (line 12) do not."""
    found = _codes(tmp_path, ELEMENT_LIST)
    assert (10, "SL105") in found
    assert not any(row in (11, 12) for row, _ in found)


def test_jax_stacks_a_list_of_traced_elements_on_the_device(tmp_path: Path) -> None:
    text = ELEMENT_LIST.replace("import torch\n", "import torch\nimport jax.numpy as jnp\n").replace("g = torch.tensor(", "g = jnp.array(")
    assert not any(code == "SL105" and row == 11 for row, code in _codes(tmp_path, text))


TIME_GRID = '''\
import torch
from torch.autograd import Function


class Adjoint(Function):
    @staticmethod
    def forward(ctx, x0, t_span, states):
        t = t_span[0]
        s = states[0]
        return x0 * t + s

    @staticmethod
    def backward(ctx, g):
        return g, None, None
'''


def test_a_time_grid_has_one_axis_and_its_first_entry_is_one_element(tmp_path: Path) -> None:
    """``t_span`` is a grid of time points by the solvers' convention (one axis): ``t_span[0]``
    is an element (line 8); ``states[0]`` of an array of unknown rank may be a row (line 9)."""
    found = _codes(tmp_path, TIME_GRID)
    assert (8, "SL101") in found
    assert not any(row == 9 for row, _ in found)


SENTINEL_OR_ELEMENT = '''\
import torch
from torch.autograd import Function


class Packed(Function):
    @staticmethod
    def forward(ctx, x, batch_sizes):
        left = 0
        for t in range(len(batch_sizes) + 1):
            if t == len(batch_sizes):
                n = 0
            else:
                n = batch_sizes[t]
            if n != 0:
                x[left:left + n] *= 2
        return x

    @staticmethod
    def backward(ctx, g):
        return g, None
'''


def test_a_literal_beside_an_element_is_still_a_device_value(tmp_path: Path) -> None:
    """``n`` is ``0`` on the last trip and ``batch_sizes[t]`` before: testing it (line 14) and
    using it as a slice bound (line 15) wait for the element whenever that branch ran."""
    found = _codes(tmp_path, SENTINEL_OR_ELEMENT)
    assert (14, "SL105") in found and (15, "SL105") in found


NEW_ZEROS = '''\
import torch
from torch.autograd import Function


class Query(Function):
    @staticmethod
    def forward(ctx, xyz, limit):
        count = xyz.new_zeros(1)
        torch.ops.my.query(xyz, count)
        if count[0] <= limit:
            return xyz[:count[0]]
        return xyz

    @staticmethod
    def backward(ctx, g):
        return g, None
'''


def test_torch_new_zeros_is_an_array_of_the_shape_it_is_given(tmp_path: Path) -> None:
    """``xyz.new_zeros(1)`` has one axis: ``count[0]`` is one element, tested in an ``if``
    (line 10) and used as a slice bound (line 11)."""
    found = _codes(tmp_path, NEW_ZEROS)
    assert (10, "SL101") in found and (11, "SL105") in found
