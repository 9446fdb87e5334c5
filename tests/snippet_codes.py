"""Check one source text as a module of its own folder, the way the snippet tests of
``tests/checker`` do: write it into ``tmp_path``, run the default check, return its findings
as sorted (row, code) pairs (tests/ is on the path through its conftest)."""

from __future__ import annotations

from pathlib import Path

from scalarlint.config import Config
from scalarlint.engine import check_paths


def snippet_codes(tmp_path: Path, text: str, name: str = "mod.py") -> list[tuple[int, str]]:
    """The (row, code) of every finding in ``text``, written to ``tmp_path / name``."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    result = check_paths([tmp_path], Config(root=str(tmp_path)), jobs=1)
    return sorted((d.location.row, d.code) for d in result.diagnostics)
