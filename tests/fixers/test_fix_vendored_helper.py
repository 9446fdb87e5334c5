"""The ``allow_scalar`` fix with a vendored helper: applicable on a project that does not depend
on scalarlint, importing the project's own module relatively, and the fixed code runs where
scalarlint is not installed."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from scalarlint.fixers.runtime_import import import_spelling

from scalarlint.analysis.sources import SourceFile
from scalarlint.config import config_from_table
from scalarlint.diagnostics import Applicability
from scalarlint.fixers.engine import check_text, fix_source
from scalarlint.vendored import template_text
from without_scalarlint import BLOCK_SCALARLINT  # tests/ is on the path through its conftest

RULE = '''\
import numpy as np

from . import helpers


def rrule_first(x):
    scale = float(x[0])

    def first_pullback(dy):
        return (np.ones_like(x) * scale * dy,)

    return x * scale, first_pullback
'''


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize(
    ("file", "module", "expected"),
    [
        ("pkg/sub/rules.py", "pkg._allow_scalar", ".._allow_scalar"),
        ("pkg/rules.py", "pkg._allow_scalar", "._allow_scalar"),
        ("pkg/__init__.py", "pkg._allow_scalar", "._allow_scalar"),
        ("pkg/sub/rules.py", "pkg.sub._allow_scalar", "._allow_scalar"),
        ("pkg/sub/deeper/rules.py", "pkg.other._allow_scalar", "...other._allow_scalar"),
        ("pkg/sub/rules.py", "pkg", ".."),
        ("pkg/sub/rules.py", "shared._allow_scalar", "shared._allow_scalar"),
        ("pkg/sub/rules.py", "scalarlint.runtime", "scalarlint.runtime"),
        ("scripts/run.py", "pkg._allow_scalar", "pkg._allow_scalar"),
        ("pkg/sub/notebook.ipynb", "pkg._allow_scalar", "pkg._allow_scalar"),
    ],
)
def test_import_spelling(tmp_path: Path, file: str, module: str, expected: str) -> None:
    """Relative inside the file's own top-level package, absolute otherwise; a script outside
    any package and a notebook (no package to be relative to) keep the absolute form."""
    _tree(tmp_path, {"pkg/__init__.py": "", "pkg/sub/__init__.py": "", "pkg/sub/deeper/__init__.py": "", "shared/__init__.py": "", file: ""})
    assert import_spelling(str(tmp_path / file), module) == expected


def test_an_in_memory_snippet_keeps_the_absolute_import() -> None:
    assert import_spelling("snippet.py", "pkg._allow_scalar") == "pkg._allow_scalar"
    assert import_spelling("<stdin>", "pkg._allow_scalar") == "pkg._allow_scalar"


def _project(root: Path, rule: str = RULE) -> Path:
    """A project that does not declare scalarlint, its helper vendored and configured."""
    _tree(root, {
        "pyproject.toml": '[project]\nname = "mine"\ndependencies = ["numpy"]\n\n[tool.scalarlint]\nallow-scalar-import = "pkg._allow_scalar"\n',
        "pkg/__init__.py": "",
        "pkg/_allow_scalar.py": template_text(),
        "pkg/sub/__init__.py": "",
        "pkg/sub/helpers.py": "",
        "pkg/sub/rules.py": rule,
    })
    return root / "pkg" / "sub" / "rules.py"


def test_with_the_setting_the_fix_is_applicable_without_a_scalarlint_dependency(tmp_path: Path) -> None:
    path = _project(tmp_path)
    config = config_from_table({"allow-scalar-import": "pkg._allow_scalar"}, str(tmp_path))
    found = check_text(SourceFile(str(path), RULE, "utf-8", RULE.encode()), config)
    assert isinstance(found, list)
    (fix,) = [f for d in found if d.code == "SL105" for f in d.fixes]
    assert fix.applicability is Applicability.UNSAFE  # not display-only
    assert [e.content for e in fix.edits][0] == "from .._allow_scalar import allow_scalar\n"


def test_an_existing_relative_import_is_reused_or_merged(tmp_path: Path) -> None:
    config = config_from_table({"allow-scalar-import": "pkg._allow_scalar"}, str(tmp_path))
    for existing, expected in [
        ("from .._allow_scalar import allow_scalar\n", "from .._allow_scalar import allow_scalar\n"),
        ("from .._allow_scalar import scalar_allowed\n", "from .._allow_scalar import allow_scalar, scalar_allowed\n"),
    ]:
        text = RULE.replace("from . import helpers\n", existing + "from . import helpers\n")
        path = _project(tmp_path, text)
        fixed = fix_source(SourceFile(str(path), text, "utf-8", text.encode()), config, True).text
        assert "with allow_scalar():" in fixed
        assert fixed.count("_allow_scalar import") == 1 and expected in fixed


@pytest.mark.slow
def test_vendor_then_fix_a_project_that_does_not_depend_on_scalarlint(tmp_path: Path) -> None:
    """The whole path, as a user takes it: ``scalarlint vendor --configure``, then
    ``check --fix --unsafe-fixes``. The fix is applied, adds only the relative import (no
    file imports scalarlint), leaves nothing to report and nothing for ruff's import sorter,
    and the fixed rule runs where scalarlint cannot be imported."""
    _tree(tmp_path, {
        "pyproject.toml": '[project]\nname = "mine"\ndependencies = ["numpy"]\n',
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/sub/helpers.py": "",
        "pkg/sub/rules.py": RULE,
    })
    scalarlint = [sys.executable, "-m", "scalarlint"]
    vendored = subprocess.run([*scalarlint, "vendor", "--configure"], cwd=tmp_path, capture_output=True, text=True)
    assert vendored.returncode == 0, vendored.stdout + vendored.stderr
    assert (tmp_path / "pkg" / "_allow_scalar.py").read_text() == template_text()
    fixed = subprocess.run([*scalarlint, "check", "--no-cache", "--fix", "--unsafe-fixes", "."], cwd=tmp_path, capture_output=True, text=True)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "Fixed 2 findings" in fixed.stdout and fixed.stderr == ""  # float(x[0]): SL105 and SL101, one edit
    text = (tmp_path / "pkg" / "sub" / "rules.py").read_text()
    assert text == RULE.replace(
        "from . import helpers\n", "from .._allow_scalar import allow_scalar\nfrom . import helpers\n"
    ).replace("    scale = float(x[0])\n", "    with allow_scalar():\n        scale = float(x[0])\n")
    assert not [p for p in tmp_path.rglob("*.py") if "scalarlint" in p.read_text() and p.name != "_allow_scalar.py"]
    again = subprocess.run([*scalarlint, "check", "--no-cache", "."], cwd=tmp_path, capture_output=True, text=True)
    assert again.returncode == 0, again.stdout
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if Path(ruff).is_file():
        sorted_ = subprocess.run([ruff, "check", "--isolated", "--select", "I", "pkg"], cwd=tmp_path, capture_output=True, text=True)
        assert sorted_.returncode == 0, sorted_.stdout
    run = BLOCK_SCALARLINT + textwrap.dedent(
        """
        import numpy as np
        from pkg.sub.rules import rrule_first
        y, pullback = rrule_first(np.array([2.0, 3.0]))
        print(y.tolist(), pullback(1.0)[0].tolist(), "scalarlint" in sys.modules)
        """
    )
    ran = subprocess.run([sys.executable, "-c", run], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["[4.0,", "6.0]", "[2.0,", "2.0]", "False"]
