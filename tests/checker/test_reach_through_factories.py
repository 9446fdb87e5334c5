"""Helpers a rule reaches through functions built by factories: ``_grad = _make_grad(torch)``
binds the nested function ``_make_grad`` returns (bare or through ``njit(...)(inner)``), in
another module too; a closure calls what its factory bound to a local name; a factory parameter
every telling caller passes an array module is that namespace; and a module-level alias of a
helper (``where = custom_where``) reached through ``np.where`` does not make a ``numpy.ndarray``
narrowed value device data."""

from __future__ import annotations

from pathlib import Path

from tree_samples import check_tree  # tests/checker is on sys.path

KERNELS = """\
import numpy
import torch


def njit(**options):
    return lambda f: f


def _make_grad(backend):
    def _grad_generic(d, r):
        out = backend.empty(d.shape)
        for i in range(d.shape[0]):
            out[i] = backend.exp(r[i] - d[i])
            if backend.isnan(out[i]):
                out[i] = 0
        return out
    if backend is numpy:
        return njit(nogil=True)(_grad_generic)
    return _grad_generic


def _make_mask(backend):
    band_ = _band_fast if backend is numpy else _band

    def _mask_generic(n):
        return band_(n)
    return _mask_generic


def _make_band(backend):
    def _band_generic(n):
        bounds = backend.arange(n) * 0.5
        mask = backend.zeros((n, n))
        for i in range(n):
            mask[int(bounds[i]), i] = 1
        return mask
    return _band_generic


_band_fast = _make_band(numpy)
_band = _make_band(torch)
_grad_fast = _make_grad(numpy)
_grad = _make_grad(torch)
_mask = _make_mask(torch)
"""

RULE = """\
import torch

from .kernels import _grad, _mask


class SoftAlign(torch.autograd.Function):
    @staticmethod
    def forward(ctx, d):
        m = _mask(d.shape[0])
        ctx.save_for_backward(d, m)
        return d * m

    @staticmethod
    def backward(ctx, g):
        d, m = ctx.saved_tensors
        return g * _grad(d, m)
"""




def _line(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), start=1) if fragment in line)


def test_the_function_a_factory_returns_is_a_helper_of_the_rule_that_calls_it(tmp_path: Path) -> None:
    found = check_tree(tmp_path, {"pkg/__init__.py": "", "pkg/kernels.py": KERNELS, "pkg/rule.py": RULE})
    kernels = {(row, code) for name, row, code in found if name == "kernels.py"}
    assert (_line(KERNELS, "for i in range(d.shape[0])"), "SL104") in kernels
    assert (_line(KERNELS, "out[i] = backend.exp(r[i] - d[i])"), "SL101") in kernels


def test_a_closure_calls_what_its_factory_bound_to_a_local_name(tmp_path: Path) -> None:
    found = check_tree(tmp_path, {"pkg/__init__.py": "", "pkg/kernels.py": KERNELS, "pkg/rule.py": RULE})
    assert ("kernels.py", _line(KERNELS, "mask[int(bounds[i]), i] = 1"), "SL105") in found


def test_without_the_rule_the_factories_products_are_not_checked(tmp_path: Path) -> None:
    found = check_tree(tmp_path, {"pkg/__init__.py": "", "pkg/kernels.py": KERNELS})
    assert found == []


WRAPPER = """\
import numpy as _np

_original_where = _np.where


def custom_where(condition, x, y):
    res = _original_where(condition, x, y)
    if isinstance(res, _np.ndarray):
        return res.tolist()
    return res


where = custom_where
"""

USER = """\
from . import wrapped as np


def grad_clip(ans, x):
    return lambda g: np.where(x > 0, g, 0.0)


defvjp(clip, grad_clip)
"""


def test_a_module_alias_is_followed_and_a_numpy_ndarray_test_narrows_to_host(tmp_path: Path) -> None:
    found = check_tree(tmp_path, {"pkg/__init__.py": "", "pkg/wrapped.py": WRAPPER, "pkg/user.py": USER})
    assert ("wrapped.py", _line(WRAPPER, "return res.tolist()"), "SL105") not in found
    cupy_wrapper = WRAPPER.replace("isinstance(res, _np.ndarray)", "isinstance(res, cupy.ndarray)").replace("import numpy as _np", "import cupy\nimport numpy as _np")
    found = check_tree(tmp_path, {"pkg/__init__.py": "", "pkg/wrapped.py": cupy_wrapper, "pkg/user.py": USER})
    assert ("wrapped.py", _line(cupy_wrapper, "return res.tolist()"), "SL105") in found
