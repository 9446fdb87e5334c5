"""``--target-version`` / ``target-version``: the oldest Python the checked code must parse
with; a file using newer syntax is SL001 at the construct, and a bad value is a usage error."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cli_samples import BAD_RULE, run_cli  # tests/checker is on sys.path (pytest's default import mode)
from scalarlint.config import ConfigError
from scalarlint.target_version import parse_target_version

# BAD_RULE with a match statement (3.10) ahead of it
MATCHING = "def kind(x):\n    match x:\n        case 0:\n            return 'zero'\n    return 'other'\n\n\n" + BAD_RULE


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "rule.py").write_text(MATCHING, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("given", "normal"), [("py39", "py39"), ("PY310", "py310"), ("3.8", "py38"), ("py314", "py314")])
def test_ruff_and_dotted_spellings_are_accepted(given: str, normal: str) -> None:
    assert parse_target_version(given) == normal


@pytest.mark.parametrize("bad", ["py2", "py36", "py315", "3", "python3.10", "", 310])
def test_a_bad_value_names_the_choices(bad: object) -> None:
    with pytest.raises(ConfigError, match=r"target-version must be one of py37 \.\.\. py314"):
        parse_target_version(bad)


def test_a_bad_value_on_the_command_line_is_a_usage_error(project: Path) -> None:
    code, out, err = run_cli(["check", "--target-version", "py2", "rule.py"], project)
    assert code == 2 and out == ""
    assert "--target-version: target-version must be one of py37 ... py314" in err and "not 'py2'" in err


def test_a_bad_value_in_the_configuration_names_its_line(project: Path) -> None:
    (project / "scalarlint.toml").write_text('scope = "rules"\ntarget-version = "py2"\n', encoding="utf-8")
    code, _, err = run_cli(["check", "rule.py"], project)
    assert code == 2 and f"{(project / 'scalarlint.toml').resolve()}:2: target-version must be one of" in err


def test_without_a_target_newer_syntax_is_checked(project: Path) -> None:
    code, out, _ = run_cli(["check", "rule.py"], project)
    assert code == 1 and "SL102" in out and "SL001" not in out


@pytest.mark.skipif(sys.version_info < (3, 10), reason="the running parser must know the match statement")
def test_syntax_newer_than_the_target_is_sl001_and_the_run_exits_2(project: Path) -> None:
    code, out, _ = run_cli(["check", "--target-version", "py39", "--output-format", "json", "rule.py"], project)
    assert code == 2
    [entry] = json.loads(out)
    assert entry["code"] == "SL001"
    assert "Pattern matching is only supported in Python 3.10 and greater (target-version is py39)" in entry["message"]
    assert entry["location"]["row"] >= 2


def test_the_configured_target_applies_and_the_command_line_overrides_it(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.scalarlint]\ntarget-version = "py39"\n', encoding="utf-8")
    code, out, _ = run_cli(["check", "rule.py"], project)
    assert code == 2 and "SL001" in out
    code, out, _ = run_cli(["check", "--target-version", "3.10", "rule.py"], project)
    assert code == 1 and "SL001" not in out and "SL102" in out


def test_a_target_newer_than_the_file_needs_changes_nothing(project: Path) -> None:
    plain = run_cli(["check", "rule.py"], project)
    assert run_cli(["check", "--target-version", "py310", "rule.py"], project) == plain
