"""Conventions the inference takes where types run out: an index named a mask is an array of
booleans, and a comparison against the subscripted array (on either side) selects by mask. And
a regression case: a loop whose body calls ``.item()`` on ``x[i]`` is an element loop, and the
conversion is reported once."""

from __future__ import annotations

from pathlib import Path


from snippet_codes import snippet_codes  # tests/ is on the path through its conftest


_codes = snippet_codes


NAMED_MASKS = '''\
import torch


class Gate(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        x, valid_mask, idx = ctx.saved_tensors
        a = x[valid_mask]
        b = g[ctx.keep_mask]
        c = x[idx]
        masks = [0, 2]
        d = x[masks]
        return a + b + c + d
'''


def test_an_index_named_a_mask_selects_by_mask(tmp_path: Path) -> None:
    """``x[valid_mask]`` and ``g[ctx.keep_mask]`` are boolean-mask reads (SL106); an index
    called ``idx`` is an integer gather, and a list named ``masks`` is host data: neither."""
    found = _codes(tmp_path, NAMED_MASKS)
    assert (8, "SL106") in found and (9, "SL106") in found
    assert not [f for f in found if f[0] in (10, 12)]


COMPARED_ON_THE_RIGHT = '''\
import torch


def helper(x):
    return x * 2


class Check(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        y = helper(x)
        diff = y[x != y]
        same = y[y == x]
        return diff.sum() + same.sum()
'''


def test_a_comparison_with_the_subscripted_value_on_either_side_is_a_mask(tmp_path: Path) -> None:
    found = _codes(tmp_path, COMPARED_ON_THE_RIGHT)
    assert (13, "SL106") in found and (14, "SL106") in found


ITEM_IN_A_LOOP = '''\
import torch


class Offsets(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        (starts,) = ctx.saved_tensors
        total = 0
        for i in range(starts.shape[0]):
            total += starts[i].item()
        return g * total
'''


def test_item_of_an_element_in_a_loop_over_the_data_is_an_element_loop(tmp_path: Path) -> None:
    """``.item()`` accepts one element only, so ``starts[i]`` is one: the loop reads the array
    element by element (SL104), and the conversion is reported once (SL105)."""
    found = _codes(tmp_path, ITEM_IN_A_LOOP)
    assert (9, "SL104") in found and (10, "SL105") in found
