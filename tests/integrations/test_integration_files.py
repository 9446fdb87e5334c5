"""The files users copy: the pre-commit manifest and the code-scanning workflow still match the CLI.

Offline and fast: the manifest is read with pre-commit's own loader (the network test in
test_precommit.py runs it for real); the workflow's ``scalarlint check`` commands are run
through the CLI on a small project, and its SARIF is the file that would be uploaded.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from scalarlint.cli import main

yaml = pytest.importorskip("yaml", reason="PyYAML (a pre-commit dependency) is not installed")

REPO = Path(__file__).resolve().parents[2]


def test_pre_commit_manifest() -> None:
    clientlib = pytest.importorskip("pre_commit.clientlib", reason="pre-commit is not installed")
    hooks = {h["id"]: h for h in clientlib.load_manifest(str(REPO / ".pre-commit-hooks.yaml"))}
    assert set(hooks) == {"scalarlint", "scalarlint-fix"}
    assert hooks["scalarlint"]["entry"] == "scalarlint check"
    assert hooks["scalarlint-fix"]["entry"] == "scalarlint check --fix"
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python", "pyi", "jupyter"]  # notebooks and stubs too, as ruff's hooks
        assert hook["require_serial"] is True


def test_code_scanning_workflow_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workflow = yaml.safe_load((REPO / "docs" / "github-code-scanning.yml").read_text())
    steps = workflow["jobs"]["scalarlint"]["steps"]
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@"))
    assert workflow["jobs"]["scalarlint"]["permissions"]["security-events"] == "write"
    commands = [shlex.split(s["run"]) for s in steps if str(s.get("run", "")).startswith("scalarlint check")]
    assert len(commands) == 2

    (tmp_path / "rules.py").write_text(
        "import numpy as np\n\n\ndef abs_pullback(x, g):\n    dx = np.zeros_like(x)\n"
        "    for i in range(len(x)):\n        dx[i] = np.sign(x[i]) * g\n    return dx\n"
    )
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    sarif_run = runner.invoke(main, commands[0][1:], catch_exceptions=False)
    assert sarif_run.exit_code == 0, sarif_run.output  # --exit-zero: the upload step must run
    log = json.loads((tmp_path / upload["with"]["sarif_file"]).read_text())
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"SL101", "SL102", "SL104"}

    gate = runner.invoke(main, commands[1][1:], catch_exceptions=False)
    assert gate.exit_code == 1
    assert gate.stdout.startswith("::error file=rules.py,line=6,")  # the element loop, then its accesses on line 7
    assert "::error file=rules.py,line=7," in gate.stdout
