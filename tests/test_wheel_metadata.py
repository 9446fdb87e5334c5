"""Packaging a user can trust: the wheel holds the LICENSE and the metadata PyPI shows
(license, classifiers, project URLs, extras), and the version comes from one place."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from email.parser import HeaderParser
from email.message import Message
from pathlib import Path

import pytest
from click.testing import CliRunner

import scalarlint
from scalarlint.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        check=True,
        timeout=600,
    )
    (built,) = out.glob("scalarlint-*.whl")
    return built


def _metadata(wheel: Path) -> tuple[Message, list[str]]:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        return HeaderParser().parsestr(archive.read(metadata).decode("utf-8")), names


@pytest.mark.slow
def test_the_wheel_holds_the_license(wheel: Path) -> None:
    _, names = _metadata(wheel)
    licenses = [n for n in names if ".dist-info/" in n and n.rsplit("/", 1)[-1] == "LICENSE"]
    assert len(licenses) == 1, names
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read(licenses[0]).decode("utf-8")
    assert text == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")


@pytest.mark.slow
def test_the_wheel_metadata_names_license_urls_classifiers_and_extras(wheel: Path) -> None:
    meta, _ = _metadata(wheel)
    assert meta["Name"] == "scalarlint"
    assert meta["Version"] == scalarlint.__version__
    assert wheel.name.startswith(f"scalarlint-{scalarlint.__version__}-")
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Source", "Issues", "Documentation"} <= set(urls)
    assert all(u.startswith("https://") for u in urls.values())
    classifiers = meta.get_all("Classifier") or []
    assert "Topic :: Software Development :: Quality Assurance" in classifiers
    assert "Programming Language :: Python :: 3.10" in classifiers
    extras = set(meta.get_all("Provides-Extra") or [])
    assert {"lsp", "watch", "cuda12", "cuda13", "test"} <= extras
    requires = meta.get_all("Requires-Dist") or []
    assert any(r.startswith("watchfiles") and 'extra == "watch"' in r for r in requires)


def test_the_version_is_written_once() -> None:
    """pyproject.toml reads it from scalarlint/__init__.py instead of holding its own."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r"^version\s*=\s*\"", pyproject, re.MULTILINE) is None
    assert 'dynamic = ["version"]' in pyproject and 'attr = "scalarlint.__version__"' in pyproject
    result = CliRunner().invoke(main, ["--version"])
    assert result.output == f"scalarlint, version {scalarlint.__version__}\n"


def test_the_changelog_and_the_pre_commit_docs_name_this_version() -> None:
    version = scalarlint.__version__
    assert f"## [{version}]" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    # The pre-commit docs are docs/integrations.md; the README or another page that shows a
    # `rev:` must name this version too.
    revs = {doc: re.findall(r"^\s*rev:\s*(\S+)", doc.read_text(encoding="utf-8"), re.MULTILINE)
            for doc in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))}
    assert revs[ROOT / "docs" / "integrations.md"]
    for doc, found in revs.items():
        assert set(found) <= {f"v{version}"}, doc


def test_the_extras_are_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for extra in ("lsp", "watch", "cuda12", "cuda13", "test"):
        assert f"| `{extra}` |" in readme


@pytest.mark.slow
def test_the_built_wheel_runs_the_quickstart(wheel: Path, tmp_path: Path) -> None:
    """The wheel alone (not the checkout) checks the README's example: installed into a folder of
    its own that comes first on the path, with the dependencies of this environment."""
    target = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)], check=True, timeout=600)
    example = ROOT / "examples" / "norm_inf_pullback.py"
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    where = subprocess.run([sys.executable, "-c", "import scalarlint; print(scalarlint.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert where.stdout.strip().startswith(str(target))
    run = subprocess.run([sys.executable, "-m", "scalarlint", "check", "--no-cache", str(example)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stderr
    assert "SL103" in run.stdout and "norm_inf_pullback.py" in run.stdout
