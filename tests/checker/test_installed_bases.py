"""Base classes that live in installed packages are resolved through astroid (issue 27)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from scalarlint.analysis import installed_bases
from scalarlint.config import Config
from scalarlint.engine import check_paths

LIBRARY = {
    "somelib/__init__.py": "from somelib._impl import MyFunction\n",
    "somelib/_impl.py": "import torch\n\n\nclass MyFunction(torch.autograd.Function):\n    pass\n",
}
RULE = '''\
import torch
from somelib import MyFunction


class Norm(MyFunction):
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        out = torch.zeros_like(x)
        for i in range(len(x)):
            out[i] = g * x[i]
        return out
'''


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    for name, text in LIBRARY.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    installed_bases._ancestors.cache_clear()
    yield site
    installed_bases._ancestors.cache_clear()
    for name in [m for m in sys.modules if m.startswith("somelib")]:
        del sys.modules[name]


def test_a_base_from_an_installed_package_makes_a_rule(installed: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "mod.py").write_text(RULE, encoding="utf-8")
    result = check_paths([project], Config(root=str(project)), jobs=1)
    codes = sorted(d.code for d in result.diagnostics)
    assert codes == ["SL101", "SL102", "SL104"]
    assert "somelib._impl" in installed_bases.COST.modules or "somelib" in installed_bases.COST.modules


def test_ancestors_name_the_framework_base(installed: Path) -> None:
    assert "torch.autograd.Function" in installed_bases.installed_ancestors("somelib.MyFunction")


def test_nothing_installed_is_no_evidence() -> None:
    assert installed_bases.installed_ancestors("no_such_package_xyz.Base") == ()
