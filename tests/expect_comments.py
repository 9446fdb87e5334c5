"""The ``# expect: SL101 SL102`` comments of the corpora and the per-check fixtures: which
(line, code) pairs a file must yield. Shared by ``tests/checker/test_corpus.py`` and
``tests/checks/test_check_fixtures.py`` (tests/ is on the path through its conftest)."""

from __future__ import annotations

import re
from pathlib import Path

EXPECT = re.compile(r"#\s*expect:\s*((?:SL\d{3}\s*)+)")
EXPECT_SL107 = re.compile(r"#\s*expect-sl107:\s*((?:SL\d{3}\s*)+)")


def expected(path: Path, pattern: re.Pattern[str]) -> set[tuple[int, str]]:
    """(line, code) for every code named by ``pattern``'s comments in ``path``."""
    out: set[tuple[int, str]] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = pattern.search(line)
        if match:
            out |= {(number, code) for code in match.group(1).split()}
    return out
