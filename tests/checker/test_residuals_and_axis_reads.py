"""What a jax ``fwd`` hands its ``bwd`` decides what the ``bwd`` unpacks (a tuple the fwd wrote
out stays a tuple, also through ``partial(bwd, ...)``), a fwd whose primal is several outputs
gets a tuple cotangent, and reading ``q.shape[1]`` says ``q`` has two axes, so ``q[T]`` is a row.
Each case is checked both ways: the tuple or row is silent, the array or element still reported."""

from __future__ import annotations

from pathlib import Path


from snippet_codes import snippet_codes  # tests/ is on the path through its conftest


_codes = snippet_codes


RESIDUALS = '''\
from functools import partial
import jax
import jax.numpy as np


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def solve(fn, *args):
    return fn(*args)


def solve_fwd(fn, *args):
    out = fn(*args)
    X, U = out
    return out, (args, X)


def solve_bwd(helper, fn, fwd_residuals, g_all):
    args, X = fwd_residuals
    x0, _, cost_args = args[:3]
    gX, gU = g_all[:2]
    return (gX * x0,)


solve.defvjp(solve_fwd, partial(solve_bwd, None))


@jax.custom_vjp
def plain(x, y):
    return x


def plain_fwd(x, y):
    return x, (x, y)


def plain_bwd(res, g):
    args, X = res
    a, b = args[:2]
    return (g, g)


plain.defvjp(plain_fwd, plain_bwd)
'''


def test_a_residual_the_fwd_wrote_as_a_tuple_is_unpacked_as_one(tmp_path: Path) -> None:
    codes = _codes(tmp_path, RESIDUALS)
    assert (19, "SL104") not in codes  # args is the fwd's *args, reached through partial(bwd, ...)
    assert (20, "SL104") not in codes  # the fwd unpacks its primal into two outputs: g is a tuple


def test_a_residual_that_is_an_array_still_reports_the_unpacking(tmp_path: Path) -> None:
    assert (38, "SL104") in _codes(tmp_path, RESIDUALS)  # args is the fwd's array x


def test_without_the_fwd_the_cotangent_stays_an_array(tmp_path: Path) -> None:
    codes = _codes(tmp_path, RESIDUALS.replace("    X, U = out\n", "    X = out[0]\n    U = out[1]\n"))
    assert (21, "SL104") in codes


AXIS_READ = '''\
import jax
import jax.numpy as np


@jax.custom_vjp
def objective(q):
    return q


def objective_fwd(q):
    return q, (q,)


def objective_bwd(res, g):
    q, = res
    return (adjoint(q),)


def adjoint(q):
    {width}
    T = q.shape[0] - 1
    return np.vstack((q[:T], q[T] * 2))


objective.defvjp(objective_fwd, objective_bwd)
'''


def test_reading_the_second_axis_makes_an_index_on_the_first_a_row(tmp_path: Path) -> None:
    assert _codes(tmp_path, AXIS_READ.format(width="n = q.shape[1]")) == []
    assert _codes(tmp_path, AXIS_READ.format(width="n = q.shape[-2]")) == []


def test_without_the_axis_read_the_last_element_is_reported(tmp_path: Path) -> None:
    assert (22, "SL101") in _codes(tmp_path, AXIS_READ.format(width="n = q.shape[0]"))
