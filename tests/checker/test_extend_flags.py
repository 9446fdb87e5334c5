"""``--extend-select`` and ``--extend-exclude`` on the command line, merged with the
configuration as ruff merges them (added to it, never replacing it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_samples import BAD_RULE, run_cli  # tests/checker is on sys.path (pytest's default import mode)
from rule_samples import LOOP_RULE


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    for folder in ("gen", "src/gen", "src/keep"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "rule.py").write_text(BAD_RULE, encoding="utf-8")
    return tmp_path


def _listed(project: Path, *args: str, cwd: Path | None = None) -> set[str]:
    code, out, err = run_cli(["check", "--show-files", *args], cwd or project)
    assert code == 0, err
    return {Path(line).as_posix() for line in out.splitlines()}


def test_extend_exclude_adds_to_the_configured_patterns(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.scalarlint]\nextend-exclude = ["src/keep"]\n', encoding="utf-8")
    assert _listed(project, ".") == {"bad.py", "gen/rule.py", "src/gen/rule.py"}
    # a name matches anywhere; the configured pattern still holds
    assert _listed(project, "--extend-exclude", "gen", ".") == {"bad.py"}
    assert _listed(project, "--extend-exclude", "bad.py,src/gen", ".") == {"gen/rule.py"}


def test_a_pattern_with_a_slash_is_read_from_the_current_folder(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.scalarlint]\n", encoding="utf-8")
    src = project / "src"
    # from src/, 'gen/rule.py' is src/gen/rule.py: the top-level gen/ stays
    assert _listed(project, "--extend-exclude", "gen/rule.py", "..", cwd=src) == {"../bad.py", "../gen/rule.py", "../src/keep/rule.py"}


def test_extend_select_adds_to_the_configured_selection(tmp_path: Path) -> None:
    (tmp_path / "loop.py").write_text(LOOP_RULE, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.scalarlint]\nselect = ["SL102"]\n', encoding="utf-8")
    _, only_configured, _ = run_cli(["check", "loop.py"], tmp_path)
    _, extended, _ = run_cli(["check", "--extend-select", "SL104", "loop.py"], tmp_path)
    assert "SL102" in only_configured and "SL104" not in only_configured
    assert "SL102" in extended and "SL104" in extended
    # --select replaces the configured selection, and --extend-select still adds to it
    _, replaced, _ = run_cli(["check", "--select", "SL104", "--extend-select", "SL101", "loop.py"], tmp_path)
    assert "SL104" in replaced and "SL102" not in replaced


def test_an_unknown_code_in_extend_select_is_a_usage_error(project: Path) -> None:
    code, _, err = run_cli(["check", "--extend-select", "SL999", "bad.py"], project)
    assert code == 2 and "unknown check code 'SL999'" in err
