"""A parameter annotated ``Union[List, Tensor]`` may be a tensor, so a rule's helper treats it
as device-capable (the policy for rule inputs); and a bwd's cotangent is JAX's array whatever
the fwd computed its primal with (``jnp.array(result)``, or a NumPy ``np.array(result)``: JAX
converts a custom_vjp's outputs and hands bwd its own array), so ``np.array(g)`` copies it to
the host, while ``np.array`` of a NumPy value the bwd made itself stays host data. Each case is
checked both ways."""

from __future__ import annotations

from pathlib import Path


from snippet_codes import snippet_codes  # tests/ is on the path through its conftest


_codes = snippet_codes


UNION_PARAMETER = '''\
from typing import List, Union
import torch


class Adjoint(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        x, t_span = ctx.saved_tensors
        return solve(x, t_span), None


def solve(x: torch.Tensor, t_span: {annotation}):
    if t_span[1] < t_span[0]:
        x = -x
    return x
'''


def test_a_union_with_a_tensor_member_is_device_capable(tmp_path: Path) -> None:
    codes = _codes(tmp_path, UNION_PARAMETER.format(annotation="Union[List, torch.Tensor]"))
    assert (13, "SL101") in codes


def test_a_union_without_an_array_member_says_nothing(tmp_path: Path) -> None:
    assert (13, "SL101") not in _codes(tmp_path, UNION_PARAMETER.format(annotation="Union[List, tuple]"))


HOST_OPERATOR = '''\
import jax
import numpy as np
import jax.numpy as jnp


def wrap(cls):
    def func_fwd(values):
        obj = cls(values)
        result = obj.compute()
        return {namespace}.array(result), obj.vjp

    def func_bwd(vjp, g):
        g = np.array(g)
        return (jnp.array(vjp(g)),)

    @jax.custom_vjp
    def func(values):
        return func_fwd(values)[0]

    func.defvjp(func_fwd, func_bwd)
    return func
'''


def test_jnp_array_of_a_host_result_is_device_data(tmp_path: Path) -> None:
    assert (13, "SL105") in _codes(tmp_path, HOST_OPERATOR.format(namespace="jnp"))


def test_a_cotangent_is_device_data_even_beside_a_numpy_primal(tmp_path: Path) -> None:
    assert (13, "SL105") in _codes(tmp_path, HOST_OPERATOR.format(namespace="np"))


def test_np_array_of_a_numpy_value_the_bwd_made_stays_host_data(tmp_path: Path) -> None:
    own = HOST_OPERATOR.format(namespace="np").replace("        g = np.array(g)\n", "        g = np.array(np.ones(3))\n")
    assert "np.array(np.ones(3))" in own
    assert (13, "SL105") not in _codes(tmp_path, own)
