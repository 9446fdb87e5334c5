"""Start-up: a check of code without AD rules pays for reading it, not for the analysis and
fixer machinery (libcst is imported only when a file has something to analyse)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _modules_after_check(path: Path) -> set[str]:
    code = (
        "import sys\n"
        "from scalarlint.cli import main\n"
        "try:\n"
        f"    main(['check', {str(path)!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(run.stderr.split())


def test_a_file_without_rules_is_checked_without_libcst(tmp_path: Path) -> None:
    clean = tmp_path / "plain.py"
    clean.write_text("import numpy as np\n\n\ndef f(x):\n    return x + 1\n", encoding="utf-8")
    assert "libcst" not in _modules_after_check(clean)


def test_a_file_with_a_rule_is_analysed_with_libcst(tmp_path: Path) -> None:
    rule = tmp_path / "rule.py"
    rule.write_text("def rrule_f(x):\n    def f_pullback(dy):\n        return (dy,)\n\n    return x, f_pullback\n", encoding="utf-8")
    assert "libcst" in _modules_after_check(rule)  # the control: the probe does see imports
