"""A bug in the analysis costs the file it hit, reported as SL003 with the exception's name, and
the run goes on with the other files (ruff reports its panics per file the same way)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scalarlint.analysis.analyzer import FileAnalyzer
from scalarlint.config import Config
from scalarlint.engine import check_paths

RULE = '''\
def rrule_norm1(x):
    def norm1_pullback(dy):
        dx = xp.zeros_like(x)
        for i in range(len(x)):
            dx[i] = xp.sign(x[i]) * dy
        return (dx,)
    return xp.sum(xp.abs(x)), norm1_pullback
'''


def test_an_internal_error_is_sl003_for_its_file_and_the_run_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "broken.py").write_text(RULE, encoding="utf-8")
    (tmp_path / "fine.py").write_text(RULE, encoding="utf-8")
    real_run = FileAnalyzer.run

    def run(self: FileAnalyzer, targets: dict) -> list:  # type: ignore[type-arg]
        if self.source.path.endswith("broken.py"):
            raise AttributeError("'str' object has no attribute '_codegen'")
        return real_run(self, targets)

    monkeypatch.setattr(FileAnalyzer, "run", run)
    result = check_paths([tmp_path], Config(root=str(tmp_path)), jobs=1)
    errors = [(Path(e.filename).name, e.code, e.message) for e in result.errors]
    assert errors == [("broken.py", "SL003", "not checked: internal error AttributeError: 'str' object has no attribute '_codegen' (a scalarlint bug; please report it)")]
    assert {Path(d.filename).name for d in result.diagnostics} == {"fine.py"}
