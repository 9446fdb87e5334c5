"""A standalone ``scalarlint.toml`` / ``.scalarlint.toml``, found as ruff finds ``ruff.toml``:
the nearest folder with a configuration wins, and within one folder the standalone file wins
over ``[tool.scalarlint]`` of a pyproject; a broken one stops the run with its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_samples import BAD_RULE, run_cli  # tests/checker is on sys.path (pytest's default import mode)
from scalarlint.config import ConfigError, find_config, load_config


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("name", ["scalarlint.toml", ".scalarlint.toml"])
def test_a_standalone_file_is_found_and_holds_the_keys_without_a_table(project: Path, name: str) -> None:
    (project / name).write_text('ignore = ["SL102"]\n', encoding="utf-8")
    (project / "sub").mkdir()
    assert find_config(project / "sub") == (project / name).resolve()
    code, out, _ = run_cli(["check", "bad.py"], project)
    assert code == 1 and "SL101" in out and "SL102" not in out


def test_within_one_folder_the_standalone_file_wins_over_pyproject(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.scalarlint]\nignore = ["SL101"]\n', encoding="utf-8")
    (project / "scalarlint.toml").write_text('ignore = ["SL102"]\n', encoding="utf-8")
    code, out, _ = run_cli(["check", "bad.py"], project)
    assert "SL101" in out and "SL102" not in out
    (project / ".scalarlint.toml").write_text("ignore = []\n", encoding="utf-8")  # the dot file wins, as .ruff.toml does
    code, out, _ = run_cli(["check", "bad.py"], project)
    assert "SL101" in out and "SL102" in out


def test_the_nearest_folder_wins_whatever_its_file_is_called(project: Path) -> None:
    (project / "scalarlint.toml").write_text('ignore = ["SL102"]\n', encoding="utf-8")
    sub = project / "sub"
    sub.mkdir()
    (sub / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    (sub / "pyproject.toml").write_text('[tool.scalarlint]\nignore = ["SL101"]\n', encoding="utf-8")
    assert load_config(sub).ignore == ("SL101",)
    # a pyproject without the table is not a configuration: the search goes on up
    (sub / "pyproject.toml").write_text('[project]\nname = "p"\n', encoding="utf-8")
    assert load_config(sub).ignore == ("SL102",)
    assert load_config(sub).root == str(project.resolve())


def test_show_settings_names_the_standalone_file(project: Path) -> None:
    (project / "scalarlint.toml").write_text('scope = "all"\n', encoding="utf-8")
    code, out, _ = run_cli(["check", "--show-settings", "bad.py"], project)
    assert code == 0
    assert f"# settings from {(project / 'scalarlint.toml').resolve()}" in out
    assert 'scope = "all"' in out


def test_a_broken_standalone_file_is_an_error_with_its_line(project: Path) -> None:
    (project / "scalarlint.toml").write_text('select = ["SL101"]\n[per-file-ignores\n', encoding="utf-8")
    code, out, err = run_cli(["check", "bad.py"], project)
    assert code == 2 and out == ""
    assert f"cannot read config {(project / 'scalarlint.toml').resolve()}: " in err
    assert "(at line 2, column 18)" in err


def test_a_file_cut_short_names_its_last_line(project: Path) -> None:
    (project / ".scalarlint.toml").write_text('scope = "all"\nselect = [\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\.scalarlint\.toml: .*end of document, line 2\)"):
        load_config(project)


@pytest.mark.parametrize(
    ("text", "line", "complaint"),
    [
        ('scope = "all"\nconfidence = 3\n', 2, "confidence must be one of"),
        ('\n\nnot-an-option = 1\n', 3, "unknown option 'not-an-option'"),
        ('scope = "all"\n\n[per-file-ignores]\n"a.py" = ["SL9"]\n', 3, "unknown check code 'SL9'"),
    ],
)
def test_a_wrong_value_in_a_standalone_file_names_the_file_and_line(project: Path, text: str, line: int, complaint: str) -> None:
    (project / "scalarlint.toml").write_text(text, encoding="utf-8")
    code, out, err = run_cli(["check", "bad.py"], project)
    assert code == 2 and out == ""
    assert f"{(project / 'scalarlint.toml').resolve()}:{line}: {complaint}" in err


def test_an_empty_standalone_file_means_the_defaults_and_hides_a_pyproject_above(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.scalarlint]\nscope = "all"\n', encoding="utf-8")
    sub = project / "sub"
    sub.mkdir()
    (sub / "scalarlint.toml").write_text("", encoding="utf-8")
    assert load_config(sub).scope == "rules"
