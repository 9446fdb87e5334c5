"""``scalarlint check --fix/--unsafe-fixes/--diff/--show-fixes`` end to end."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scalarlint.cli import main

RULE = '''\
"""A rule with one safe and one unsafe fix."""
import array_api_compat


def rrule_norm_inf(x):
    xp = array_api_compat.array_namespace(x)
    y = xp.max(xp.abs(x))
    total = sum(x.reshape(-1))  # safe: rank 1

    def norm_inf_pullback(dy):
        i = -1
        for j in range(len(x)):
            if abs(x[j]) == y:
                i = j
        dx = xp.zeros_like(x)
        dx[i] = xp.sign(x[i]) * dy
        return (dx * total,)

    return y, norm_inf_pullback
'''


def cli(*args: str, cwd: Path | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scalarlint.cli", *args], capture_output=True, text=True, cwd=cwd, input=stdin, check=False
    )


def invoke(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["check", "--no-color", *args], input=stdin, catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "rule.py").write_text(RULE, encoding="utf-8")
    return tmp_path


def test_fix_applies_safe_fixes_only(project: Path) -> None:
    path = project / "pkg" / "rule.py"
    result = invoke("--fix", "--show-fixes", str(path))
    text = path.read_text(encoding="utf-8")
    assert "total = xp.sum(x.reshape(-1))  # safe: rank 1" in text
    assert "for j in range(len(x)):" in text  # the search fix is unsafe
    assert result.exit_code == 1  # findings remain
    assert "Fixed 1 finding (4 remaining)." in result.output
    assert "    1 x SL104 (element-iteration)" in result.output
    # without --unsafe-fixes the remaining unsafe fix is not advertised
    assert "SL103 [*]" not in result.output and "SL103 findlast" in result.output


def test_unsafe_fixes_alone_shows_them_and_writes_nothing(project: Path) -> None:
    path = project / "pkg" / "rule.py"
    plain = invoke(str(path))
    shown = invoke("--unsafe-fixes", str(path))
    assert "SL103 [*]" not in plain.output and "SL104 [*]" in plain.output
    assert "SL103 [*]" in shown.output
    assert path.read_text(encoding="utf-8") == RULE
    as_json = json.loads(invoke("--format", "json", str(path)).output)
    assert {d["code"]: (d["fix"] or {}).get("applicability") for d in as_json}["SL103"] == "unsafe"


def test_fix_with_unsafe_fixes_clears_the_rule(project: Path) -> None:
    path = project / "pkg" / "rule.py"
    result = invoke("--fix", "--unsafe-fixes", str(path))
    assert result.exit_code == 0, result.output
    assert "All checks passed!" in result.output
    # the report marked 2 fixable (the search and the sum); the 3 uses of the index went with them
    assert "Fixed 2 findings (0 remaining).\n3 more went away with those fixes.\n" in result.output
    again = invoke("--fix", "--unsafe-fixes", str(path))
    assert again.exit_code == 0 and "Fixed" not in again.output


def test_diff_writes_nothing_and_exits_1(project: Path) -> None:
    path = project / "pkg" / "rule.py"
    result = cli("check", "--diff", "--unsafe-fixes", "pkg", cwd=project)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("--- ./pkg/rule.py\n+++ ./pkg/rule.py\n@@")
    assert "Would fix 2 findings in 1 file (3 more would go away with them)." in result.stderr
    assert path.read_text(encoding="utf-8") == RULE
    clean = cli("check", "--diff", str(project / "pkg"), "--select", "SL105")
    assert clean.returncode == 0 and clean.stdout == ""


VARIANTS = {
    "lf": (RULE, "utf-8"),
    "crlf": (RULE.replace("\n", "\r\n"), "utf-8"),
    "no-final-newline": (RULE.rstrip("\n"), "utf-8"),
    "bom": (RULE, "utf-8-sig"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("tool", ["patch", "git"])
def test_diff_applies_with_patch_and_git_apply(tmp_path: Path, variant: str, tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    text, encoding = VARIANTS[variant]
    (tmp_path / "pkg").mkdir()
    path = tmp_path / "pkg" / "rule.py"
    path.write_bytes(text.encode(encoding))
    expected_dir = tmp_path / "expected"
    shutil.copytree(tmp_path / "pkg", expected_dir / "pkg")
    assert cli("check", "--fix", "--unsafe-fixes", "pkg", cwd=expected_dir).returncode == 0
    expected = (expected_dir / "pkg" / "rule.py").read_bytes()
    diff = subprocess.run(
        [sys.executable, "-m", "scalarlint.cli", "check", "--diff", "--unsafe-fixes", "pkg"],
        capture_output=True, cwd=tmp_path, check=False,
    )
    assert diff.returncode == 1
    (tmp_path / "fix.diff").write_bytes(diff.stdout)
    if tool == "patch":
        applied = subprocess.run(["patch", "-p0", "--binary", "-i", "fix.diff"], capture_output=True, text=True, cwd=tmp_path, check=False)
    else:
        env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
        subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True, env=env)
        applied = subprocess.run(["git", "apply", "fix.diff"], capture_output=True, text=True, cwd=tmp_path, check=False, env=env)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert path.read_bytes() == expected
    assert expected != text.encode(encoding)


def test_stdin_fix_prints_the_fixed_source(project: Path) -> None:
    result = cli("check", "--fix", "--unsafe-fixes", "-", "--stdin-filename", "rule.py", stdin=RULE, cwd=project)
    assert result.returncode == 0, result.stderr
    assert "i = xp.where(xp.any(xp.abs(x) == y), len(x) - 1 - xp.argmax(xp.astype(xp.flip(xp.abs(x) == y), xp.int8)), -1)" in result.stdout
    assert "All checks passed!" in result.stderr


def test_file_changed_during_the_fix_is_an_error(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scalarlint.fixers import engine

    path = project / "pkg" / "rule.py"
    real = engine.fix_paths

    def racing(*args, **kwargs):
        run = real(*args, **kwargs)
        path.write_text(RULE + "# edited meanwhile\n", encoding="utf-8")
        return run

    monkeypatch.setattr(engine, "fix_paths", racing)
    result = invoke("--fix", str(path))
    assert result.exit_code == 2
    assert "changed on disk" in result.output
    assert path.read_text(encoding="utf-8").endswith("# edited meanwhile\n")


def test_excluded_corpus_is_checked_when_named(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.scalarlint]\nextend-exclude = ["tests/corpus"]\n', encoding="utf-8")
    corpus = tmp_path / "tests" / "corpus"
    corpus.mkdir(parents=True)
    (corpus / "rule.py").write_text(RULE, encoding="utf-8")
    walked = cli("check", ".", cwd=tmp_path)
    assert walked.returncode == 0 and "All checks passed! (0 files checked)" in walked.stdout
    named = cli("check", "--diff", "--unsafe-fixes", "tests/corpus/rule.py", cwd=tmp_path)
    assert named.returncode == 1 and "./tests/corpus/rule.py" in named.stdout


def test_repository_fixer_corpus_is_checked_when_passed_explicitly() -> None:
    corpus = Path(__file__).with_name("corpus")
    files = [str(p) for p in sorted(corpus.glob("*.py"))]
    result = invoke("--format", "json", "--exit-zero", *files)
    assert {Path(d["filename"]).name for d in json.loads(result.output)} == {Path(f).name for f in files}
