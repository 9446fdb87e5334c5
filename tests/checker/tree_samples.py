"""Write a small source tree and check it whole, as the first pass and the checks see a project
(shared by the tests of what a rule reaches across modules)."""

from __future__ import annotations

from pathlib import Path

from scalarlint.config import Config
from scalarlint.engine import check_paths


def check_tree(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    """``files`` (relative path -> text) written under ``tmp_path`` and checked: each finding as
    (file name, line, code), sorted."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = check_paths([tmp_path], Config(root=str(tmp_path)), jobs=1)
    return sorted((Path(d.filename).name, d.location.row, d.code) for d in result.diagnostics)
