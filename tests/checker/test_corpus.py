"""Every corpus file is checked and must produce exactly the findings its comments announce.

A line ending in ``# expect: SL101 SL102`` must yield exactly those codes on that line;
every other line must yield nothing. Fixit's VALID/INVALID idea, one file per AD-rule style.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scalarlint.config import Config
from scalarlint.engine import check_paths

from expect_comments import EXPECT, EXPECT_SL107, expected  # tests/ is on the path through its conftest

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def found(paths: list[Path], config: Config) -> dict[Path, set[tuple[int, str]]]:
    result = check_paths(paths, config, jobs=1)
    assert result.errors == []
    out: dict[Path, set[tuple[int, str]]] = {}
    for d in result.diagnostics:
        out.setdefault(Path(d.filename).resolve(), set()).add((d.location.row, d.code))
    return out


CORPUS_FILES = sorted(p for p in CORPUS.rglob("*.py") if p.name != "sl107_opt_in.py")


@pytest.fixture(scope="module")
def default_run() -> dict[Path, set[tuple[int, str]]]:
    return found([CORPUS], Config(root=str(CORPUS)))


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_file(path: Path, default_run: dict[Path, set[tuple[int, str]]]) -> None:
    got = default_run.get(path.resolve(), set())
    want = expected(path, EXPECT)
    assert sorted(got - want) == [], "unexpected findings (false positives)"
    assert sorted(want - got) == [], "missed findings (false negatives)"


def test_corpus_has_both_valid_and_invalid_lines() -> None:
    total = sum(len(expected(p, EXPECT)) for p in CORPUS_FILES)
    codes = {code for p in CORPUS_FILES for _, code in expected(p, EXPECT)}
    assert total >= 25
    assert codes == {"SL101", "SL102", "SL103", "SL104", "SL105", "SL106"}


def test_sl107_is_opt_in() -> None:
    path = CORPUS / "sl107_opt_in.py"
    assert found([path], Config(root=str(CORPUS))).get(path.resolve(), set()) == set()
    opted = found([path], Config(root=str(CORPUS), select=("SL1",)))
    assert opted[path.resolve()] == expected(path, EXPECT_SL107)
