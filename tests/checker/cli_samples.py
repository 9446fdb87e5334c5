"""What the CLI tests share: the rule with one scalar read and one scalar write (``BAD_RULE``,
from ``tests/rule_samples.py``) and an in-process CLI runner."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from rule_samples import BAD_RULE  # noqa: F401  (re-exported for the CLI tests)

from scalarlint.cli import main


def run_cli(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """``scalarlint ARGS`` in-process from ``cwd``: exit code, stdout, stderr."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr
