"""A rule with one scalar read and one scalar write, and a CLI runner, shared by the CLI tests."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from scalarlint.cli import main

BAD_RULE = '''\
from array_api_compat import array_namespace


def rrule_last(x):
    xp = array_namespace(x)
    n = len(x)

    def pullback(dy):
        dx = xp.zeros_like(x)
        dx[n - 1] = dy * x[n - 1]
        return (dx,)

    return x, pullback
'''


def run_cli(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """``scalarlint ARGS`` in-process from ``cwd``: exit code, stdout, stderr."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr
