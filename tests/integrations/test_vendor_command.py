"""``scalarlint vendor``: where the helper goes, what it may overwrite, the setting it asks for
(or writes with ``--configure``); and the note ``scalarlint check`` gives about a stale copy."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from scalarlint.cli import main
from scalarlint.vendored import RELEASED, VERSION, digest, template_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SETTING = '[tool.scalarlint]\nallow-scalar-import = "{}"'


def _run(project: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.chdir(project)
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _package(project: Path, *parts: str) -> Path:
    """``parts`` as nested packages, each with its ``__init__.py``."""
    folder = project
    for part in parts:
        folder = folder / part
        folder.mkdir(exist_ok=True)
        (folder / "__init__.py").touch()
    return folder


def _older_release(monkeypatch: pytest.MonkeyPatch) -> str:
    """A pretend release v0 (an older text under its own version line), known to ``RELEASED``."""
    text = template_text().replace(f"allow_scalar v{VERSION}\n", "allow_scalar v0\n", 1).replace("Scopes nest", "Scopes do nest")
    monkeypatch.setitem(RELEASED, 0, digest(text))
    return text


# --- where it goes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("layout", "expected", "module"),
    [
        (("mypkg",), "mypkg/_allow_scalar.py", "mypkg._allow_scalar"),
        (("src/mypkg", "tests"), "src/mypkg/_allow_scalar.py", "mypkg._allow_scalar"),
        (("mypkg", "tests", "docs"), "mypkg/_allow_scalar.py", "mypkg._allow_scalar"),
        (("one", "two"), "_allow_scalar.py", "_allow_scalar"),
        ((), "_allow_scalar.py", "_allow_scalar"),
    ],
    ids=["flat", "src layout", "tests and docs are not the package", "two packages", "no package"],
)
def test_default_home_is_the_single_package_else_the_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: tuple[str, ...], expected: str, module: str) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "mine"\n')
    for folder in map(Path, layout):
        (tmp_path / folder.parent).mkdir(exist_ok=True)  # src/ is a plain folder
        _package(tmp_path / folder.parent, folder.name)
    result = _run(tmp_path, monkeypatch, "vendor")
    assert result.exit_code == 0, result.output
    assert (tmp_path / expected).read_text() == template_text()
    assert f"Wrote {expected} (allow_scalar v{VERSION})." in result.output
    assert SETTING.format(module) in result.output
    assert (tmp_path / "pyproject.toml").read_text() == '[project]\nname = "mine"\n'  # not asked to configure


def test_path_may_be_a_file_or_a_package_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _package(tmp_path, "mypkg", "compat")
    result = _run(tmp_path, monkeypatch, "vendor", "--path", "mypkg/compat")
    assert result.exit_code == 0 and (tmp_path / "mypkg/compat/_allow_scalar.py").is_file()
    assert SETTING.format("mypkg.compat._allow_scalar") in result.output
    result = _run(tmp_path, monkeypatch, "vendor", "--path", "mypkg/scalar_helper.py")
    assert result.exit_code == 0 and (tmp_path / "mypkg/scalar_helper.py").read_text() == template_text()
    assert SETTING.format("mypkg.scalar_helper") in result.output


def test_without_path_the_configured_module_is_the_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text(SETTING.format("mypkg.util._scalar.allow_scalar") + "\n")
    _package(tmp_path, "mypkg", "util")
    _package(tmp_path, "other")
    result = _run(tmp_path, monkeypatch, "vendor")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "mypkg/util/_scalar.py").read_text() == template_text()
    assert "allow-scalar-import already names mypkg.util._scalar" in result.output


def test_a_missing_folder_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(tmp_path, monkeypatch, "vendor", "--path", "nowhere/_allow_scalar.py")
    assert result.exit_code == 2 and "does not exist" in result.output
    assert not (tmp_path / "nowhere").exists()


# --- what it may overwrite --------------------------------------------------------------------


def test_a_file_scalarlint_did_not_write_is_never_overwritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = "def allow_scalar():\n    ...\n"
    (tmp_path / "_allow_scalar.py").write_text(mine)
    for args in ((), ("--force",)):
        result = _run(tmp_path, monkeypatch, "vendor", *args)
        assert result.exit_code == 2 and "refusing to overwrite _allow_scalar.py" in result.output
    assert (tmp_path / "_allow_scalar.py").read_text() == mine


def test_an_older_untouched_copy_is_updated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "_allow_scalar.py").write_text(_older_release(monkeypatch))
    result = _run(tmp_path, monkeypatch, "vendor")
    assert result.exit_code == 0, result.output
    assert f"Updated _allow_scalar.py from allow_scalar v0 to v{VERSION}." in result.output
    assert (tmp_path / "_allow_scalar.py").read_text() == template_text()


def test_a_current_copy_is_left_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "_allow_scalar.py"
    path.write_bytes(template_text().replace("\n", "\r\n").encode())  # as git may check it out
    before = path.stat().st_mtime_ns
    result = _run(tmp_path, monkeypatch, "vendor")
    assert result.exit_code == 0 and "_allow_scalar.py is up to date" in result.output
    assert path.stat().st_mtime_ns == before


@pytest.mark.parametrize("change", ["edited", "newer"])
def test_an_edited_or_newer_copy_needs_force(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    path = tmp_path / "_allow_scalar.py"
    text = template_text()
    text = text + "# my change\n" if change == "edited" else text.replace(f"allow_scalar v{VERSION}\n", f"allow_scalar v{VERSION + 1}\n", 1)
    path.write_text(text)
    result = _run(tmp_path, monkeypatch, "vendor")
    assert result.exit_code == 2 and "--force" in result.output and path.read_text() == text
    result = _run(tmp_path, monkeypatch, "vendor", "--force")
    assert result.exit_code == 0 and "Replaced _allow_scalar.py" in result.output
    assert path.read_text() == template_text()


# --- the setting --------------------------------------------------------------------------------


def _configure(project: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str) -> tuple[Result, str]:
    (project / name).write_bytes(text.encode())
    _package(project, "mypkg")
    result = _run(project, monkeypatch, "vendor", "--configure")
    return result, (project / name).read_bytes().decode()


def test_configure_adds_the_key_under_an_existing_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = '[project]\nname = "mine"\n\n[tool.scalarlint]  # lint settings\nselect = ["SL1"]\n\n[tool.scalarlint.per-file-ignores]\n"a.py" = ["SL101"]\n'
    result, after = _configure(tmp_path, monkeypatch, "pyproject.toml", text)
    assert result.exit_code == 0 and 'Set allow-scalar-import = "mypkg._allow_scalar" in pyproject.toml.' in result.output
    assert after == text.replace("# lint settings\n", '# lint settings\nallow-scalar-import = "mypkg._allow_scalar"\n')


def test_configure_appends_the_table_and_keeps_crlf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = '[project]\r\nname = "mine"\r\ndependencies = ["numpy"]\r\n'
    result, after = _configure(tmp_path, monkeypatch, "pyproject.toml", text)
    assert result.exit_code == 0, result.output
    assert after == text + '\r\n[tool.scalarlint]\r\nallow-scalar-import = "mypkg._allow_scalar"\r\n'


def test_configure_replaces_another_value(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = '[tool.scalarlint]\nallow-scalar-import = "scalarlint.runtime"\nscope = "all"\n'
    result, after = _configure(tmp_path, monkeypatch, "pyproject.toml", text)
    assert result.exit_code == 0, result.output
    assert tomllib.loads(after)["tool"]["scalarlint"] == {"allow-scalar-import": "mypkg._allow_scalar", "scope": "all"}


def test_configure_writes_a_standalone_file_at_its_top_level(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = 'scope = "all"\n\n[per-file-ignores]\n"a.py" = ["SL101"]\n'
    result, after = _configure(tmp_path, monkeypatch, ".scalarlint.toml", text)
    assert result.exit_code == 0, result.output
    assert after == 'scope = "all"\nallow-scalar-import = "mypkg._allow_scalar"\n\n[per-file-ignores]\n"a.py" = ["SL101"]\n'


def test_configure_leaves_a_layout_it_cannot_edit_safely_and_says_what_to_add(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = '[tool]\nscalarlint.scope = "all"\n'  # the table as dotted keys: a new [tool.scalarlint] would clash
    result, after = _configure(tmp_path, monkeypatch, "pyproject.toml", text)
    assert result.exit_code == 0 and after == text
    assert "warning: " in result.output and SETTING.format("mypkg._allow_scalar") in result.output


def test_the_settings_written_are_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "mine"\n')
    _package(tmp_path, "mypkg")
    assert _run(tmp_path, monkeypatch, "vendor", "--configure").exit_code == 0
    result = _run(tmp_path, monkeypatch, "vendor")
    assert "already names mypkg._allow_scalar" in result.output and "is up to date" in result.output


# --- scalarlint check's note ------------------------------------------------------------------


def _project_with_copy(project: Path, text: str) -> None:
    (project / "pyproject.toml").write_text(SETTING.format("mypkg._allow_scalar") + "\n")
    _package(project, "mypkg")
    (project / "mypkg" / "_allow_scalar.py").write_text(text)


def _check(project: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.chdir(project)
    return CliRunner().invoke(main, ["check", "--no-cache", *args, "."], catch_exceptions=False)


def test_check_notes_an_outdated_copy_once_and_keeps_the_exit_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project_with_copy(tmp_path, _older_release(monkeypatch))
    result = _check(tmp_path, monkeypatch)
    assert result.exit_code == 0
    notes = [line for line in result.stderr.splitlines() if "allow-scalar-import" in line]
    assert notes == [
        f"warning: mypkg/_allow_scalar.py (allow-scalar-import) is allow_scalar v0, older than the v{VERSION} "
        "this scalarlint writes: run `scalarlint vendor` to update it"
    ]
    assert "_allow_scalar" not in result.stdout


def test_check_notes_an_edited_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project_with_copy(tmp_path, template_text().replace("return _ALLOWED.get()", "return True"))
    result = _check(tmp_path, monkeypatch, "--output-format", "json")
    assert result.exit_code == 0 and result.stdout.strip() == "[]"
    assert "differs from scalarlint's allow_scalar" in result.stderr and "scalarlint vendor --force" in result.stderr


@pytest.mark.parametrize("text", ["current", "own helper"])
def test_check_says_nothing_about_a_current_copy_or_the_users_own_helper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    _project_with_copy(tmp_path, template_text() if text == "current" else "def allow_scalar():\n    ...\n")
    result = _check(tmp_path, monkeypatch)
    assert result.exit_code == 0 and result.stderr == ""


def test_the_helper_itself_has_no_finding_even_with_every_check_on_every_function(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project_with_copy(tmp_path, template_text())
    result = _check(tmp_path, monkeypatch, "--scope", "all", "--select", "ALL", "--confidence", "low")
    assert result.exit_code == 0, result.stdout


def test_vendor_is_listed_in_the_help() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert "vendor" in result.output and "allow_scalar" in result.output
