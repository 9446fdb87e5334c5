"""The import the ``allow_scalar`` fix adds: only where the project may import scalarlint, and
where isort and ruff's ``I`` rules would put it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scalarlint.analysis.sources import SourceFile
from scalarlint.config import Config, config_from_table
from scalarlint.diagnostics import Applicability
from scalarlint.fixers.engine import check_text, fix_source

ROOT = Path(__file__).resolve().parents[2]

BODY = '''\
def rrule_first(x):
    scale = float(x[0])

    def first_pullback(dy):
        return (np.ones_like(x) * scale * dy,)

    return x, first_pullback
'''
RULE = "import numpy as np\n\n\n" + BODY


def _fix(project: Path, text: str, config: Config | None = None, unsafe: bool = True):  # type: ignore[no-untyped-def]
    path = project / "pkg" / "rules.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return fix_source(SourceFile(str(path), text, "utf-8", text.encode()), config or Config(root=str(project)), unsafe)


def _allow_fix(project: Path, text: str = RULE, config: Config | None = None):  # type: ignore[no-untyped-def]
    path = project / "pkg" / "rules.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    found = check_text(SourceFile(str(path), text, "utf-8", text.encode()), config or Config(root=str(project)))
    assert isinstance(found, list)
    return next(f for d in found if d.code == "SL105" for f in d.fixes)


DECLARATIONS = {
    "pyproject dependencies": ("pyproject.toml", '[project]\nname = "mine"\ndependencies = ["numpy", "scalarlint>=0.1"]\n'),
    "pyproject optional": ("pyproject.toml", '[project]\nname = "mine"\n[project.optional-dependencies]\ntest = ["Scalar_Lint"]\n'.replace("Scalar_Lint", "ScalarLint")),
    "poetry": ("pyproject.toml", '[tool.poetry.dependencies]\npython = "^3.10"\nscalarlint = "^0.1"\n'),
    "requirements": ("requirements-dev.txt", "-r requirements.txt\nnumpy\nscalarlint[lsp] >= 0.1  # lint\n"),
    "setup.cfg install_requires": ("setup.cfg", "[metadata]\nname = mine\n[options]\ninstall_requires =\n    numpy\n    scalarlint\n"),
    "setup.cfg extras": ("setup.cfg", "[metadata]\nname = mine\n[options.extras_require]\ngpu =\n    scalarlint\n"),
    "setup.py": ("setup.py", "from setuptools import setup\nsetup(name='mine', install_requires=['numpy', 'scalarlint==0.1'])\n"),
}


@pytest.mark.parametrize("way", sorted(DECLARATIONS))
def test_each_way_of_declaring_scalarlint_allows_the_import(tmp_path: Path, way: str) -> None:
    name, content = DECLARATIONS[way]
    (tmp_path / name).write_text(content)
    fix = _allow_fix(tmp_path)
    assert fix.applicability is Applicability.UNSAFE
    assert "from scalarlint.runtime import allow_scalar" in _fix(tmp_path, RULE).text


def test_without_a_declaration_the_fix_is_display_only_and_says_how(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "mine"\ndependencies = ["numpy", "scalarlint-extras"]\n')
    fix = _allow_fix(tmp_path)
    assert fix.applicability is Applicability.DISPLAY_ONLY
    assert "does not declare as a dependency" in fix.message and "allow-scalar-import" in fix.message
    assert _fix(tmp_path, RULE).text == RULE  # never applied


def test_a_declaration_added_later_is_seen(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = mine\n")
    assert _allow_fix(tmp_path).applicability is Applicability.DISPLAY_ONLY
    (tmp_path / "requirements.txt").write_text("scalarlint\n")
    assert _allow_fix(tmp_path).applicability is Applicability.UNSAFE


def test_a_module_that_already_imports_scalarlint_may_import_more(tmp_path: Path) -> None:
    text = "import numpy as np\n\nfrom scalarlint.runtime import strict\n\n\n" + BODY
    outcome = _fix(tmp_path, text)
    assert "from scalarlint.runtime import allow_scalar, strict\n" in outcome.text  # merged, sorted
    assert outcome.text.count("scalarlint.runtime") == 1


def test_the_configured_helper_is_imported_from_the_project(tmp_path: Path) -> None:
    """A helper in another top-level package of the project: an absolute, first-party import."""
    config = config_from_table({"allow-scalar-import": "shared._compat.allow_scalar"}, str(tmp_path))
    for package in ("pkg", "shared"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    text = _fix(tmp_path, RULE, config).text
    assert "from shared._compat import allow_scalar\n" in text and "scalarlint" not in text
    # shared is first party: its own section after the third-party numpy
    assert text.startswith("import numpy as np\n\nfrom shared._compat import allow_scalar\n\n\ndef rrule_first")


def test_a_helper_of_the_files_own_package_is_imported_relatively(tmp_path: Path) -> None:
    """``pkg._compat`` seen from ``pkg/rules.py``: ``from ._compat import``, in the last section."""
    config = config_from_table({"allow-scalar-import": "pkg._compat.allow_scalar"}, str(tmp_path))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    text = _fix(tmp_path, RULE, config).text
    assert text.startswith("import numpy as np\n\nfrom ._compat import allow_scalar\n\n\ndef rrule_first")
    assert "scalarlint" not in text and "pkg" not in text


def test_the_cli_reports_what_a_declaration_would_enable(tmp_path: Path) -> None:
    (tmp_path / "rules.py").write_text(RULE)
    result = subprocess.run([sys.executable, "-m", "scalarlint", "check", "rules.py"], cwd=tmp_path, capture_output=True, text=True)
    assert "2 more would get a fix importing `allow_scalar` or `to_host` if the project declared scalarlint" in result.stdout
    assert " [*] " not in result.stdout  # the two: the conversion (SL105) and the element read in it (SL101)


PLACEMENTS = {
    "after stdlib, a new third-party section": (
        "import os\nimport sys\n\n\n" + BODY.replace("np.", "os.") ,
        "import os\nimport sys\n\nfrom scalarlint.runtime import allow_scalar\n\n\n",
    ),
    "between third-party imports": (
        "import os\n\nimport numpy as np\nfrom array_api_compat import array_namespace\nfrom torch import nn\n\n\n" + BODY,
        "import os\n\nimport numpy as np\nfrom array_api_compat import array_namespace\nfrom scalarlint.runtime import allow_scalar\nfrom torch import nn\n\n\n",
    ),
    "in the third-party section, before first-party imports": (
        "import numpy as np\n\nfrom pkg import helpers\n\n\n" + BODY,
        "import numpy as np\nfrom scalarlint.runtime import allow_scalar\n\nfrom pkg import helpers\n\n\n",
    ),
    "a new section before first-party imports": (
        "import os\n\nfrom pkg import helpers\n\n\n" + BODY.replace("np.", "os."),
        "import os\n\nfrom scalarlint.runtime import allow_scalar\n\nfrom pkg import helpers\n\n\n",
    ),
    "only relative imports": (
        "from . import helpers\n\n\n" + BODY,
        "from scalarlint.runtime import allow_scalar\n\nfrom . import helpers\n\n\n",
    ),
    "no imports, a def follows": (
        '"""Doc."""\n' + BODY,
        '"""Doc."""\nfrom scalarlint.runtime import allow_scalar\n\n\ndef rrule_first',
    ),
    "never in TYPE_CHECKING": (
        "from typing import TYPE_CHECKING\n\nimport numpy as np\n\nif TYPE_CHECKING:\n    from scalarlint.runtime import StrictArray\n\n\n" + BODY,
        "from typing import TYPE_CHECKING\n\nimport numpy as np\nfrom scalarlint.runtime import allow_scalar\n\nif TYPE_CHECKING:\n    from scalarlint.runtime import StrictArray\n",
    ),
}


@pytest.mark.parametrize("case", sorted(PLACEMENTS))
def test_the_import_goes_where_the_sorter_puts_it(tmp_path: Path, case: str) -> None:
    (tmp_path / "requirements.txt").write_text("scalarlint\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    text, expected_start = PLACEMENTS[case]
    fixed = _fix(tmp_path, text).text
    assert fixed.startswith(expected_start), fixed
    assert fixed.count("import allow_scalar") == text.count("import allow_scalar") + 1


def _ruff() -> list[str]:
    found = shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed (it is in the test extra)")
    return [found]


@pytest.mark.slow
def test_ruff_import_sorting_changes_nothing_scalarlint_added(tmp_path: Path) -> None:
    """Every corpus file, first made isort-clean by ruff, stays isort-clean after scalarlint's
    fixes: ruff's ``I`` rules (isolated from any configuration) find nothing to change."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "tests" / "fixers" / "corpus", project / "fixers_corpus", ignore=shutil.ignore_patterns("README*"))
    shutil.copytree(ROOT / "tests" / "chainrules_corpus", project / "chainrules_corpus", ignore=shutil.ignore_patterns("README*"))
    (project / "requirements.txt").write_text("numpy\narray-api-compat\nscalarlint\n")
    ruff = [*_ruff(), "check", "--isolated", "--select", "I"]
    subprocess.run([*ruff, "--fix", "."], cwd=project, capture_output=True, check=False)
    before = {p: p.read_text() for p in project.rglob("*.py")}
    fixed = subprocess.run([sys.executable, "-m", "scalarlint", "check", "--fix", "--unsafe-fixes", "."], cwd=project, capture_output=True, text=True)
    changed = [p for p in before if p.read_text() != before[p]]
    assert any("import allow_scalar" in p.read_text() for p in changed), fixed.stdout
    verdict = subprocess.run([*ruff, *map(str, changed)], cwd=project, capture_output=True, text=True)
    assert verdict.returncode == 0, verdict.stdout
