"""A cache that stays small: entries unused for ``cache-max-days`` and the least recently used
past ``cache-max-mb`` are removed, a hit counts as a use, and ``clean --stats`` says what the
folder holds."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from cli_samples import BAD_RULE, run_cli  # tests/checker is on sys.path (pytest's default import mode)
from scalarlint.cache import Cache, settings_fingerprint
from scalarlint.cache_limits import LOW_WATER, STAMP, Limits, due, prune, scan
from scalarlint.config import Config
from scalarlint.engine import check_paths

DAY = 86_400.0


def _entry(root: Path, kind: str, name: str, size: int, age_days: float, now: float) -> Path:
    path = root / kind / name[:2] / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    os.utime(path, (now - age_days * DAY, now - age_days * DAY))
    return path


def test_entries_unused_for_longer_than_the_age_bound_are_removed(tmp_path: Path) -> None:
    now = time.time()
    old = _entry(tmp_path, "findings", "aa01", 10, 31, now)
    recent = _entry(tmp_path, "index", "bb01", 10, 29, now)
    result = prune(tmp_path, Limits(max_bytes=0, max_age_s=30 * DAY), now)
    assert (result.removed, result.freed) == (1, 10)
    assert not old.exists() and recent.exists() and (tmp_path / STAMP).exists()


def test_past_the_size_bound_the_least_recently_used_go_first_down_to_the_low_water_mark(tmp_path: Path) -> None:
    now = time.time()
    entries = [_entry(tmp_path, "index", f"{i:02d}ff", 100, age_days=10 - i, now=now) for i in range(10)]  # 1000 bytes
    prune(tmp_path, Limits(max_bytes=900, max_age_s=0), now)
    kept = [e.exists() for e in entries]
    assert sum(100 for k in kept if k) <= 900 * LOW_WATER
    assert kept == [False, False, False] + [True] * 7  # the three used longest ago
    assert prune(tmp_path, Limits(max_bytes=900, max_age_s=0), now).removed == 0  # under the bound now


def test_zero_turns_a_bound_off(tmp_path: Path) -> None:
    now = time.time()
    entry = _entry(tmp_path, "run", "cc01", 1000, 400, now)
    assert prune(tmp_path, Limits(max_bytes=0, max_age_s=0), now).removed == 0 and entry.exists()
    assert not due(tmp_path, 10**9, Limits(0, 0), now)


def test_stale_temporary_files_are_removed_and_fresh_ones_kept(tmp_path: Path) -> None:
    now = time.time()
    stale = _entry(tmp_path, "index", ".tmp-old", 5, 1, now)
    fresh = _entry(tmp_path, "index", ".tmp-new", 5, 0, now)
    assert len(scan(tmp_path).temporary) == 2 and scan(tmp_path).entries == []
    prune(tmp_path, Limits(0, 0), now)
    assert not stale.exists() and fresh.exists()


def test_pruning_is_due_hourly_or_after_a_large_write(tmp_path: Path) -> None:
    limits = Limits(max_bytes=1000, max_age_s=DAY)
    now = time.time()
    assert due(tmp_path, 1, limits, now)  # never pruned
    (tmp_path / STAMP).touch()
    assert not due(tmp_path, 1, limits, now)
    assert due(tmp_path, 1000 * (1 - LOW_WATER) + 1, limits, now)  # more than the headroom
    assert due(tmp_path, 1, limits, now + 3601)


def test_a_hit_counts_as_a_use(tmp_path: Path) -> None:
    cache = Cache(tmp_path, Config())
    key = cache.key("index", "a.py")
    cache.store("index", key, {"k": 1})
    path = next((tmp_path / "index").rglob(key))
    long_ago = time.time() - 40 * DAY
    os.utime(path, (long_ago, long_ago))
    assert cache.load("index", key) == {"k": 1}
    assert path.stat().st_mtime > long_ago + DAY
    assert prune(tmp_path, Limits(max_bytes=0, max_age_s=30 * DAY)).removed == 0


def test_a_run_prunes_what_it_no_longer_uses(tmp_path: Path) -> None:
    project, cache_dir = tmp_path / "p", tmp_path / "cache"
    project.mkdir()
    (project / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    config = Config(root=str(project), cache_dir=str(cache_dir))
    check_paths([project], config, jobs=1, cache=Cache.for_config(config))
    first = {e.path for e in scan(cache_dir).entries}
    long_ago = time.time() - 40 * DAY
    for path in first:
        os.utime(path, (long_ago, long_ago))
    (cache_dir / STAMP).unlink()
    (project / "bad.py").write_text(BAD_RULE + "\nx = 1\n", encoding="utf-8")  # new entries are written
    check_paths([project], config, jobs=1, cache=Cache.for_config(config))
    left = {e.path for e in scan(cache_dir).entries}
    assert left and not left & first  # the first run's entries (the old bytes) were unused 40 days
    assert (cache_dir / STAMP).exists()


def test_the_bounds_do_not_change_what_a_cache_answers() -> None:
    assert settings_fingerprint(Config()) == settings_fingerprint(Config(cache_max_mb=1, cache_max_days=1))


def test_clean_stats_says_what_the_cache_holds_and_removes_nothing(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    (tmp_path / "scalarlint.toml").write_text('cache-dir = "c"\ncache-max-mb = 50\ncache-max-days = 7\n', encoding="utf-8")
    assert run_cli(["check", "bad.py"], tmp_path)[0] == 1
    code, out, _ = run_cli(["clean", "--stats"], tmp_path)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"Cache at {(tmp_path / 'c').resolve()} (the cache-dir setting)"
    counts = {line.split()[0]: int(line.split()[1]) for line in lines[1:5]}
    assert counts["index"] == 1 and counts["findings"] == 1 and counts["run"] == 1 and counts["total"] == 3
    assert "at most 50.0 MB; entries unused for 7 days are removed" in lines[4]
    assert (tmp_path / "c" / "index").is_dir()
    # and clean still removes a folder that holds the prune stamp
    code, out, _ = run_cli(["clean"], tmp_path)
    assert code == 0 and out.startswith("Removed ") and not (tmp_path / "c").exists()


def test_clean_prune_applies_the_bounds_now(tmp_path: Path) -> None:
    cache = tmp_path / "c"
    now = time.time()
    _entry(cache, "index", "aa01", 10, 60, now)
    _entry(cache, "index", "bb01", 10, 1, now)
    (tmp_path / "scalarlint.toml").write_text('cache-dir = "c"\n', encoding="utf-8")
    code, out, _ = run_cli(["clean", "--prune"], tmp_path)
    assert code == 0 and out.startswith("Removed 1 entries (10 B) past the bounds.\n")
    assert "  total            1 entries" in out


@pytest.mark.parametrize("setting", ["cache-max-mb = -1", 'cache-max-days = "week"', "cache-max-mb = true"])
def test_a_bad_bound_names_its_line(tmp_path: Path, setting: str) -> None:
    (tmp_path / "bad.py").write_text(BAD_RULE, encoding="utf-8")
    (tmp_path / "scalarlint.toml").write_text(f'scope = "rules"\n{setting}\n', encoding="utf-8")
    code, _, err = run_cli(["check", "bad.py"], tmp_path)
    assert code == 2 and f"scalarlint.toml:2: {setting.split()[0]} must be a number, 0 or more" in err
