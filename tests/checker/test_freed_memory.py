"""When a checking process hands freed pages back to the system: after a large file and after
each cyclic pass, not after every small file (the next one would fault the same pages in)."""

from __future__ import annotations

import pytest

from scalarlint import file_passes


@pytest.fixture
def trims(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The hand-backs of ``_collect_garbage_after``, under ``quiet_gc(collect_after_file=True)``
    (its state set directly: the test's process keeps its own collector settings)."""
    seen: list[str] = []
    monkeypatch.setitem(file_passes._COLLECT, "after_file", True)
    monkeypatch.setitem(file_passes._COLLECT, "pending_lines", 0)
    monkeypatch.setattr(file_passes, "_return_freed_memory", lambda: seen.append("trim"))
    return seen


def test_a_small_file_keeps_its_pages(trims: list[str]) -> None:
    file_passes._collect_garbage_after(file_passes.TRIM_LINES - 1)
    assert trims == []


def test_a_large_file_hands_its_pages_back(trims: list[str]) -> None:
    file_passes._collect_garbage_after(file_passes.TRIM_LINES)
    assert trims == ["trim"]


def test_small_files_adding_up_to_a_collection_hand_back_after_it(trims: list[str]) -> None:
    small = file_passes.TRIM_LINES - 1
    for _ in range(file_passes.COLLECT_EVERY_LINES // small):
        file_passes._collect_garbage_after(small)
    assert trims == []
    assert file_passes._COLLECT["pending_lines"] < file_passes.COLLECT_EVERY_LINES
    file_passes._collect_garbage_after(small)  # the cyclic pass, then the hand-back
    assert trims == ["trim"]
    assert file_passes._COLLECT["pending_lines"] == 0


def test_nothing_happens_outside_a_checking_run(trims: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(file_passes._COLLECT, "after_file", False)
    file_passes._collect_garbage_after(10 * file_passes.COLLECT_EVERY_LINES)
    assert trims == []
