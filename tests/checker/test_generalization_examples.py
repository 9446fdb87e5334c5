"""The examples of issue 27: each was reported as nothing before the detection work."""

from __future__ import annotations

from pathlib import Path

from scalarlint.config import Config
from scalarlint.engine import check_paths

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


def _codes(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    (tmp_path / "mod.py").write_text(text, encoding="utf-8")
    result = check_paths([tmp_path], Config(root=str(tmp_path)), jobs=1)
    return sorted((d.location.row, d.code) for d in result.diagnostics)


def test_a_demo_call_does_not_silence_the_rule(tmp_path: Path) -> None:
    assert _codes(tmp_path, DEMO_CALL) == [(6, "SL104"), (7, "SL101"), (7, "SL102")]


def test_paddle_and_mxnet_rules_are_found(tmp_path: Path) -> None:
    codes = _codes(tmp_path, OTHER_FRAMEWORKS)
    assert (10, "SL104") in codes and (11, "SL102") in codes and (11, "SL105") in codes
    assert (17, "SL105") in codes and (18, "SL105") in codes


def test_a_saved_setting_is_not_an_array(tmp_path: Path) -> None:
    assert _codes(tmp_path, SAVED_SHAPE) == []
