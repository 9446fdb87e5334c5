"""The examples of issue 27: each was reported as nothing before the detection work."""

from __future__ import annotations

import json
from pathlib import Path

from scalarlint.config import Config
from scalarlint.engine import check_paths

from snippet_codes import snippet_codes  # tests/ is on the path through its conftest

DEMO_CALL = '''\
import numpy as np

def rrule_norm1(x):
    def norm1_pullback(dy):
        dx = np.zeros_like(x)
        for i in range(len(x)):
            dx[i] = np.sign(x[i]) * dy
        return (dx,)
    return np.sum(np.abs(x)), norm1_pullback
if __name__ == "__main__":
    print(rrule_norm1(np.array([1.0, -2.0])))
'''

OTHER_FRAMEWORKS = '''\
import paddle
import mxnet as mx


class Gather(paddle.autograd.PyLayer):
    @staticmethod
    def backward(ctx, dy):
        idx, = ctx.saved_tensor()
        out = paddle.zeros([ctx.n])
        for k in range(idx.shape[0]):
            out[int(idx[k])] += dy[k]
        return out


class Softmax(mx.operator.CustomOp):
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        y = out_data[0].asnumpy()
        n = in_data[1].asscalar()
        return y, n
'''

SAVED_SHAPE = '''\
import numpy as np


class Function:
    def forward(self, *args): ...
    def backward(self, *args): ...


class Pad2D(Function):
    @staticmethod
    def forward(ctx, x, padding=None):
        ctx.save_for_backward(padding)
        return np.pad(x, padding)

    @staticmethod
    def backward(ctx, grad_output):
        padding, = ctx.saved_tensors
        return grad_output[..., padding[0]:-padding[1]]
'''


STARRED_SAVED_AND_RECEIVER = '''\
import torch


class Solver:
    def integrate(self, ys, span):
        out = torch.zeros_like(ys)
        for k in range(span.shape[0]):
            out[k] = ys[k] * float(span[k])
        return out


class Adjoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, ys, ts):
        ctx.solver = Solver()
        ctx.save_for_backward(ys, ts)
        return ys

    @staticmethod
    def backward(ctx, *grad_y):
        ys, ts, *rest = ctx.saved_tensors
        for i in range(len(ts) - 1, 0, -1):
            span = torch.stack([-ts[i], -ts[i - 1]])
            ctx.solver.integrate(ys, span)
        return grad_y
'''

TF_CUSTOM_GRADIENT = '''\
import tensorflow as tf


@tf.custom_gradient
def clip_first(x):
    def grad(dy):
        return tf.tensor_scatter_nd_update(dy, [[0]], [dy[0].numpy() * 2.0])
    return x, grad
'''

MASKS_AND_DEVICE_COUNTS = '''\
import torch
import jax
from . import util


class Reg(torch.autograd.Function):
    @staticmethod
    def forward(ctx, D, I, x, y, steps):
        D[util.bdiag(I).bool()] += 1e-8
        x[I.byte()] = y.view(-1)
        ctx.save_for_backward(D, steps)
        return D

    @staticmethod
    def backward(ctx, g):
        D, steps = ctx.saved_tensors
        for _ in range(steps):
            g = g * D
        return g, None, None, None, None


def solve(A, b):
    if A == 0.0:
        return b
    return b / A


@jax.custom_vjp
def f(A, b):
    return solve(A, b)


def f_fwd(A, b):
    return solve(A, b), (A, b)


def f_bwd(res, g):
    A, b = res
    return solve(A, g), g


f.defvjp(f_fwd, f_bwd)
'''


_codes = snippet_codes


def _notebook(*cells: str) -> str:
    """A notebook in Jupyter's own JSON layout (nbformat 4), one code cell per text."""
    code = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
             "source": text.splitlines(keepends=True)} for text in cells]
    return json.dumps({"cells": code, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_a_demo_call_does_not_silence_the_rule(tmp_path: Path) -> None:
    assert _codes(tmp_path, DEMO_CALL) == [(6, "SL104"), (7, "SL101"), (7, "SL102")]


def test_the_demo_call_in_a_notebook_does_not_silence_the_rule(tmp_path: Path) -> None:
    rule, demo = DEMO_CALL.split('if __name__ == "__main__":\n')
    notebook = _notebook(rule, demo.strip() + "\n")
    (tmp_path / "norm1.ipynb").write_text(notebook, encoding="utf-8")
    result = check_paths([tmp_path], Config(root=str(tmp_path)), jobs=1)
    found = sorted((d.cell, d.location.row, d.code) for d in result.diagnostics)
    assert found == [(1, 6, "SL104"), (1, 7, "SL101"), (1, 7, "SL102")]


def test_starred_saved_tensors_and_a_helper_reached_through_ctx(tmp_path: Path) -> None:
    codes = _codes(tmp_path, STARRED_SAVED_AND_RECEIVER)
    assert {(22, "SL104"), (23, "SL101")} <= set(codes)
    assert codes.count((23, "SL101")) == 2  # -ts[i] and -ts[i - 1]
    assert (8, "SL105") in codes  # float(span[k]) in Solver.integrate, reached via ctx.solver


def test_a_tf_custom_gradient_closure_is_checked(tmp_path: Path) -> None:
    assert (7, "SL105") in _codes(tmp_path, TF_CUSTOM_GRADIENT)


def test_mask_casts_device_counts_and_a_solve_helper(tmp_path: Path) -> None:
    codes = _codes(tmp_path, MASKS_AND_DEVICE_COUNTS)
    assert (9, "SL106") in codes  # D[util.bdiag(I).bool()] += 1e-8
    assert (10, "SL106") in codes  # x[I.byte()] = y.view(-1)
    assert (17, "SL105") in codes  # range(steps), steps a saved 0-d tensor
    assert (23, "SL105") in codes  # if A == 0.0 in a helper of a custom_vjp


def test_paddle_and_mxnet_rules_are_found(tmp_path: Path) -> None:
    codes = _codes(tmp_path, OTHER_FRAMEWORKS)
    assert (10, "SL104") in codes and (11, "SL102") in codes and (11, "SL105") in codes
    assert (17, "SL105") in codes and (18, "SL105") in codes


def test_a_saved_setting_is_not_an_array(tmp_path: Path) -> None:
    assert _codes(tmp_path, SAVED_SHAPE) == []


NUMPY_BESIDE_JAX = '''\
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_vjp
def f(x):
    return jnp.array(np.array(x))


def f_fwd(x):
    return f(x), x


def f_bwd(res, g):
    host = np.zeros(3)
    host[0] = 1.0
    return (g * host[0],)


f.defvjp(f_fwd, f_bwd)
'''


def test_numpy_beside_a_device_framework_is_host_data(tmp_path: Path) -> None:
    """np.array(x) of a custom_vjp's input copies it to the host; a NumPy scratch array in the
    same jax module is host data, so writing one element of it is no device access."""
    assert _codes(tmp_path, NUMPY_BESIDE_JAX) == [(8, "SL105")]


def test_numpy_in_generic_code_stays_device_capable(tmp_path: Path) -> None:
    generic = NUMPY_BESIDE_JAX.replace("import jax\n", "import jax\nfrom chainer.backends.cuda import get_array_module\n")
    assert (18, "SL102") in _codes(tmp_path, generic)


ENGINE_NOT_A_RULE = '''\
import torch
from torch.nn.modules import Module


class Engine(Module):
    def forward(self, batch):
        return self.module(batch)

    def backward(self, loss):
        for value in self.losses:
            print(value.item())
        loss.backward()


class Pipeline(Engine):
    def forward(self, batch):
        return [self.meta[0].item()]
'''


def test_a_model_with_backward_loss_is_no_rule(tmp_path: Path) -> None:
    """torch.nn.Module subclasses (and theirs) are layers and engines: a backward(loss) there
    runs autograd, it does not define a derivative, so structural discovery leaves them."""
    assert _codes(tmp_path, ENGINE_NOT_A_RULE) == []


HELPER_IN_ANOTHER_MODULE = {
    "pkg/__init__.py": "",
    "pkg/reindex.py": """\
import jax.numpy as jnp


def flatten(flm: jnp.ndarray, L: int) -> jnp.ndarray:
    return flm[: L * L]


def doubled(x):
    return jnp.concatenate([x, x])


def size_of(x):
    return len(x)
""",
    "pkg/transforms.py": """\
import jax
import numpy as np

from pkg import reindex


@jax.custom_vjp
def inverse(flm, L):
    return flm


def inverse_fwd(flm, L):
    flat = reindex.flatten(flm, L)
    twice = reindex.doubled(flm)
    n = reindex.size_of(flm)
    return (np.array(flat), np.array(twice), np.array(n)), None


def inverse_bwd(res, g):
    return g, None


inverse.defvjp(inverse_fwd, inverse_bwd)
""",
}


def test_a_helper_of_another_module_that_returns_an_array(tmp_path: Path) -> None:
    """The second pass reads one file: what reindex.flatten returns comes from the project index
    (its `-> jnp.ndarray`, or every `return` an array package's call). A helper returning a
    Python int stays unknown, so np.array of it is no transfer."""
    for name, text in HELPER_IN_ANOTHER_MODULE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = check_paths([tmp_path], Config(root=str(tmp_path)), jobs=1)
    found = sorted((Path(d.filename).name, d.location.row, d.location.column, d.code) for d in result.diagnostics)
    assert found == [("transforms.py", 16, 13, "SL105"), ("transforms.py", 16, 29, "SL105")]


MASK_THROUGH_A_VIEW = '''\
import torch


def _roll_last(X, dim):
    return X.transpose(dim, -1)


class Sparsemax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, k, dim=-1):
        support_size = (X > 0).sum(dim=dim).unsqueeze(dim)
        unsolved = (support_size == k).squeeze(dim)
        in_ = _roll_last(X, dim)[unsolved]
        scaled = (X * 2.0).squeeze(dim)[0]
        return in_, scaled
'''


def test_a_mask_stays_a_mask_through_views(tmp_path: Path) -> None:
    """(support == k).squeeze(dim) still holds booleans: indexing with it is a mask read; a view
    of a float array indexed with an int is no mask."""
    assert (13, "SL106") in _codes(tmp_path, MASK_THROUGH_A_VIEW)
    assert (14, "SL106") not in _codes(tmp_path, MASK_THROUGH_A_VIEW)


CSR_OFFSETS = '''\
import torch


def attention_fwd(kx: torch.Tensor, col_idx: torch.Tensor, row_off: torch.Tensor, nlat_out: int) -> torch.Tensor:
    y = torch.zeros_like(kx)
    for ho in range(nlat_out):
        zstart = row_off[ho]
        zend = row_off[ho + 1]
        for idz in range(zstart, zend):
            y[ho] += kx[col_idx[idz]]
    return y


torch.library.register_autograd("ns::attention", attention_fwd)
'''


def test_offsets_read_for_a_range_are_elements(tmp_path: Path) -> None:
    """row_off[ho] bound to zstart and used as a range() bound: only one element can be one."""
    codes = _codes(tmp_path, CSR_OFFSETS)
    assert {(7, "SL101"), (8, "SL101"), (9, "SL105")} <= set(codes)  # and range() of them syncs


AUGMENTED_ARRAY = '''\
import torch


class FirstSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, spk):
        first = torch.zeros_like(spk[0])
        first += spk[0]
        first -= 1
        ctx.save_for_backward(first, spk)
        return first

    @staticmethod
    def backward(ctx, grad_output):
        first, spk = ctx.saved_tensors
        grad = torch.zeros_like(spk)
        for i in range(first.size(0)):
            for j in range(first.size(1)):
                grad[first[i, j].long(), i, j] = 1.0
        return grad
'''


def test_an_augmented_assignment_keeps_an_array_an_array(tmp_path: Path) -> None:
    """first -= 1 leaves an array (not the host int on its right); saved, its elements are
    read one by one in the backward."""
    assert (19, "SL101") in _codes(tmp_path, AUGMENTED_ARRAY)


CUSTOM_OP_KERNEL = '''\
import torch


@torch.library.custom_op("ns::gather_rows", mutates_args=())
def gather_rows(kx: torch.Tensor, col_idx: torch.Tensor, nlon: int) -> torch.Tensor:
    out = torch.zeros_like(kx)
    for idz in range(col_idx.shape[0]):
        nz = col_idx[idz]
        hi = nz // nlon
        wi = nz - hi * nlon
        out[:, hi, wi] = kx[:, hi, wi]
    return out
'''


def test_a_custom_op_body_and_index_arithmetic(tmp_path: Path) -> None:
    """The Python body of a torch.library.custom_op is checked; nz = col_idx[idz] is one element
    because index arithmetic on it (hi = nz // nlon) ends as an index."""
    codes = _codes(tmp_path, CUSTOM_OP_KERNEL)
    assert (8, "SL101") in codes and (7, "SL104") in codes


ELEMENT_AS_A_SIZE = CSR_OFFSETS.replace(
    "        for idz in range(zstart, zend):\n",
    "        scratch = torch.zeros((kx.shape[0], zend - zstart))\n        for idz in range(zstart, zend):\n",
)


def test_an_element_as_an_allocation_size(tmp_path: Path) -> None:
    """torch.zeros((b, zend - zstart)) with zstart, zend read from an offsets array: the size
    must reach the host before allocating."""
    codes = _codes(tmp_path, ELEMENT_AS_A_SIZE)
    assert (9, "SL105") in codes
    assert (5, "SL105") not in codes  # torch.zeros_like(kx): no size to read


ELEMENT_AS_AN_INDEX = '''\
{imports}

class Attention(torch.autograd.Function):
    @staticmethod
    def backward(ctx, dy):
        col_idx, kx, w = ctx.saved_tensors
        out = torch.zeros_like(kx)
        for idz in range(col_idx.shape[0]):
            hi = col_idx[idz] // 4
            out[:, hi] += kx[:, hi] * dy
        best = torch.argmax(w)
        return out * w[best]
'''


def test_an_element_as_an_index_in_torch(tmp_path: Path) -> None:
    """torch reads a 0-d integer index back with .item() (a sync per access); each access that
    uses the element hi is reported. An argmax result as index is left to SL107's opt-in tier."""
    codes = _codes(tmp_path, ELEMENT_AS_AN_INDEX.format(imports="import torch"))
    assert codes.count((10, "SL105")) == 2
    assert (12, "SL105") not in codes


def test_an_element_as_an_index_in_jax_is_a_gather(tmp_path: Path) -> None:
    """The same code against a namespace whose indexing gathers on the device: no SL105."""
    codes = _codes(tmp_path, ELEMENT_AS_AN_INDEX.format(imports="import jax.numpy as torch\nimport jax"))
    assert (11, "SL105") not in codes and (9, "SL101") in codes or (10, "SL101") in codes


CASTS_AND_ANNOTATIONS = '''\
import torch

class Spikes(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, threshold: float):
        t = torch.sigmoid(threshold).item()
        return x * t

    @staticmethod
    def backward(ctx, g):
        first, = ctx.saved_tensors
        out = torch.zeros_like(g)
        for i in range(first.shape[0]):
            out[
                first[i].long(), i
            ] = 1.0
        return out, None
'''


def test_a_cast_element_as_an_index_and_a_torch_function_of_an_annotated_float(tmp_path: Path) -> None:
    """first[i].long() is still one element (torch casts keep it on the device), reported on its
    own line of a subscript written over several; torch.sigmoid() returns a tensor whatever the
    parameter's annotation says, so its .item() is a host copy."""
    codes = _codes(tmp_path, CASTS_AND_ANNOTATIONS)
    assert (6, "SL105") in codes
    assert (15, "SL105") in codes and (15, "SL101") in codes
    assert (14, "SL105") not in codes


JAX_PRIMITIVE = '''\
import numpy as np
import jax.numpy as jnp
from jax.extend.core import Primitive
from jax.interpreters import ad
import healpy


def _map2alm_impl(f: jnp.ndarray, L: int):
    return jnp.array(healpy.map2alm(np.array(f), lmax=L - 1))


def _map2alm_transpose(dflm: jnp.ndarray, L: int):
    return (jnp.conj(dflm) * dflm.ravel()[0],)


_p = Primitive("map2alm")
_p.def_impl(_map2alm_impl)
ad.deflinear(_p, _map2alm_transpose)
'''


def test_a_jax_primitive_impl_and_transpose_are_checked(tmp_path: Path) -> None:
    """p.def_impl(impl) and ad.deflinear(p, transpose) register a custom primitive's forward and
    its transpose rule; without them neither function is reached."""
    codes = _codes(tmp_path, JAX_PRIMITIVE)
    assert (9, "SL105") in codes  # np.array(f): a host copy of the primitive's operand
    assert (13, "SL101") in codes
    unregistered = tmp_path / "unregistered"
    unregistered.mkdir()
    assert _codes(unregistered, JAX_PRIMITIVE.replace("_p.def_impl(_map2alm_impl)\nad.deflinear(_p, _map2alm_transpose)\n", "")) == []


VJP_MAKER = '''\
import numpy as np


def vjp_maker_num(fn, step):
    def vjp_maker(fn_out, *args):
        num_p = args[0].size

        def vjp(v):
            out = np.zeros(num_p)
            for ip in range(num_p):
                flat = args[0].flatten()
                flat[ip] += step
                out[ip] = np.sum(v * (fn(flat) - fn_out)) / step
            return out

        return vjp

    return vjp_maker


def grad_concat(argnum, ans, operands_, kwargs):
    def vjp(g):
        return list(operands_)[argnum] * g

    return vjp


defvjp_argnum(np.concatenate, grad_concat)
'''


def test_a_returned_vjp_closure_and_its_maker_are_rules(tmp_path: Path) -> None:
    """A maker that returns its gradient closure (HIPS autograd's style, a numerical vjp) makes
    both a rule, whatever the maker is called; a maker passed to defvjp_argnum keeps what the
    registration says of its parameters (operands_ is a tuple there)."""
    codes = _codes(tmp_path, VJP_MAKER)
    assert (10, "SL104") in codes and (12, "SL102") in codes and (13, "SL102") in codes
    assert not [c for c in codes if c[0] >= 20]


CLASS_DISPATCH = '''\
import numpy as np


class ReLU:
    def grad(self, x):
        out = np.ones_like(x)
        for i in range(x.shape[0]):
            if x[i] < 0:
                out[i] = 0.0
        return out


class Dense:
    def __init__(self, act_fn):
        self.act_fn = make_activation(act_fn)

    def forward(self, x):
        self.z = x
        return x

    def backward(self, dy):
        return dy * self.act_fn.grad(self.z)
'''

VMAPPED_INTS = '''\
import functools
import jax
import jax.numpy as jnp


def prox(z: jnp.ndarray, k: int):
    @functools.partial(jax.vmap, in_axes=[0, None])
    def inner(r: int, z: jnp.ndarray):
        (first,), = jnp.nonzero(z > r, size=1)
        return z[r] + z[first]

    return inner(jnp.arange(k), z)


@jax.custom_vjp
def f(z):
    return prox(z, 3)
'''


def test_a_method_reached_through_an_untyped_receiver_and_vmapped_ints(tmp_path: Path) -> None:
    """self.act_fn.grad(...) with act_fn built by a factory reaches the classes' grad methods;
    an int parameter of a vmapped function is a tracer (z[r] gathers); nonzero with size= has
    a fixed shape. The NumPy classes sit in a module of their own: beside an import of JAX,
    NumPy is the host and a helper handing its parameter to it holds host data."""
    codes = _codes(tmp_path, CLASS_DISPATCH)
    assert (7, "SL104") in codes and (8, "SL101") in codes
    assert _codes(tmp_path, VMAPPED_INTS, name="vmapped.py") == codes  # nothing in vmapped.py


UNPACKED_ROWS = '''\
import math
import torch


class SoftDTW(torch.autograd.Function):
    @staticmethod
    def backward(ctx, grad_output):
        D, R, lengths = ctx.saved_tensors
        for b, (m, n) in enumerate(lengths):
            R[b, :, n + 1] = -math.inf
        return grad_output * D
'''


def test_a_row_unpacked_in_a_loop_gives_elements(tmp_path: Path) -> None:
    """for b, (m, n) in enumerate(lengths): m and n are elements (0-d tensors) even though a
    name like ``lengths`` suggests a vector; as a torch index each is read back to the host."""
    codes = _codes(tmp_path, UNPACKED_ROWS)
    assert (10, "SL105") in codes


def test_an_element_index_in_torch_still_picks_one_element(tmp_path: Path) -> None:
    """R[b, m + 1, n + 1] = R[b, m, n] with m, n elements: torch reads each index back to a
    host int, so the access is one element (SL101/SL102) and each index a host read (SL105)."""
    codes = _codes(tmp_path, UNPACKED_ROWS.replace(
        "            R[b, :, n + 1] = -math.inf\n",
        "            R[b, :, n + 1] = -math.inf\n            R[b, m + 1, n + 1] = R[b, m, n]\n",
    ))
    assert (11, "SL102") in codes and (11, "SL101") in codes and (11, "SL105") in codes


NUMPY_BOOKKEEPING = '''\
import numpy
import torch


def _cnt_to_dsp(cnt):
    return [0] + numpy.cumsum(cnt)[:-1].tolist()


class AllToAll(torch.autograd.Function):
    @staticmethod
    def backward(ctx, grad):
        offsets = _cnt_to_dsp(ctx.meta["lens"])
        return grad * len(offsets), grad.tolist()
'''


def test_tolist_of_an_explicit_numpy_call_is_host_bookkeeping(tmp_path: Path) -> None:
    """numpy.cumsum(cnt)[:-1].tolist() in a helper: code that names numpy itself computes host
    counts; the rule's own grad.tolist() is still a host copy."""
    codes = _codes(tmp_path, NUMPY_BOOKKEEPING)
    assert (6, "SL105") not in codes and (13, "SL105") in codes


NODE_HOOK = '''\
import numpy as np


def xp(device):
    import cupy
    return cupy if device == "gpu" else np


def max_pool(x, argmax, n, device="cpu"):
    xpv = xp(device)
    out = Node(xpv.zeros((n, n)))

    def backward():
        dx = xpv.zeros_like(x)
        for b in range(n):
            for c in range(n):
                dx[b, c] += argmax[b, c] * out.grad[b, c]
        x.grad = dx

    out._backward = backward
    return out
'''


def test_a_closure_stored_as_a_nodes_gradient_is_a_rule(tmp_path: Path) -> None:
    """out._backward = backward (micrograd-style engines) makes the closure a rule whatever it
    is called; xp(device) is a project's own NumPy/CuPy chooser, so xpv is an array module."""
    codes = _codes(tmp_path, NODE_HOOK)
    assert (17, "SL102") in codes
    unhooked = tmp_path / "unhooked"
    unhooked.mkdir()
    assert _codes(unhooked, NODE_HOOK.replace("    out._backward = backward\n", "")) == []


def test_moving_a_tensor_to_the_cpu_is_a_host_copy(tmp_path: Path) -> None:
    """x.to("cpu"), x.to(device=torch.device("cpu")) inside a rule copy to the host; .to("cuda")
    does not."""
    text = (
        "import torch\n\n\nclass Offload(torch.autograd.Function):\n    @staticmethod\n"
        "    def forward(ctx, *args):\n"
        "        kept = tuple(x.to(\"cpu\", non_blocking=True) for x in split(args))\n"
        "        y = args[0].to(device=torch.device(\"cpu\"))\n"
        "        z = args[0].to(\"cuda\")\n"
        "        return y, z, kept\n"
    )
    codes = _codes(tmp_path, text)
    assert (7, "SL105") in codes and (8, "SL105") in codes and (9, "SL105") not in codes


MASKS_BY_COMPARISON = '''\
import numpy as np
import tensorflow as tf
import torch


class Sigmoid(Function):
    def forward(self, x):
        s = self.xp.zeros(x.shape)
        out = np.zeros_like(self.w)
        out[x.data > 0] = 1.0 / (1.0 + np.exp(-x.data[x.data > 0]))
        return out

    def backward(self, dy):
        return dy


class Spikes(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        return z.to_sparse()

    @staticmethod
    def backward(ctx, g):
        return g


@tf.custom_gradient
def expectation(programs):
    def _host(values):
        return values.numpy()

    out = tf.py_function(func=_host, inp=[programs], Tout=tf.float32)

    def grad(dy):
        return dy

    return out, grad
'''


def test_comparison_masks_to_sparse_and_a_py_function_body(tmp_path: Path) -> None:
    """out[x.data > 0] on a device array and x.data[x.data > 0] select by mask even where the
    compared values cannot be typed; z.to_sparse() counts its nonzeros on the device; a function
    handed to tf.py_function(func=...) runs inside the rule and is checked."""
    codes = _codes(tmp_path, MASKS_BY_COMPARISON)
    assert codes.count((10, "SL106")) == 2
    assert (20, "SL106") in codes
    assert (30, "SL105") in codes


JAX_AT_UPDATES = '''\
import jax
import jax.numpy as jnp


@jax.custom_vjp
def f(x):
    return x


def f_fwd(x):
    return x, x


def f_bwd(res, g):
    out = jnp.zeros((4,))
    out = out.at[0].set(g.sum())
    for i in range(out.shape[0]):
        out = out.at[i].add(1.0)
    out = out.at[jnp.arange(4)].set(0.0)
    return (out,)


f.defvjp(f_fwd, f_bwd)
'''


def test_jax_at_updates_of_one_element(tmp_path: Path) -> None:
    """x.at[0].set(v) writes one element of a rank-1 array (a scatter per call, per trip in a
    loop); .at[idx_array] is a vectorized scatter."""
    codes = _codes(tmp_path, JAX_AT_UPDATES)
    assert (16, "SL102") in codes and (18, "SL102") in codes and (17, "SL104") in codes
    assert (19, "SL102") not in codes


DISPATCH_TABLE_AND_HOST_ROWS = '''\
import mxnet as mx
import numpy as np
import torch


def rk4(times, y0):
    out = torch.zeros_like(times)
    for i in range(len(times) - 1):
        out[i] = times[i + 1] - times[i]
    return out


class SolveIVP(torch.autograd.Function):
    @staticmethod
    def forward(ctx, ts, y0, method):
        methods = {"rk4": rk4}
        label = y0.long()
        index = torch.where(label != -1)[0]
        return methods[method](ts, y0)[index]


class Ohem(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        labels_raw = in_data[1].asnumpy()
        for b in range(labels_raw.shape[0]):
            labels = labels_raw[b]
            fg = np.where(labels > 0)[0]
        self.assign(out_data[0], req[0], mx.nd.array(fg))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        pass
'''


def test_a_dispatch_table_a_one_argument_where_and_rows_of_a_host_copy(tmp_path: Path) -> None:
    """methods = {"rk4": rk4} in a rule reaches rk4; torch.where(m)[0] is the index array, not
    one element; rows of labels_raw = x.asnumpy() are host data (no SL106 on np.where)."""
    codes = _codes(tmp_path, DISPATCH_TABLE_AND_HOST_ROWS)
    assert (8, "SL104") in codes and (9, "SL102") in codes
    assert (18, "SL101") not in codes and (18, "SL106") in codes
    assert (24, "SL105") in codes and (27, "SL106") not in codes


AUTOGRAD_PRIMITIVE = '''\
import numpy as np
from autograd.extend import defvjp, primitive


def _coefficients(x, y):
    n = len(x) - 1
    b = np.zeros(n)
    b[0] = y[0]
    return b


@primitive
def spline(x, y):
    return _coefficients(x, y)


def spline_vjp(ans, x, y):
    return lambda g: g


defvjp(spline, None, spline_vjp)
'''


def test_an_autograd_primitive_is_a_forward_and_its_helpers_are_reached(tmp_path: Path) -> None:
    """defvjp(spline, ...) gives spline its own rule: spline runs on the rule's inputs, so it and
    the helpers it calls are checked."""
    codes = _codes(tmp_path, AUTOGRAD_PRIMITIVE)
    assert (8, "SL102") in codes


SOLVER_OBJECT = '''\
import torch


class Stepper:
    def setup(self, ts, y0):
        self.ts = -ts
        direction = ts[1] - ts[0]
        if direction < 0:
            self.ts = ts


def run(ts, y0, cls):
    solver = cls()
    solver.setup(ts, y0)


class Solve(torch.autograd.Function):
    @staticmethod
    def forward(ctx, ts, y0):
        run(ts, y0, Stepper)
        return y0
'''


def test_a_method_of_an_object_a_parameter_built_is_reached(tmp_path: Path) -> None:
    """solver = cls(); solver.setup(ts): the class comes in as a parameter, so only the method's
    name says what runs. ``ts`` is negated, so it is one array (not a list of arrays), and the
    difference of two of its values is tested by an ``if``: both are elements."""
    codes = _codes(tmp_path, SOLVER_OBJECT)
    assert codes.count((7, "SL101")) == 2


def test_a_plural_name_is_a_list_of_arrays_unless_used_as_one(tmp_path: Path) -> None:
    """The same code without the negation: ``ts`` may be a list of arrays (thinc's ``Xs``), and
    ``ts[1] - ts[0]`` a difference of two of them."""
    codes = _codes(tmp_path, SOLVER_OBJECT.replace("self.ts = -ts", "self.ts = ts"))
    assert (7, "SL101") not in codes


KEYWORD_FIELD = '''\
import jax
from collections import namedtuple

Ops = namedtuple("Ops", ["boundary"])


def _endpoint_term(interval):
    span = interval[-1] - interval[0]
    if span < 0:
        return -interval
    return interval


OPS = Ops(boundary=_endpoint_term)


@jax.custom_jvp
def integrate(interval, ops):
    return interval


@integrate.defjvp
def integrate_jvp(primals, tangents):
    interval, ops = primals
    reversed_order = interval[0] > interval[-1]
    if reversed_order:
        interval = interval[::-1]
    return ops.boundary(interval), tangents[0]
'''


def test_a_function_handed_over_under_a_keyword_is_reached(tmp_path: Path) -> None:
    """Ops(boundary=_endpoint_term) then ops.boundary(...) in a rule runs _endpoint_term, whose
    parameter is only probably an array: the difference of two of its values, tested by an
    ``if``, says both are elements (strings and lists have no ``-``)."""
    codes = _codes(tmp_path, KEYWORD_FIELD)
    assert codes.count((8, "SL101")) == 2


def test_a_comparison_kept_under_a_name_and_tested_reads_elements(tmp_path: Path) -> None:
    """reversed_order = interval[0] > interval[-1]; if reversed_order: only one element can be
    the test of an ``if``, so both sides are elements of the rule's input."""
    codes = _codes(tmp_path, KEYWORD_FIELD)
    assert codes.count((25, "SL101")) == 2 and (26, "SL105") in codes
    assert (8, "SL101") not in _codes(tmp_path, KEYWORD_FIELD.replace("ops.boundary(interval)", "ops.other(interval)"))


STORED_INTO_ELEMENT = '''\
import numpy as np


def rrule_spline(x, y):
    n = len(x) - 1
    h = np.diff(x)
    b = np.zeros(n)
    b[0] = (y[1] - y[0]) / h[0]
    rows = np.zeros((n, n))
    rows[0] = h[0]

    def spline_pullback(db):
        return db, db
    return b, spline_pullback
'''


def test_what_is_stored_into_one_element_is_one_element(tmp_path: Path) -> None:
    """b[0] = (y[1] - y[0]) / h[0] with b of rank 1: each value on the right is one element,
    whatever the rank of y and h; stored into a row (rows[0] = h[0]) it says nothing."""
    codes = _codes(tmp_path, STORED_INTO_ELEMENT)
    assert codes.count((8, "SL101")) == 3 and (8, "SL102") in codes
    assert (10, "SL101") not in codes


HOST_ROWS_IN_A_DEVICE_MODULE = '''\
import mxnet as mx
import numpy as np
from boxes import bbox_overlaps


def _sample(proposals, gt_boxes, thresh):
    overlaps = bbox_overlaps(proposals, gt_boxes)
    fg = np.where(overlaps.max(axis=1) >= thresh)[0]
    return fg


class Target(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        proposals = in_data[0].asnumpy()
        fg = _sample(proposals, in_data[1].asnumpy(), 0.5)
        self.assign(out_data[0], req[0], mx.nd.array(fg))
'''


def test_numpy_in_a_module_written_for_one_device_framework_has_host_shapes(tmp_path: Path) -> None:
    """np.where in a module that imports MXNet (and no generic namespace) runs on host data:
    the size of its result costs no device sync (the .asnumpy() is reported)."""
    codes = _codes(tmp_path, HOST_ROWS_IN_A_DEVICE_MODULE)
    assert (8, "SL106") not in codes and (14, "SL105") in codes
    generic = HOST_ROWS_IN_A_DEVICE_MODULE.replace("import numpy as np\n", "import numpy as np\nxp = np\n")
    assert (9, "SL106") in _codes(tmp_path, generic)


PYTHON_MAX_OF_AN_ELEMENT = '''\
import numpy as np
from chainer import function


class ROIAlign(function.Function):
    def forward_cpu(self, inputs):
        data, rois = inputs
        out = np.zeros(len(rois))
        for n in range(len(rois)):
            start = rois[n, 1] * 0.5
            end = rois[n, 3] * 0.5
            width = max(end - start, 1.0)
            out[n] = width
        return (out,)

    def backward(self, inputs, grads):
        return grads
'''


def test_python_max_of_an_element_compares_on_the_host(tmp_path: Path) -> None:
    """max(end - start, 1.0) with device elements: Python compares, so the value syncs."""
    codes = _codes(tmp_path, PYTHON_MAX_OF_AN_ELEMENT)
    assert (12, "SL105") in codes and (13, "SL102") in codes
    assert (12, "SL105") not in _codes(tmp_path, PYTHON_MAX_OF_AN_ELEMENT.replace("max(end - start, 1.0)", "np.maximum(end - start, 1.0)"))


TEXT_OF_A_TENSOR = '''\
import torch


class Eigh(torch.autograd.Function):
    @staticmethod
    def backward(ctx, grad_evals):
        evals, = ctx.saved_tensors
        if not torch.all(evals > 0):
            raise ValueError("degenerate: %s" % str(evals))
        print(grad_evals.shape)
        return grad_evals
'''


def test_the_text_of_a_tensor_is_written_on_the_host(tmp_path: Path) -> None:
    """str(evals) copies the tensor to the host to write its digits; printing a shape does not."""
    codes = _codes(tmp_path, TEXT_OF_A_TENSOR)
    assert (9, "SL105") in codes and (10, "SL105") not in codes


OVERRIDDEN_STEP = '''\
import numpy as np


class Function:
    def forward(self, x):
        return self.forward_(x)

    def backward(self, grad):
        return grad


class Sigmoid(Function):
    def forward_(self, x):
        out = np.zeros(x.shape, dtype=x.dtype)
        out[x > 0] = 1 / (1 + np.exp(-x[x > 0]))
        return out
'''


def test_a_base_method_reaches_the_overrides_it_calls(tmp_path: Path) -> None:
    """Function.forward calls self.forward_(x): what runs is the subclass's forward_, so it is
    checked (an own-base engine's operators)."""
    codes = _codes(tmp_path, OVERRIDDEN_STEP)
    assert (15, "SL106") in codes


ANNOTATED_HELPER = '''\
import numpy as np
from numpy.typing import NDArray


def _solve(lower: NDArray, diag: NDArray, rhs: NDArray) -> NDArray:
    n, _ = rhs.shape
    for i in range(1, n):
        rhs[i, :] -= lower[i] / diag[i - 1]
    return rhs


def rrule_tridiagonal(x):
    lower = np.zeros(len(x))
    diag = np.ones(len(x))
    y = _solve(lower, diag, np.zeros((len(x), 2)))

    def pullback(dy):
        return (dy,)
    return y, pullback
'''


def test_callers_tell_the_rank_an_array_annotation_leaves_open(tmp_path: Path) -> None:
    """``lower: NDArray`` says array, not rank: every caller passes a rank-1 array, so
    ``lower[i]`` is one element."""
    codes = _codes(tmp_path, ANNOTATED_HELPER)
    assert codes.count((8, "SL101")) == 2 and (8, "SL102") not in codes


def test_text_of_a_value_narrowed_to_a_host_scalar_is_left_alone(tmp_path: Path) -> None:
    """``if numpy.isscalar(value): return str(value)``: inside that test the value is host data."""
    text = TEXT_OF_A_TENSOR.replace(
        '            raise ValueError("degenerate: %s" % str(evals))',
        '            if numpy.isscalar(evals):\n                raise ValueError("degenerate: %s" % str(evals))',
    ).replace("import torch\n", "import numpy\nimport torch\n")
    codes = _codes(tmp_path, text)
    assert (11, "SL105") not in codes and (10, "SL105") not in codes


LOOP_NEST_OVER_A_SHAPE = '''\
import numpy as np


class LayerBase:
    def forward(self, z): ...
    def backward(self, out): ...


class Conv2D(LayerBase):
    def backward(self, dLdy):
        for dy in dLdy:
            n_ex, out_rows, out_cols, out_ch = dy.shape
            dZ = self.act_fn.grad(dy)
            for m in range(n_ex):
                for i in range(out_rows):
                    for j in range(out_cols):
                        for c in range(out_ch):
                            kernel = dZ[m, i, j, c]
                            self.db[c] += kernel
'''


def test_three_or_more_loop_indices_pick_one_element(tmp_path: Path) -> None:
    """dZ[m, i, j, c] inside a loop nest over a shape: three or more host ints walking the
    dimensions pick one element even where dZ cannot be typed; two may pick a row."""
    config_text = LOOP_NEST_OVER_A_SHAPE
    codes = _codes(tmp_path, config_text)
    assert (18, "SL101") in codes
    assert (18, "SL101") not in _codes(tmp_path, config_text.replace("dZ[m, i, j, c]", "dZ[m, i]"))


WHILE_OVER_A_GRID = '''\
import numpy
from chainer import function


class ROIAlign(function.Function):
    def __init__(self, sampling_ratio=0):
        self.sampling_ratio = sampling_ratio

    def forward_cpu(self, inputs):
        data, rois = inputs
        out = numpy.zeros(len(rois))
        for n in range(len(rois)):
            height = rois[n, 3] - rois[n, 1]
            if self.sampling_ratio > 0:
                grid = self.sampling_ratio
            else:
                grid = numpy.ceil(height / 2)
            iy = 0
            while iy < grid:
                out[n] += data[0, 0, iy, n]
                iy += 1
        return (out,)

    def backward(self, inputs, grads):
        return grads
'''


def test_a_while_loop_counting_up_to_an_element_of_the_data(tmp_path: Path) -> None:
    """while iy < grid with grid an element of the rois on one branch: the test syncs (SL105),
    and the loop runs once per step of the data with element accesses (SL104)."""
    codes = _codes(tmp_path, WHILE_OVER_A_GRID)
    assert (19, "SL104") in codes and (19, "SL105") in codes
    fixed = WHILE_OVER_A_GRID.replace("grid = numpy.ceil(height / 2)", "grid = 4")
    assert (19, "SL104") not in _codes(tmp_path, fixed) and (19, "SL105") not in _codes(tmp_path, fixed)


def test_int_of_a_name_that_holds_an_element_on_some_path(tmp_path: Path) -> None:
    """y = start + step (elements), then ``if y <= 0: y = 0``, then int(y): on the path that
    keeps the element, int() waits for the device."""
    text = WHILE_OVER_A_GRID.replace(
        "                out[n] += data[0, 0, iy, n]\n",
        "                y = rois[n, 1] + iy\n                if y <= 0:\n                    y = 0\n                out[n] += int(y)\n",
    )
    codes = _codes(tmp_path, text)
    assert (23, "SL105") in codes
    assert (23, "SL105") not in _codes(tmp_path, text.replace("y = rois[n, 1] + iy", "y = iy"))


INDEXED_DEEPER = '''\
import torch


class Dynamics(torch.autograd.Function):
    @staticmethod
    def forward(ctx, output, reference):
        for i in range(output.shape[1]):
            if torch.norm(output[0, i] - reference[0, i]) > 1e-6:
                print(output[0, i, :50])
        return output
'''


def test_a_name_indexed_on_more_axes_elsewhere_gives_rows(tmp_path: Path) -> None:
    """output[0, i] beside output[0, i, :50]: output has three axes or more, so two ints pick a
    row; reference, indexed nowhere deeper, may have two, so reference[0, i] stays an element."""
    codes = _codes(tmp_path, INDEXED_DEEPER)
    assert codes.count((8, "SL101")) == 1


NUMPY_FUNCTION_IN_A_GRADIENT = '''\
import numpy as np
import tensorflow as tf


def _gate(r, cutoff):
    return np.eye(cutoff) * r


@tf.custom_gradient
def gate(r, cutoff):
    out = tf.numpy_function(_gate, [r, cutoff], tf.complex128)

    def grad(dy):
        return dy, None
    return out, grad
'''


def test_numpy_function_in_a_tensorflow_rule_copies_to_the_host(tmp_path: Path) -> None:
    """tf.numpy_function runs Python on host copies of its tensor arguments: a sync each call."""
    codes = _codes(tmp_path, NUMPY_FUNCTION_IN_A_GRADIENT)
    assert (11, "SL105") in codes
