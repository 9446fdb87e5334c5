"""The project passes its own checks: the reference rules are the model code."""

from __future__ import annotations

from pathlib import Path

from scalarlint.config import load_config
from scalarlint.engine import check_paths

ROOT = Path(__file__).resolve().parents[2]


def test_project_is_clean() -> None:
    paths = [ROOT / "rules", ROOT / "fixers", ROOT / "scalarlint"]
    result = check_paths(paths, load_config(ROOT))
    assert result.errors == []
    assert [f"{d.filename}:{d.location.row}: {d.code}" for d in result.diagnostics] == []
    assert result.files_checked > 20


def test_reference_rules_are_clean_even_checking_every_function() -> None:
    config = load_config(ROOT).with_overrides(scope="all")
    result = check_paths([ROOT / "rules"], config)
    assert result.errors == [] and result.diagnostics == []
