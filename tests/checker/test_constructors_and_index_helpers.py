"""Code ported from C or CUDA: a rule builds a workspace object (its ``__init__`` and the
methods it calls are the rule's helpers), computes flat offsets with a small index helper
(``idx(t, u) -> t * U + u``, often a class with ``__call__``) and loops over counts read from
the device (``range(T - 1, -1, -1)``)."""

from __future__ import annotations

from pathlib import Path

from scalarlint.config import Config
from scalarlint.engine import check_paths


def _findings(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    (tmp_path / "mod.py").write_text(text, encoding="utf-8")
    result = check_paths([tmp_path], Config(root=str(tmp_path)), jobs=1)
    return sorted((d.location.row, d.code) for d in result.diagnostics)


WORKSPACE = '''\
import torch
from torch.autograd import Function


class Workspace:
    def __init__(self, n: int, log_probs: torch.Tensor):
        self.buf = torch.zeros(n)
        self.fill(n, log_probs)

    def fill(self, n: int, log_probs: torch.Tensor):
        for t in range(n):
            self.buf[t] = log_probs[t] * 2.0


class Loss(Function):
    @staticmethod
    def forward(ctx, acts):
        space = Workspace(4, acts)
        return space.buf

    @staticmethod
    def backward(ctx, g):
        return g
'''


def test_a_constructor_call_reaches_init_and_the_methods_it_calls(tmp_path: Path) -> None:
    """``Workspace(4, acts)`` in the forward runs ``__init__`` and ``fill``: the element
    write and read in ``fill`` are reported."""
    found = _findings(tmp_path, WORKSPACE)
    assert (12, "SL102") in found and (12, "SL101") in found


def test_an_unused_class_is_not_reached(tmp_path: Path) -> None:
    text = WORKSPACE.replace("space = Workspace(4, acts)\n        return space.buf", "return acts * 2")
    assert _findings(tmp_path, text) == []


INDEX_HELPER = '''\
import torch
from torch.autograd import Function


class Index:
    def __init__(self, width):
        self.width = width

    def __call__(self, t, u):
        return t * self.width + u


def flat(t, u, width):
    return t * width + u


def kernel(log_probs: torch.Tensor, out: torch.Tensor, idx: Index):
    for t in range(3):
        out[idx(t, 0)] = log_probs[flat(t, 1, 4)]


class Loss(Function):
    @staticmethod
    def forward(ctx, acts):
        out = torch.zeros(12)
        kernel(acts, out, Index(4))
        return out

    @staticmethod
    def backward(ctx, g):
        return g
'''


def test_an_index_helper_of_host_ints_is_a_host_int(tmp_path: Path) -> None:
    """``idx(t, 0)`` (an annotated ``Index`` instance's ``__call__``) and ``flat(t, 1, 4)``
    return integer arithmetic of their arguments: host ints in, one element out."""
    found = _findings(tmp_path, INDEX_HELPER)
    assert (19, "SL102") in found and (19, "SL101") in found


def test_a_helper_that_does_more_than_arithmetic_tells_nothing(tmp_path: Path) -> None:
    """``flat`` returning a slice object is no index helper: the read is not one element."""
    text = INDEX_HELPER.replace("return t * width + u", "return slice(t * width, t * width + u)")
    assert (19, "SL101") not in _findings(tmp_path, text)


COUNT_DOWN = '''\
import torch
from torch.autograd import Function


class Loss(Function):
    @staticmethod
    def forward(ctx, acts, lengths):
        for b in range(acts.shape[0]):
            T = lengths[b]
            for t in range(T - 1, -1, -1):
                pass
        return acts

    @staticmethod
    def backward(ctx, g):
        return g, None
'''


def test_a_count_read_from_the_device_in_range_arithmetic_is_a_sync(tmp_path: Path) -> None:
    assert (10, "SL105") in _findings(tmp_path, COUNT_DOWN)


def test_a_host_count_in_range_arithmetic_is_not(tmp_path: Path) -> None:
    text = COUNT_DOWN.replace("T = lengths[b]", "T = acts.shape[1]")
    assert (10, "SL105") not in _findings(tmp_path, text)


RULE_SETTINGS = '''\
import numpy as np
from chainer import function


class Pool(function.Function):
    def __init__(self, group_size, out_h):
        self.group_size = group_size
        self.out_h = out_h

    def forward_cpu(self, inputs):
        x, = inputs
        out = np.zeros((x.shape[0], self.out_h), dtype=x.dtype)
        for n in range(x.shape[0]):
            for ph in range(self.out_h):
                c = ph * self.group_size + 1
                out[n, ph] = x[n, c, 0, 0]
        return out,

    def backward_cpu(self, inputs, grad_outputs):
        return grad_outputs
'''


def test_what_a_rule_class_is_built_with_is_its_settings(tmp_path: Path) -> None:
    """``self.group_size`` comes from ``__init__`` of a class holding rules: a setting (a host
    number), so ``c = ph * self.group_size + 1`` is a host int and ``x[n, c, 0, 0]`` one element."""
    found = _findings(tmp_path, RULE_SETTINGS)
    assert (16, "SL101") in found and (16, "SL102") in found


def test_a_caller_that_hands_an_array_to_the_constructor_vouches_for_it(tmp_path: Path) -> None:
    """``Pool(mask, 3)`` built in a backward with a device array: ``group_size`` is what the
    caller hands (an array), so ``x[n, c, 0, 0]`` indexes with an array (a gather)."""
    text = RULE_SETTINGS.replace(
        "def backward_cpu(self, inputs, grad_outputs):\n        return grad_outputs",
        "def backward_cpu(self, inputs, grad_outputs):\n        mask = inputs[0] > 0\n        Pool(mask, 3)\n        return grad_outputs",
    )
    assert (16, "SL101") not in _findings(tmp_path, text)


ANNOTATED_COUNT = '''\
import torch
from torch.autograd import Function


def kernel(log_probs: torch.Tensor, T: int):
    for t in range(T):
        pass


class Loss(Function):
    @staticmethod
    def forward(ctx, acts, lengths):
        for b in range(acts.shape[0]):
            kernel(acts[b], lengths[b])
        return acts

    @staticmethod
    def backward(ctx, g):
        return g, None
'''


def test_an_int_annotation_does_not_hide_the_element_every_caller_hands(tmp_path: Path) -> None:
    """``T: int`` given ``lengths[b]`` (a 0-d tensor) by its only caller: Python never checks
    the annotation, so ``range(T)`` waits for the device (SL105 on line 6)."""
    assert (6, "SL105") in _findings(tmp_path, ANNOTATED_COUNT)


def test_an_int_annotation_holds_when_the_caller_hands_a_host_int(tmp_path: Path) -> None:
    text = ANNOTATED_COUNT.replace("kernel(acts[b], lengths[b])", "kernel(acts[b], int(acts.shape[1]))")
    assert (6, "SL105") not in _findings(tmp_path, text)
