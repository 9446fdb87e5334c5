"""JSON ``filename`` is absolute, as ruff's JSON has it (its text output stays relative)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from cli_samples import BAD_RULE, run_cli  # tests/checker is on sys.path (pytest's default import mode)
from click.testing import CliRunner

from scalarlint.cli import main


def test_json_names_files_absolute_whichever_way_they_were_given(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    expected = os.path.join(os.path.realpath(tmp_path), "pkg", "bad.py")
    for given in ("pkg/bad.py", "pkg", ".", str(tmp_path / "pkg")):
        code, out, _ = run_cli(["check", "--output-format", "json", given], tmp_path)
        assert code == 1
        assert {os.path.realpath(d["filename"]) for d in json.loads(out)} == {expected}
        assert all(os.path.isabs(d["filename"]) for d in json.loads(out))


def test_text_stays_relative(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    code, out, _ = run_cli(["check", "bad.py"], tmp_path)
    assert code == 1 and out.startswith("bad.py:")


def test_stdin_without_a_name_stays_as_it_is(tmp_path: Path) -> None:
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(main, ["check", "--output-format", "json", "-"], input=BAD_RULE)
        named = CliRunner().invoke(main, ["check", "--output-format", "json", "--stdin-filename", "src/r.py"], input=BAD_RULE)
    finally:
        os.chdir(old)
    assert {d["filename"] for d in json.loads(result.stdout)} == {"<stdin>"}
    [name] = {d["filename"] for d in json.loads(named.stdout)}
    assert os.path.isabs(name) and os.path.realpath(name) == os.path.join(os.path.realpath(tmp_path), "src", "r.py")
