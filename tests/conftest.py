"""Shared test set-up: every test gets its own, empty cache folder.

The CLI caches by default (``scalarlint.cache``). A test that changes the checker's behaviour
in-process (monkeypatched checks, settings) must not read another test's entries, and no test
may write into the developer's own cache.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
