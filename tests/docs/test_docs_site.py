"""The documentation site builds strictly, has a page for every check and fixer, fails on a
broken link or a missing page, and is where the findings' URLs point."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from scalarlint.fixers import FIXERS
from site_build import REPO, Build, build, copy_project

from scalarlint.diagnostics import DOCS_URL
from scalarlint.explain import Catalogue

pytestmark = pytest.mark.slow


def _site_url() -> str:
    match = re.search(r"^site_url:\s*(\S+)", (REPO / "mkdocs.yml").read_text(encoding="utf-8"), re.MULTILINE)
    assert match, "mkdocs.yml names no site_url"
    return match.group(1)


def test_every_finding_url_names_a_built_page(built_site: Build) -> None:
    """The URL in JSON, SARIF and the LSP (DOCS_URL) is a page of this site, for every code."""
    base = _site_url()
    for code, info in Catalogue.load().infos.items():
        url = DOCS_URL.format(code=code.lower())
        assert url.startswith(base), url
        page = built_site.site / url[len(base):] / "index.html"
        assert page.is_file(), f"{url} has no page in the built site"
        assert f"{code} {info.name}" in page.read_text(encoding="utf-8")


def test_every_fixer_has_a_page(built_site: Build) -> None:
    for _, func in FIXERS:
        name = func.__module__.rsplit(".", 1)[-1]
        assert (built_site.site / "fixers" / name / "index.html").is_file(), name


def test_configuration_reference_is_built(built_site: Build) -> None:
    page = (built_site.site / "configuration" / "index.html").read_text(encoding="utf-8")
    assert "cache-max-mb" in page and "per-file-ignores" in page


def test_hand_written_pages_stay_in_the_site(built_site: Build) -> None:
    for name in ("integrations", "runtime", "rules", "confidence", "gpu-verification"):
        assert (built_site.site / name / "index.html").is_file(), name


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    index = project / "docs" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\nSee [the missing page](no-such-page.md).\n", encoding="utf-8")
    result = build(project)
    assert result.returncode != 0
    assert "no-such-page.md" in result.log


def test_a_missing_page_fails_the_build(tmp_path: Path) -> None:
    """A page the nav names (runtime.md) that is gone."""
    project = copy_project(tmp_path)
    (project / "docs" / "runtime.md").unlink()
    result = build(project)
    assert result.returncode != 0
    assert "runtime.md" in result.log
