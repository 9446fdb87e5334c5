"""Record mode and the join, end to end: a small project, its own tests, the record, the report.

``pytest --scalarlint-record rec.json`` runs the project's tests strictly without failing them
and writes every scalar access; ``scalarlint check --runtime rec.json`` marks the findings
confirmed / ran clean / not run and lists what the checker missed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scalarlint.pytest_plugin import _installed

import samples  # tests/integrations is on sys.path (pytest's default import mode)

OPS = "import numpy as np\n" + samples.TORCH_LOOP_SQUARE + '''\


class Hidden(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sum()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * torch.ones_like(x) * _scale(x)


def _scale(x):
    return 2.0 if x.max() > 100 else 1.0


def rrule_square(x):
    def square_pullback(dy):
        dx = x * 0
        for i in range(x.shape[0]):
            dx[i] = 2 * x[i] * dy[i]
        return (dx,)

    return x * x, square_pullback
'''

TESTS = '''\
import numpy as np
import torch

from scalarlint.runtime import strict, to_host
from pkg.ops import Hidden, LoopSquare, rrule_square


def test_loop():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    LoopSquare.apply(x).backward()
    torch.testing.assert_close(x.grad, 2 * x.detach())


def test_loop_on_nothing():
    x = torch.zeros(0, requires_grad=True)
    LoopSquare.apply(x).backward()


def test_hidden():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    Hidden.apply(x).backward()


def test_strict_array_rule():
    y, pullback = rrule_square(strict(np.array([1.0, 2.0, 3.0])))
    (dx,) = pullback(strict(np.ones(3)))
    assert to_host(dx).tolist() == [2.0, 4.0, 6.0]
'''

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not _installed("torch"), reason="the project under test uses torch")]


@pytest.fixture(scope="module")
def recorded_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The project and its record run (a subprocess: PyTorch cannot be imported twice in one
    process, which in-process pytester runs would need)."""
    root = tmp_path_factory.mktemp("project")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "ops.py").write_text(OPS)
    (root / "tests").mkdir()
    (root / "tests" / "test_ops.py").write_text(TESTS)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:asyncio", "-p", "no:cacheprovider", "--rootdir", str(root),
         "--scalarlint-record", "rec.json", "tests"],
        cwd=root, capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert result.returncode == 0, result.stdout + result.stderr  # recorded, not raised
    assert "4 passed" in result.stdout
    assert "disallow_scalar() around every test, recording to rec.json" in result.stdout
    return root, (root / "rec.json").read_text()


@pytest.fixture
def recorded(recorded_once: tuple[Path, str]) -> tuple[Path, dict[str, Any]]:
    root, text = recorded_once
    (root / "rec.json").write_text(text)  # a test may have replaced it
    return root, json.loads(text)


def _site(data: dict[str, Any], line: int, code: str) -> dict[str, Any]:
    found = [s for s in data["sites"] if s["line"] == line and s["code"] == code]
    assert len(found) == 1, data["sites"]
    return found[0]


def test_the_record_lists_every_access_in_the_projects_files(recorded: tuple[Path, dict[str, Any]]) -> None:
    root, data = recorded
    assert data["version"] == 1 and data["tests"] == 4 and data["lines_traced"]
    assert {s["path"] for s in data["sites"]} == {"pkg/ops.py"}  # not torch's, not the tests' assert_close
    read = _site(data, 16, "SL101")
    assert read == {
        "path": "pkg/ops.py", "line": 16, "function": "LoopSquare.backward", "function_line": 11,
        "operation": "getindex x[...]", "code": "SL101", "count": 2, "tests": ["tests/test_ops.py::test_loop"],
    }
    assert _site(data, 16, "SL102")["count"] == 2
    assert _site(data, 33, "SL105")["function"] == "_scale"  # the helper's bool(), through backward
    strict_read = _site(data, 40, "SL101")  # the StrictArray rule, recorded the same way: x[i] and dy[i]
    assert strict_read["count"] == 6 and strict_read["function"] == "rrule_square.<locals>.square_pullback"
    assert _site(data, 40, "SL102")["count"] == 3
    assert 15 in data["lines_run"]["pkg/ops.py"]


def _check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scalarlint", "check", "--no-cache", "pkg", "--runtime", "rec.json", *args],
                          cwd=root, capture_output=True, text=True, timeout=120)


def test_check_runtime_marks_confirmed_and_lists_what_it_missed(recorded: tuple[Path, dict[str, Any]]) -> None:
    root, _ = recorded
    result = _check(root, "--format", "json")
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)
    by_line = {(f["location"]["row"], f["code"]): f["runtime"] for f in findings}
    assert by_line[(16, "SL101")] == "confirmed" and by_line[(16, "SL102")] == "confirmed"
    assert by_line[(15, "SL104")] == "confirmed"  # the loop's body made the accesses
    assert by_line[(40, "SL101")] == "confirmed" and by_line[(39, "SL104")] == "confirmed"
    assert all(status == "confirmed" for status in by_line.values())
    assert "pkg/ops.py:33: seen at runtime, not reported" in result.stderr
    assert "tests/test_ops.py::test_hidden" in result.stderr
    summary = [line for line in result.stderr.splitlines() if line.startswith("Runtime (4 tests)")]
    assert summary and "recall estimate" in summary[0]


def test_runtime_findings_turn_the_misses_into_findings(recorded: tuple[Path, dict[str, Any]]) -> None:
    root, _ = recorded
    result = _check(root, "--runtime-findings")
    assert "pkg/ops.py:33:1: SL105 seen at runtime, not reported: bool()" in result.stdout
    assert "[runtime: seen at runtime, not reported]" in result.stdout
    assert "[runtime: confirmed]" in result.stdout
    assert "Runtime (4 tests):" in result.stdout


def test_a_finding_on_a_line_that_ran_clean_and_one_never_run(recorded: tuple[Path, dict[str, Any]]) -> None:
    root, data = recorded
    only_empty = dict(data, sites=[], tests=1)  # as if only test_loop_on_nothing had run
    only_empty["lines_run"] = {"pkg/ops.py": [11, 12, 13, 14, 15, 17]}  # the loop header ran, its body never
    (root / "rec.json").write_text(json.dumps(only_empty))
    findings = json.loads(_check(root, "--format", "json").stdout)
    status = {(f["location"]["row"], f["code"]): f["runtime"] for f in findings}
    assert status[(15, "SL104")] == "ran clean"
    assert status[(16, "SL101")] == "not run"


def test_sarif_carries_the_status_in_properties(recorded: tuple[Path, dict[str, Any]]) -> None:
    root, _ = recorded
    sarif = json.loads(_check(root, "--format", "sarif").stdout)
    assert {r["properties"]["runtime"] for r in sarif["runs"][0]["results"]} == {"confirmed"}


def test_a_bad_record_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "rec.json").write_text("{not json")
    (tmp_path / "m.py").write_text("x = 1\n")
    result = subprocess.run([sys.executable, "-m", "scalarlint", "check", "m.py", "--runtime", "rec.json"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "cannot read the runtime record" in result.stderr
