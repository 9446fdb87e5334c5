"""The pre-commit hooks (``.pre-commit-hooks.yaml``) through the real ``pre-commit try-repo``.

try-repo clones this repository (with its uncommitted changes to *tracked* files folded into a
temporary commit; untracked files are not included), builds the hook's Python environment
from PyPI and runs the hooks on the files staged in a scratch git repository: the same path a
user's ``pre-commit run`` takes. Building the environment needs the package index, hence the
``network`` marker; each try-repo builds a fresh one (about 15 s with a warm pip cache).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import samples  # tests/integrations is on sys.path (pytest's default import mode)

pytestmark = [pytest.mark.network, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]

BAD = samples.ONE_WRITE

CLEAN = """\
import numpy as np


def abs_pullback(x, g):
    return np.sign(x) * g
"""


def _env() -> dict[str, str]:
    # A test run from inside a git hook inherits GIT_DIR & co., which would point every git
    # command below at the outer repository.
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=_env(), check=True, capture_output=True)


@pytest.fixture
def user_repo(tmp_path: Path) -> Path:
    if not (REPO / ".pre-commit-hooks.yaml").is_file():
        pytest.fail(".pre-commit-hooks.yaml is missing from the repository root")
    repo = tmp_path / "user"
    repo.mkdir()
    _git(repo, "init", "-q")
    return repo


def try_repo(repo: Path, *hooks: str) -> subprocess.CompletedProcess[str]:
    """``pre-commit try-repo <this repository> [hook]`` on the files staged in ``repo``."""
    cmd = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), *hooks, "--color", "never"]
    result = subprocess.run(cmd, cwd=repo, env=_env(), capture_output=True, text=True, timeout=900, check=False)
    if "Traceback (most recent call last)" in result.stdout + result.stderr:
        pytest.fail(
            "the hook crashed instead of checking. try-repo installs this repository's HEAD plus its "
            "uncommitted changes to tracked files, without untracked files: a tracked module that "
            "imports a new, not yet added file breaks the hook's environment.\n" + result.stdout + result.stderr
        )
    return result


def fix_available() -> bool:
    """Whether ``scalarlint check --fix`` exists and the fixers repair a scalar write."""
    from click.testing import CliRunner

    from scalarlint.analysis.sources import SourceFile
    from scalarlint.cli import main
    from scalarlint.config import Config
    from scalarlint.engine import check_source

    if "--fix" not in CliRunner().invoke(main, ["check", "--help"]).output:
        return False
    found = check_source(SourceFile("probe.py", BAD, "utf-8", BAD.encode()), Config())
    return isinstance(found, list) and any(f.applicability.value == "safe" for d in found for f in d.fixes)


def test_hook_fails_on_scalar_indexing(user_repo: Path) -> None:
    (user_repo / "bad.py").write_text(BAD)
    (user_repo / "clean.py").write_text(CLEAN)
    (user_repo / "notes.txt").write_text("x[i] is not Python\n")
    _git(user_repo, "add", "bad.py", "clean.py", "notes.txt")

    result = try_repo(user_repo, "scalarlint")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "scalarlint" in out and "Failed" in out
    assert "bad.py:8:5: SL102" in out and "bad.py:8:21: SL101" in out
    assert "clean.py:" not in out and "notes.txt" not in out  # types: [python]
    assert "(2 files checked)" in out  # only the staged Python files were passed


def test_hooks_pass_on_clean_file(user_repo: Path) -> None:
    (user_repo / "clean.py").write_text(CLEAN)
    _git(user_repo, "add", "clean.py")
    hooks = () if fix_available() else ("scalarlint",)  # all hooks once `--fix` exists
    result = try_repo(user_repo, *hooks)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "Passed" in out and "Failed" not in out
    assert (user_repo / "clean.py").read_text() == CLEAN


def test_fix_hook_repairs_the_file(user_repo: Path) -> None:
    if not fix_available():
        pytest.skip("`scalarlint check --fix` and a safe size-1-slice fix are not available yet")
    (user_repo / "bad.py").write_text(BAD)
    _git(user_repo, "add", "bad.py")

    result = try_repo(user_repo, "scalarlint-fix")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out  # pre-commit fails a hook that modified files
    assert "files were modified by this hook" in out
    fixed = (user_repo / "bad.py").read_text()
    assert fixed != BAD
    assert "dx[i:i+1]" in fixed.replace(" ", "")
    compile(fixed, "bad.py", "exec")

    from scalarlint.analysis.sources import SourceFile
    from scalarlint.config import Config
    from scalarlint.engine import check_source

    remaining = check_source(SourceFile("bad.py", fixed, "utf-8", fixed.encode()), Config())
    assert isinstance(remaining, list)
    assert not any(d.code == "SL102" for d in remaining), remaining
