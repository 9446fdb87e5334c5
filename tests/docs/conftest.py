"""The documentation site, built once per session (site_build.py says how)."""

from __future__ import annotations

import pytest
from site_build import Build, build, copy_project


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The site as the repository's docs build it; the build must pass."""
    result = build(copy_project(tmp_path_factory.mktemp("docs-site")))
    assert result.returncode == 0, result.log
    return result
