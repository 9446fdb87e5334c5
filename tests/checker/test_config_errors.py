"""A broken configuration is an error with its place, never a silent fall back to the defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_samples import run_cli as run  # tests/checker is on sys.path (pytest's default import mode)
from scalarlint.config import ConfigError, load_config

RULE = "def rrule_f(x):\n    def pullback(dy):\n        return (dy * x[0],)\n\n    return x, pullback\n"



@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "rule.py").write_text(RULE, encoding="utf-8")
    return tmp_path


def test_a_nearest_pyproject_that_is_not_toml_stops_the_run_with_its_line_and_column(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.scalarlint\nselect=["SL1"]\n', encoding="utf-8")
    code, out, err = run(["check"], project)
    assert code == 2
    assert out == ""
    assert f"cannot read config {project.resolve() / 'pyproject.toml'}: " in err
    assert "(at line 1, column 17)" in err


def test_show_settings_does_not_claim_there_is_no_configuration(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.scalarlint\nselect=["SL1"]\n', encoding="utf-8")
    code, out, err = run(["check", "--show-settings"], project)
    assert code == 2 and "no configuration file found" not in out
    assert "pyproject.toml" in err


def test_a_broken_pyproject_below_the_configured_one_is_not_skipped(project: Path) -> None:
    """The nearest pyproject.toml cannot be read: the one above it must not be used instead."""
    (project / "pyproject.toml").write_text('[tool.scalarlint]\nignore = ["SL101"]\n', encoding="utf-8")
    (project / "sub").mkdir()
    (project / "sub" / "pyproject.toml").write_text("[project\n", encoding="utf-8")
    (project / "sub" / "rule.py").write_text(RULE, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"sub/pyproject.toml: .*line 1"):
        load_config(project / "sub")


@pytest.mark.parametrize(
    ("setting", "complaint"),
    [
        ('respect-gitignore = "no"', "respect-gitignore must be true or false, not 'no'"),
        ("select = 3", "select must be a list of strings"),
        ('select = ["SL9"]', "unknown check code 'SL9'"),
        ('scope = "everything"', "scope must be 'rules' or 'all'"),
        ("file-time-limit = -1", "file-time-limit must be a number of seconds"),
    ],
)
def test_a_value_of_the_wrong_type_names_the_file_and_the_line(project: Path, setting: str, complaint: str) -> None:
    (project / "pyproject.toml").write_text(
        f'[project]\nname = "p"\n\n[tool.ruff]\nselect = ["E"]\n\n[tool.scalarlint]\nextend-rule-names = ["g"]\n{setting}\n',
        encoding="utf-8",
    )
    code, _, err = run(["check", "rule.py"], project)
    assert code == 2
    assert f"{project.resolve() / 'pyproject.toml'}:9: {complaint}" in err


def test_respect_gitignore_accepts_a_boolean(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.scalarlint]\nrespect-gitignore = false\n", encoding="utf-8")
    assert load_config(project).respect_gitignore is False
