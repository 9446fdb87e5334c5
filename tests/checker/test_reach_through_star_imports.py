"""Gradients an own-base engine attaches by name: ``out.grad_fn = MaxPoolBackward`` in a forward
that got the function through ``from .grad_fn import *``. The forward is a rule's forward, the
function it attaches is reached as its helper (the engine calls it in the backward pass), and
star imports are followed like named ones, re-exports through a package's ``__init__`` too.
A name that is only a parameter of the builder (``self.backward = backward``) reaches nothing."""

from __future__ import annotations

from pathlib import Path

from tree_samples import check_tree  # tests/checker is on sys.path

GRAD_FN = """\
import numpy as np


def MaxPoolBackward(outputs):
    x = outputs.cache["x"]
    mask = x == outputs.eval
    dx = np.zeros_like(x)
    dx[mask] = outputs.grad[mask]
    return dx
"""

FUNCTIONAL = """\
from .grad_fn import *


def max_pool(x):
    out = Tensor(x.max(axis=-1, keepdims=True))
    out.cache["x"] = x
    out.grad_fn = MaxPoolBackward
    return out
"""

BY_PARAMETER = """\
class Node:
    def __init__(self, value, backward):
        self.value = value
        self.backward = backward
"""


def _line(text: str, fragment: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), start=1) if fragment in line)


def test_a_gradient_attached_by_name_through_a_star_import_is_checked(tmp_path: Path) -> None:
    found = check_tree(tmp_path, {"xs/__init__.py": "", "xs/grad_fn.py": GRAD_FN, "xs/functional.py": FUNCTIONAL})
    assert ("grad_fn.py", _line(GRAD_FN, "dx[mask] = outputs.grad[mask]"), "SL106") in found


def test_a_star_reexport_in_a_package_init_is_followed(tmp_path: Path) -> None:
    functional = FUNCTIONAL.replace("from .grad_fn import *", "from . import *")
    files = {"xs/__init__.py": "from .grad_fn import *\n", "xs/grad_fn.py": GRAD_FN, "xs/functional.py": functional}
    found = check_tree(tmp_path, files)
    assert ("grad_fn.py", _line(GRAD_FN, "dx[mask] = outputs.grad[mask]"), "SL106") in found


def test_without_the_attaching_forward_nothing_is_checked(tmp_path: Path) -> None:
    found = check_tree(tmp_path, {"xs/__init__.py": "", "xs/grad_fn.py": GRAD_FN})
    assert found == []


def test_a_parameter_stored_as_backward_makes_no_rule(tmp_path: Path) -> None:
    found = check_tree(tmp_path, {"xs/__init__.py": "", "xs/grad_fn.py": GRAD_FN, "xs/node.py": BY_PARAMETER})
    assert found == []
