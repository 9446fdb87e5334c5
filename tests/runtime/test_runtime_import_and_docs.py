"""scalarlint.runtime stays import-light; the user guide's example runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("libcst", "astroid", "click", "pygls", "scalarlint.checks", "scalarlint.analysis",
         "scalarlint.cli", "scalarlint.engine", "scalarlint.fixers")


def _loaded_after(statement: str) -> set[str]:
    probe = f"import sys; {statement}; print('\\n'.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(result.stdout.split())


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_runtime_imports_neither_the_checker_nor_its_dependencies() -> None:
    modules = _loaded_after("import scalarlint.runtime")
    assert _heavy(modules) == []
    assert "array_api_compat" not in modules  # NumPy only
    assert not any(m in ("torch", "cupy", "jax", "jaxlib") for m in modules)


def test_testing_helpers_import_neither_the_checker_nor_its_dependencies() -> None:
    modules = _loaded_after("import scalarlint.testing")
    assert _heavy(modules) == []
    assert "pytest" not in modules  # imported only to skip


def _doc_example() -> str:
    text = (ROOT / "docs" / "runtime.md").read_text()
    assert text.startswith("## Testing your rules on a GPU-like array")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    return blocks[0]


def test_user_guide_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(_doc_example(), str(ROOT / "docs" / "runtime.md"), "exec"), {"__name__": "doc_example"})
    assert capsys.readouterr().out.splitlines() == ["getindex x[0] (5,)", "[ 0. -1.  0.  0.  0.]"]
