"""The ``scalarlint check`` command line: exit codes, formats, configuration, bad input."""

from __future__ import annotations

import json
import re
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scalarlint.cli import main

from cli_samples import BAD_RULE  # tests/checker is on sys.path (pytest's default import mode)

GOOD_RULE = '''\
def rrule_identity(x):
    def pullback(dy):
        return (dy,)

    return x, pullback
'''


def run(args: list[str], cwd: Path, stdin: bytes | None = None) -> tuple[int, str]:
    runner = CliRunner()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = runner.invoke(main, args, input=stdin, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.output


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    (tmp_path / "good.py").write_text(GOOD_RULE, encoding="utf-8")
    return tmp_path


def test_findings_exit_1_with_text_report(project: Path) -> None:
    code, out = run(["check", "."], project)
    assert code == 1
    assert "bad.py:10:9: SL102 " in out
    assert "bad.py:10:26: SL101 " in out
    assert "[rule: rrule_last.pullback]" in out
    assert "Found 2 findings (0 errors, 2 warnings) in 1 file (2 files checked)." in out
    assert "\x1b[" not in out  # no colour when not on a terminal


def test_clean_exit_0(project: Path) -> None:
    code, out = run(["check", "good.py"], project)
    assert code == 0
    assert "All checks passed!" in out


def test_color_can_be_forced(project: Path) -> None:
    code, out = run(["check", "--color", "bad.py"], project)
    assert code == 1 and "\x1b[" in out


def test_exit_zero(project: Path) -> None:
    code, _ = run(["check", "--exit-zero", "bad.py"], project)
    assert code == 0


def test_select_and_ignore(project: Path) -> None:
    code, out = run(["check", "--select", "SL102", "bad.py"], project)
    assert code == 1 and "SL102" in out and "SL101" not in out
    code, out = run(["check", "--ignore", "SL10", "bad.py"], project)
    assert code == 0


def test_unknown_code_is_a_usage_error(project: Path) -> None:
    code, out = run(["check", "--select", "XX999", "bad.py"], project)
    assert code == 2 and "unknown check code" in out


def test_json_is_ruff_compatible(project: Path) -> None:
    code, out = run(["check", "--format", "json", "bad.py"], project)
    assert code == 1
    data = json.loads(out)
    assert [d["code"] for d in data] == ["SL102", "SL101"]
    first = data[0]
    assert set(first) >= {"code", "message", "filename", "location", "end_location", "fix", "url", "name", "severity", "rule"}
    assert first["location"] == {"row": 10, "column": 9}
    assert first["end_location"] == {"row": 10, "column": 18}
    assert first["name"] == "scalar-setindex" and first["severity"] == "warning"
    assert first["rule"] == "rrule_last.pullback"
    assert first["url"].endswith("/checks/sl102/")


def test_syntax_error_reported_and_others_still_checked(project: Path) -> None:
    (project / "broken.py").write_text("def rrule(x:\n    return x[0]\n", encoding="utf-8")
    code, out = run(["check", "."], project)
    assert code == 2
    assert "broken.py:1:10: SL001 syntax error: '(' was never closed" in out
    assert "bad.py:10:9: SL102" in out


def test_undecodable_and_binary_files(project: Path) -> None:
    (project / "latin.py").write_bytes(b"x = '\xff\xfe'\n")
    (project / "blob.py").write_bytes(b"\x00\x01\x02rrule")
    code, out = run(["check", "."], project)
    assert code == 2
    assert "latin.py:1:6: SL002 cannot decode as utf-8" in out  # at the bad byte
    assert "blob.py:1:1: SL002 binary file" in out
    assert "SL102" in out


def test_pep263_encoding_is_honoured(project: Path) -> None:
    text = "# -*- coding: latin-1 -*-\n# caf\xe9\n" + BAD_RULE
    (project / "latin1.py").write_bytes(text.encode("latin-1"))
    code, out = run(["check", "latin1.py"], project)
    assert code == 1 and "latin1.py:12:9: SL102" in out


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(project: Path) -> None:
    secret = project / "secret.py"
    secret.write_text(BAD_RULE, encoding="utf-8")
    secret.chmod(0)
    try:
        code, out = run(["check", "."], project)
    finally:
        secret.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert code == 2 and "secret.py:1:1: SL002 cannot read" in out


def test_missing_path(project: Path) -> None:
    code, out = run(["check", "nope.py", "bad.py"], project)
    assert code == 2
    assert "nope.py:1:1: SL002 no such file or directory" in out
    assert "SL102" in out


def test_stdin(project: Path) -> None:
    code, out = run(["check", "-", "--stdin-filename", "pkg/rule.py"], project, stdin=BAD_RULE.encode())
    assert code == 1
    assert "pkg/rule.py:10:9: SL102" in out


def test_stdin_syntax_error(project: Path) -> None:
    code, out = run(["check", "-"], project, stdin=b"def (:\n")
    assert code == 2 and "<stdin>:1:5: SL001 syntax error" in out


def test_pyproject_configuration(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.scalarlint]\nignore = ["SL101"]\nextend-rule-names = ["my_grad"]\n'
        '[tool.scalarlint.per-file-ignores]\n"skipme.py" = ["SL102"]\n',
        encoding="utf-8",
    )
    (project / "skipme.py").write_text(BAD_RULE, encoding="utf-8")
    (project / "custom.py").write_text("def my_grad(x):\n    n = len(x)\n    x[n - 1] = 0\n    return x\n", encoding="utf-8")
    code, out = run(["check", "."], project)
    assert code == 1
    assert "SL101" not in out
    assert "skipme.py" not in out
    assert "custom.py:3:5: SL102" in out  # a configured rule name
    assert "bad.py:10:9: SL102" in out


def test_bad_configuration_is_a_usage_error(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.scalarlint]\nscope = "everything"\n', encoding="utf-8")
    code, out = run(["check", "."], project)
    assert code == 2 and "scope must be" in out


def test_config_file_option(project: Path) -> None:
    cfg = project / "scalarlint.toml"
    cfg.write_text('select = ["SL101"]\n', encoding="utf-8")
    code, out = run(["check", "--config", str(cfg), "bad.py"], project)
    assert code == 1 and "SL101" in out and "SL102" not in out


def test_scope_all_checks_plain_functions(project: Path) -> None:
    (project / "plain.py").write_text(
        "import numpy as np\n\ndef helper(x: np.ndarray):\n    n = len(x)\n    return x[n - 1]\n", encoding="utf-8"
    )
    code, _ = run(["check", "plain.py"], project)
    assert code == 0
    code, out = run(["check", "--scope", "all", "plain.py"], project)
    assert code == 1 and "plain.py:5:12: SL101" in out


def test_gitignore_and_exclude(project: Path) -> None:
    (project / ".gitignore").write_text("generated/\n", encoding="utf-8")
    (project / "generated").mkdir()
    (project / "generated" / "g.py").write_text(BAD_RULE, encoding="utf-8")
    (project / "build").mkdir()
    (project / "build" / "b.py").write_text(BAD_RULE, encoding="utf-8")
    (project / "vendored").mkdir()
    (project / "vendored" / "v.py").write_text(BAD_RULE, encoding="utf-8")
    (project / "pyproject.toml").write_text('[tool.scalarlint]\nextend-exclude = ["vendored"]\n', encoding="utf-8")
    code, out = run(["check", "."], project)
    assert "bad.py" in out
    assert "g.py" not in out and "b.py:" not in out and "v.py" not in out
    code, out = run(["check", "generated/g.py"], project)  # named explicitly: checked
    assert code == 1 and "g.py:10:9" in out


def test_gitignore_that_keeps_only_folders_and_python_files(project: Path) -> None:
    """``*``, ``!*/``, ``!*.py``: git ignores every file but Python files and re-includes every
    folder, so the rule in ``asr/loss/`` is checked; a text file is not."""
    (project / ".gitignore").write_text("*\n!*/\n!*.py\n!.gitignore\n", encoding="utf-8")
    (project / "asr" / "loss").mkdir(parents=True)
    (project / "asr" / "loss" / "ctc.py").write_text(BAD_RULE, encoding="utf-8")
    code, out = run(["check", "--show-files", "."], project)
    assert "ctc.py" in out and "bad.py" in out
    code, out = run(["check", "."], project)
    assert code == 1 and "ctc.py:10:9" in out


def test_cross_module_helper_names_its_rule(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "helpers.py").write_text("def tail(x):\n    return x[len(x) - 1]\n", encoding="utf-8")
    (pkg / "rules.py").write_text(
        "from .helpers import tail\n\ndef rrule_tail(x):\n    return tail(x), None\n", encoding="utf-8"
    )
    code, out = run(["check", "--format", "json", "pkg"], tmp_path)
    data = json.loads(out)
    assert code == 1
    assert [(Path(d["filename"]).name, d["code"], d["rule"]) for d in data] == [("helpers.py", "SL101", "pkg.rules:rrule_tail")]


def test_columns_count_characters_not_bytes(project: Path) -> None:
    source = BAD_RULE.replace("dx[n - 1] = dy * x[n - 1]", "é = 1; dx[n - 1] = dy * x[n - 1]")
    (project / "uni.py").write_text(source, encoding="utf-8")
    code, out = run(["check", "uni.py"], project)
    assert "uni.py:10:16: SL102" in out


def test_explain() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["explain", "sl103"])
    assert result.exit_code == 0
    for heading in ("## What it flags", "## Why it hurts on a GPU", "## Example", "## What to write instead"):
        assert heading in result.output
    listing = runner.invoke(main, ["explain"])
    assert "SL107  host-sync" in listing.output and "(opt-in)" in listing.output
    assert runner.invoke(main, ["explain", "SL999"]).exit_code == 2


def test_real_subprocess(project: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "scalarlint", "check", "--format", "json", str(project)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert {d["code"] for d in json.loads(proc.stdout)} == {"SL101", "SL102"}


def test_parallel_run_matches_serial(tmp_path: Path) -> None:
    from scalarlint.config import Config
    from scalarlint.engine import PARALLEL_THRESHOLD, check_paths

    for i in range(PARALLEL_THRESHOLD + 4):
        (tmp_path / f"m{i}.py").write_text(BAD_RULE if i % 2 else GOOD_RULE, encoding="utf-8")
    serial = check_paths([tmp_path], Config(root=str(tmp_path)), jobs=1)
    parallel = check_paths([tmp_path], Config(root=str(tmp_path)), jobs=2)
    assert serial.diagnostics == parallel.diagnostics
    assert len(serial.diagnostics) == 2 * ((PARALLEL_THRESHOLD + 4) // 2)


def test_docs_checks_md_is_current() -> None:
    """docs/checks.md is ``scalarlint explain --all``; regenerate it when a check's doc changes."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "checks.md"
    result = CliRunner().invoke(main, ["explain", "--all", "--markdown"])
    assert docs.read_text(encoding="utf-8") == result.output
    assert '<a id="sl103"></a>' in result.output


def test_unsafe_fixes_are_announced_not_shown(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "norm_inf_pullback.py"
    code, out = run(["check", str(example)], tmp_path)
    assert code == 1
    assert "2 more fixable with `--fix --unsafe-fixes`" in out  # the search, and its read (a host copy, the fallback)
    code, out = run(["check", "--unsafe-fixes", str(example)], tmp_path)
    assert "SL103 [*]" in out and "more fixable" not in out


def test_unreadable_entry_is_reported_and_the_run_goes_on(project: Path) -> None:
    """A dangling symlink stands in for an unreadable file (root can read anything)."""
    (project / "dangling.py").symlink_to(project / "missing-target.py")
    code, out = run(["check", "."], project)
    assert code == 2
    assert "dangling.py:1:1: SL002 cannot read" in out
    assert "bad.py:10:9: SL102" in out


def test_readme_quickstart_output_is_current(tmp_path: Path) -> None:
    """The README shows the example's report; keep it what the tool prints."""
    root = Path(__file__).resolve().parents[2]
    code, out = run(["check", "examples/norm_inf_pullback.py"], root)
    assert code == 1
    assert out.strip() in (root / "README.md").read_text(encoding="utf-8")


HOSTILE: dict[str, bytes | None] = {
    "unknown_cookie.py": b"# -*- coding: klingon -*-\nx = 1\n",
    "bom_and_cookie.py": b"\xef\xbb\xbf# -*- coding: latin-1 -*-\nx = 1\n",
    "deep.py": ("x = " + "(" * 1000 + "1" + ")" * 1000 + "\n").encode(),
    "long_expression.py": ("x = " + " + ".join(["1"] * 100_000) + "\n").encode(),
    "nul.py": b"x = 1\x00\n",
}
"""Files that cannot be checked: each is reported for itself and the run goes on."""


def test_hostile_files_are_reported_one_by_one(tmp_path: Path) -> None:
    for name, data in HOSTILE.items():
        (tmp_path / name).write_bytes(data)  # type: ignore[arg-type]
    (tmp_path / "loop_a.py").symlink_to("loop_b.py")
    (tmp_path / "loop_b.py").symlink_to("loop_a.py")
    os.mkfifo(tmp_path / "pipe.py")  # never opened: reading it would block the run
    (tmp_path / "folder.py").mkdir()
    (tmp_path / "cr_only.py").write_bytes(BAD_RULE.replace("\n", "\r").encode())
    (tmp_path / "form feed é.py").write_bytes(("\x0c\n" + BAD_RULE).encode())
    code, out = run(["check", "."], tmp_path)
    assert code == 2
    for name in [*HOSTILE, "loop_a.py", "loop_b.py", "pipe.py"]:
        assert re.search(rf"{re.escape(name)}:\d+:\d+: SL00[12] ", out), name
    assert "pipe.py:1:1: SL002 not a regular file" in out
    assert "Too many levels of symbolic links" in out
    assert "cr_only.py:" in out and "SL10" in out.split("cr_only.py:", 1)[1].splitlines()[0]
    assert "form feed é.py:" in out  # a space and a non-ASCII name, checked like any other
    assert "folder.py" not in out  # a folder named like a module is walked, not read


def test_named_fifo_is_reported_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    code, out = run(["check", "pipe.py"], tmp_path)
    assert code == 2 and "pipe.py:1:1: SL002 not a regular file" in out
