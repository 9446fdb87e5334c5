"""``--statistics``, ``--show-files`` and ``--show-settings``: what a run found, and what it will do."""

from __future__ import annotations

import json
from pathlib import Path


from cli_samples import run_cli as run  # tests/checker is on sys.path (pytest's default import mode)

NORMS = Path(__file__).resolve().parents[2] / "examples" / "norm_inf_pullback.py"



def _project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.scalarlint]\nignore = ["SL106"]\nextend-exclude = ["vendored"]\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "norms.py").write_text(NORMS.read_text())
    (tmp_path / "pkg" / "clean.py").write_text("def f(x):\n    return x\n")
    (tmp_path / "vendored").mkdir()
    (tmp_path / "vendored" / "other.py").write_text(NORMS.read_text())
    return tmp_path


def test_statistics_count_findings_per_code_most_frequent_first(tmp_path: Path) -> None:
    root = _project(tmp_path)
    code, out, _ = run(["check", "--statistics", "."], root)
    assert code == 1
    lines = out.splitlines()
    assert lines[:3] == ["2\tSL101\t[ ] scalar-getindex", "1\tSL102\t[ ] scalar-setindex", "1\tSL103\t[ ] search-loop"]
    assert lines[3] == "Found 4 findings in 2 files checked."
    assert lines[4] == "1 more fixable with `--fix --unsafe-fixes` (review those changes)."


def test_statistics_mark_fixable_codes_and_print_json(tmp_path: Path) -> None:
    root = _project(tmp_path)
    code, out, _ = run(["check", "--statistics", "--unsafe-fixes", "."], root)
    assert code == 1
    assert "1\tSL103\t[*] search-loop" in out.splitlines()
    assert out.splitlines()[-2] == "Found 4 findings in 2 files checked. [*] 1 fixable with `--fix`."
    assert out.splitlines()[-1].startswith("1 more would get a fix importing")  # the search's read: a host copy
    code, out, _ = run(["check", "--statistics", "--unsafe-fixes", "--format", "json", "."], root)
    assert json.loads(out) == [
        {"code": "SL101", "name": "scalar-getindex", "count": 2, "fixable": 0},
        {"code": "SL102", "name": "scalar-setindex", "count": 1, "fixable": 0},
        {"code": "SL103", "name": "search-loop", "count": 1, "fixable": 1},
    ]


def test_statistics_after_fixing_count_what_remains(tmp_path: Path) -> None:
    root = _project(tmp_path)
    code, out, _ = run(["check", "--fix", "--unsafe-fixes", "--statistics", "pkg"], root)
    assert code == 0
    # the report marked 1 finding fixable (the search); the three reads and writes of its
    # index went away with it (scalarlint.fix_counts)
    assert out.startswith("All checks passed! (2 files checked)\nFixed 1 finding (0 remaining).\n3 more went away with those fixes.\n")


def test_statistics_report_unreadable_files_and_exit_2(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "pkg" / "broken.py").write_text("def f(:\n")
    code, out, _ = run(["check", "--statistics", "pkg"], root)
    assert code == 2
    assert "pkg/broken.py:1:7: SL001 syntax error: " in out


def test_show_files_lists_what_a_run_checks(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "pkg" / "nb.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    code, out, _ = run(["check", "--show-files", "."], root)
    assert code == 0
    assert out.splitlines() == ["pkg/clean.py", "pkg/nb.ipynb", "pkg/norms.py"]
    code, _, err = run(["check", "--show-files", "missing.py"], root)
    assert code == 2 and "missing.py:1:1: SL002 no such file or directory" in err


def test_show_settings_prints_the_effective_configuration_and_its_source(tmp_path: Path) -> None:
    root = _project(tmp_path)
    code, out, _ = run(["check", "--show-settings", "--extend-select", "SL107", "pkg"], root)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"# settings from {root.resolve() / 'pyproject.toml'}"
    assert 'ignore = ["SL106"]' in lines
    assert 'extend-exclude = ["vendored"]' in lines
    assert "# enabled checks: SL101, SL102, SL103, SL104, SL105, SL107" in lines
    code, out, _ = run(["check", "--show-settings"], tmp_path / "vendored")  # below the project: same file
    assert f"# settings from {root.resolve() / 'pyproject.toml'}" in out
