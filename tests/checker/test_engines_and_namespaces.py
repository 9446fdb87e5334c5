"""Own-base engines and project namespaces: the op that builds a micrograd-style node (and hooks
its gradient closure) is checked beside the closure, with its parameters left to their uses; a
namespace object imported under the array API's name (``from .settings import xp``) is a
namespace; ``xp.arange(n)`` is made on the device (unlike ``np.arange``, host bookkeeping in
generic code); and the transfer functions of each framework (``cuda.to_cpu``) take device data."""

from __future__ import annotations

from pathlib import Path

from scalarlint.config import Config
from scalarlint.engine import check_paths


def _findings(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    result = check_paths([tmp_path], Config(root=str(tmp_path)), jobs=1)
    return sorted((Path(d.filename).name, d.location.row, d.code) for d in result.diagnostics)


SETTINGS = '''\
import numpy as _backend


class BackendProxy:
    def __getattr__(self, name):
        return getattr(_backend, name)


xp = BackendProxy()
'''

ENGINE_OP = '''\
from pkg.settings import xp


class Node:
    def __init__(self, data):
        self.data = data
        self.grad = None
        self._backward = lambda: None


def shift(x, n, kernel_size):
    kh, kw = kernel_size
    y = xp.arange(n) * 2 - 1
    valid = (y >= 0) & (y < n)
    rows = xp.nonzero(valid)[0]
    out = Node(x.data[rows])

    def _backward():
        for i in range(kh):
            for j in range(kw):
                x.grad = x.grad + out.grad
        x.grad[y[valid]] += out.grad

    out._backward = _backward
    return out
'''


def test_the_op_building_a_node_is_checked_and_an_imported_xp_is_a_namespace(tmp_path: Path) -> None:
    """Line 15 is in the op (``shift``), line 22 in the closure: both are data-dependent
    shapes on the device (CuPy behind the proxy)."""
    found = _findings(tmp_path, {"pkg/__init__.py": "", "pkg/settings.py": SETTINGS, "pkg/ops.py": ENGINE_OP})
    assert found == [("ops.py", 15, "SL106"), ("ops.py", 22, "SL106")]


def test_the_builders_settings_are_no_device_values(tmp_path: Path) -> None:
    """``kh, kw = kernel_size`` of the op: settings, so ``range(kh)`` in the closure is no sync
    (a parameter of the op is not taken for an array, unlike a rule's input)."""
    found = _findings(tmp_path, {"pkg/__init__.py": "", "pkg/settings.py": SETTINGS, "pkg/ops.py": ENGINE_OP})
    assert not any(row in (19, 20) for _, row, _ in found)


def test_offsets_from_numpy_arange_stay_host_bookkeeping_and_from_xp_are_device(tmp_path: Path) -> None:
    """``np.arange(-2, 3)`` beside ``xp`` calls is an offset table chosen on purpose (host,
    its ``nonzero`` costs no sync); ``xp.arange(-2, 3)`` is made on the device."""
    on_host = ENGINE_OP.replace("y = xp.arange(n)", "y = np.arange(-2, 3)").replace("from pkg.settings import xp", "import numpy as np\nfrom pkg.settings import xp")
    found = _findings(tmp_path, {"pkg/__init__.py": "", "pkg/settings.py": SETTINGS, "pkg/ops.py": on_host})
    assert ("ops.py", 16, "SL106") not in found
    on_device = ENGINE_OP.replace("y = xp.arange(n)", "y = xp.arange(-2, 3)")
    found = _findings(tmp_path, {"pkg/__init__.py": "", "pkg/settings.py": SETTINGS, "pkg/ops.py": on_device})
    assert ("ops.py", 15, "SL106") in found


CHAINER_TO_CPU = '''\
from chainer import function_node
from chainer.backends import cuda


def _check(indices):
    indices = cuda.to_cpu(indices)
    return indices


class Pick(function_node.FunctionNode):
    def forward(self, inputs):
        x, idx = inputs
        _check(idx)
        host = cuda.to_cpu(x)
        return x * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs
'''


def test_chainer_to_cpu_is_a_whole_array_transfer(tmp_path: Path) -> None:
    """``cuda.to_cpu`` in the forward and in the helper it calls, even where the helper's
    parameter is named like an index tuple (``indices``)."""
    found = _findings(tmp_path, {"mod.py": CHAINER_TO_CPU})
    assert found == [("mod.py", 6, "SL105"), ("mod.py", 14, "SL105")]


def test_to_cpu_of_host_data_is_not_flagged(tmp_path: Path) -> None:
    text = CHAINER_TO_CPU.replace("host = cuda.to_cpu(x)", "host = cuda.to_cpu([1, 2, 3])")
    assert ("mod.py", 14, "SL105") not in _findings(tmp_path, {"mod.py": text})


STATIC_VALUE = '''\
import tensorflow as tf


@tf.custom_gradient
def gate(x):
    def grad(upstream):
        if tf.get_static_value(upstream) is not None:
            return upstream * 2.0
        return upstream
    return x, grad
'''


def test_tensorflow_get_static_value_is_a_host_copy(tmp_path: Path) -> None:
    assert ("mod.py", 7, "SL105") in _findings(tmp_path, {"mod.py": STATIC_VALUE})


WRAPPED_BY_CALL = '''\
import tensorflow as tf


def make_grad(x):
    def apply(upstream):
        return upstream * 2.0
    return apply


def make(x):
    def _with_value(x):
        scale = float(x[0])
        return x * scale, make_grad(x)
    wrapped = tf.custom_gradient(_with_value)
    return wrapped(x)
'''


def test_a_rule_decorator_applied_by_a_call_makes_a_rule(tmp_path: Path) -> None:
    """``tf.custom_gradient(_with_value)`` is ``@tf.custom_gradient`` written as a call (also
    through a project's own wrapper, ``connector.custom_gradient(f)``): its function is a rule,
    though the gradient it returns comes from a factory."""
    assert ("mod.py", 12, "SL105") in _findings(tmp_path, {"mod.py": WRAPPED_BY_CALL})
    unwrapped = WRAPPED_BY_CALL.replace("wrapped = tf.custom_gradient(_with_value)", "wrapped = _with_value")
    assert _findings(tmp_path, {"mod.py": unwrapped}) == []
