"""Building the documentation site from a copy of mkdocs.yml and docs/.

A copy, so that tests may break it (a dead link, a missing page) without touching the
repository, and so that the build never writes site/ into the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Build:
    """One ``mkdocs build --strict``: its exit code, its log and where the site went."""

    returncode: int
    log: str
    site: Path


def copy_project(dest: Path) -> Path:
    """mkdocs.yml and docs/ under ``dest`` (the hook imports scalarlint from the environment)."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copytree(REPO / "docs", dest / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def build(project: Path) -> Build:
    """Run the build as CI does (strict comes from mkdocs.yml; ``--strict`` repeats it)."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")
    pytest.importorskip("material", reason="mkdocs-material is not installed (pip install -e '.[docs]')")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(project / "site")],
        cwd=project, capture_output=True, text=True, timeout=300, env=env, check=False,
    )
    return Build(proc.returncode, proc.stdout + proc.stderr, project / "site")
