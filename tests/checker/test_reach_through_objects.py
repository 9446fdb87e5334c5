"""Helpers a rule reaches through objects and packages the first pass must see through: a
namespace subpackage (no ``__init__.py``), a method named like every optimizer's (``step``)
but pinned by the keywords of its call, a function handed over as ``partial(f, ...)``, and the
parts of a tuple another module's function returns, set on ``self`` in ``__init__``."""

from __future__ import annotations

from pathlib import Path

from tree_samples import check_tree  # tests/checker is on sys.path

from scalarlint.analysis.project import module_names


def test_a_folder_without_init_inside_a_package_is_a_namespace_subpackage(tmp_path: Path) -> None:
    for name in ("pkg/__init__.py", "pkg/solvers/ode.py", "src/tool.py", "pkg/solvers/deep/__init__.py", "pkg/solvers/deep/x.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    names = module_names([str(tmp_path / n) for n in ("pkg/solvers/ode.py", "src/tool.py", "pkg/solvers/deep/x.py")])
    assert names[str(tmp_path / "pkg/solvers/ode.py")] == ("pkg.solvers.ode", "pkg.solvers")
    assert names[str(tmp_path / "src/tool.py")] == ("tool", "")  # src/ is not inside a package: names start below it
    assert names[str(tmp_path / "pkg/solvers/deep/x.py")] == ("pkg.solvers.deep.x", "pkg.solvers.deep")


SOLVER_TREE = {
    "dyn/__init__.py": "",
    "dyn/solvers/_constants.py": """\
import torch


def construct_rk2(dtype):
    c = torch.tensor([0.5, 1.0], dtype=dtype)
    a = [torch.tensor([0.5], dtype=dtype)]
    b = torch.tensor([0.0, 1.0], dtype=dtype)
    return (c, a, b)


def settings():
    return (3, "fixed")
""",
    "dyn/solvers/ode.py": """\
import torch
from dyn.solvers._constants import construct_rk2, settings


class Midpoint:
    def __init__(self, dtype=torch.float32):
        self.tableau = construct_rk2(dtype)
        self.options = settings()

    def step(self, f, x, t, dt, k1=None):
        c, a, b = self.tableau
        order, mode = self.options
        k2 = f(t + c[0] * dt, x + dt * a[0][0] * k1)
        return x + dt * (b[0] * k1 + b[1] * k2) * order


class Optimizer:
    def step(self, closure=None):
        lr = self.lr
        return lr[0]
""",
    "dyn/odeint.py": """\
import torch


class Adjoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, solver):
        ctx.solver = solver
        return x

    @staticmethod
    def backward(ctx, g):
        return _integrate(g, ctx.solver), None


def _integrate(x, solver):
    return solver.step(None, x, 0.0, 0.1, k1=x)
""",
}


def test_keywords_pin_a_common_method_and_tuple_parts_come_from_another_module(tmp_path: Path) -> None:
    """``solver.step(..., k1=x)`` reaches the solvers' ``step`` (not the optimizer's, which takes
    no ``k1``); there ``c``, ``a[0]`` and ``b`` are rank-1 tensors built in another module and set
    in ``__init__``, so each literal index reads one element. ``settings()`` returns host values."""
    found = check_tree(tmp_path, SOLVER_TREE)
    assert found == [("ode.py", 13, "SL101"), ("ode.py", 13, "SL101"), ("ode.py", 14, "SL101"), ("ode.py", 14, "SL101")]


def test_a_returned_difference_of_two_tensors_is_a_tensor_part(tmp_path: Path) -> None:
    """``return (c, a, b - b_low)``: elementwise arithmetic of two rank-1 tensors the function
    built is a rank-1 tensor too, so ``err[1]`` in the caller's method reads one element (line
    12); a difference with a value the function did not build as an array stays unknown
    (``other[0]``), and ``c[0]``, ``a[0][0]`` read elements as before (line 14)."""
    tree = dict(SOLVER_TREE)
    tree["dyn/solvers/_constants.py"] = SOLVER_TREE["dyn/solvers/_constants.py"].replace(
        "    return (c, a, b)\n", "    b_low = torch.tensor([1.0, 0.0], dtype=dtype)\n    return (c, a, b - b_low, b - dtype)\n"
    )
    tree["dyn/solvers/ode.py"] = SOLVER_TREE["dyn/solvers/ode.py"].replace(
        "        c, a, b = self.tableau\n", "        c, a, err, other = self.tableau\n        x = x + err[1] * other[0]\n"
    ).replace("(b[0] * k1 + b[1] * k2)", "k2")
    assert check_tree(tmp_path, tree) == [("ode.py", 12, "SL101"), ("ode.py", 14, "SL101"), ("ode.py", 14, "SL101")]


def test_without_the_keyword_a_common_method_name_reaches_nothing(tmp_path: Path) -> None:
    tree = dict(SOLVER_TREE)
    tree["dyn/odeint.py"] = SOLVER_TREE["dyn/odeint.py"].replace("k1=x", "x")
    assert check_tree(tmp_path, tree) == []


QUADRATURE_TREE = {
    "quad/__init__.py": "",
    "quad/build.py": """\
import jax.numpy as jnp


def build_integrand(interval, *, scale):
    values = jnp.sin(interval) * scale
    return values, values.item()
""",
    "quad/ops.py": """\
from functools import partial
from typing import NamedTuple, Callable

import jax

from quad.build import build_integrand


class Ops(NamedTuple):
    build: Callable


OPS = Ops(build=partial(build_integrand, scale=2.0))


@jax.custom_jvp
def integrate(interval, ops=OPS):
    return ops.build(interval)[0].sum()


@integrate.defjvp
def integrate_jvp(primals, tangents):
    interval, ops = primals
    value, _ = ops.build(interval)
    return value.sum(), tangents[0].sum()
""",
}


def test_a_function_handed_over_through_partial_is_reached(tmp_path: Path) -> None:
    """``Ops(build=partial(build_integrand, ...))`` then ``ops.build(...)`` in a rule runs
    ``build_integrand``: its ``float(...)`` of a device value is a host copy."""
    found = check_tree(tmp_path, QUADRATURE_TREE)
    assert found == [("build.py", 6, "SL105")]


def _shooting_tree(members: int, family: bool) -> dict[str, str]:
    """``solver.root_solve(...)`` on a local receiver, with ``members`` classes defining
    ``root_solve``: derived from one base that declares it (``family``) or unrelated."""
    base = "ShootingSolver" if family else "object"
    classes = "".join(
        f"""

class Solver{k}({base}):
    def root_solve(self, x, t_span):
        dt = t_span[1] - t_span[0]
        return x * dt * {k}
"""
        for k in range(members)
    )
    return {
        "shoot/__init__.py": "",
        "shoot/solvers.py": f"""\
class ShootingSolver:
    def root_solve(self, x, t_span):
        raise NotImplementedError
{classes}""",
        "shoot/sensitivity.py": """\
import torch


class Shooting(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, t_span, solver):
        return solver.root_solve(x, t_span)

    @staticmethod
    def backward(ctx, g):
        return g, None, None
""",
    }


def test_a_method_overridden_across_one_class_family_is_reached_through_a_local_receiver(tmp_path: Path) -> None:
    """Five solvers deriving from the base that declares ``root_solve``: more candidates than a
    local receiver's name alone would vouch for (4), but one family's protocol, so every
    override is reached and its ``t_span[1] - t_span[0]`` reads two elements. The same five
    methods in unrelated classes are a coincidence of names and stay unreached."""
    found = check_tree(tmp_path / "family", _shooting_tree(5, family=True))
    assert found.count(("solvers.py", 8, "SL101")) == 2 and len([f for f in found if f[2] == "SL101"]) == 10
    assert check_tree(tmp_path / "unrelated", _shooting_tree(5, family=False)) == []
