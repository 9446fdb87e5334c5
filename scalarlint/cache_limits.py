"""Keeping the cache small: what it holds, and removing what is too old or too much.

Without a bound the cache only grows: every edit of a file, every settings change and every
new build of scalarlint files new entries and orphans the old ones (121 MB after one
afternoon of editing a large tree). Two bounds, both settings:

* ``cache-max-days`` (default 30): an entry not used for that long is removed. A hit
  refreshes an entry's modification time (``Cache.load``), so the age is time since last use,
  and entries of an old checker build or of settings no longer used age out.
* ``cache-max-mb`` (default 256): past that size, the least recently used entries are
  removed until the cache is at most ``LOW_WATER`` of it, so a cache at its bound is not
  pruned again on every run.

0 turns a bound off. Pruning runs at the end of a run that wrote entries, at most once per
``PRUNE_EVERY_S`` (a stamp file records the last one) unless the run alone wrote more than
``LOW_WATER``'s headroom, so a run pays for a walk of the cache rarely. Concurrent runs may
prune at once: an entry one removes is a miss for the other, never an error. Half-written
temporary files of an interrupted run are removed once an hour old.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("index", "findings", "run")  # as cache.KINDS (not imported: cache imports this module)
STAMP = "PRUNED"  # its modification time: the last prune
DEFAULT_MAX_MB = 256
DEFAULT_MAX_DAYS = 30
LOW_WATER = 0.8
PRUNE_EVERY_S = 3600
STALE_TEMPORARY_S = 3600
DESCRIPTIONS = {
    "index": "first passes of files (by path and content)",
    "findings": "findings of files (by content, reach and settings)",
    "run": "whole runs (by every file's path and content)",
}


@dataclass(frozen=True)
class Limits:
    """The bounds of one cache; 0: none."""

    max_bytes: int = DEFAULT_MAX_MB * 1_000_000
    max_age_s: float = DEFAULT_MAX_DAYS * 86_400

    @classmethod
    def of(cls, max_mb: float, max_days: float) -> Limits:
        return cls(int(max_mb * 1_000_000), max_days * 86_400)

    def describe(self) -> str:
        size = f"at most {_size(self.max_bytes)}" if self.max_bytes else "no size bound"
        age = f"entries unused for {self.max_age_s / 86_400:g} days are removed" if self.max_age_s else "no age bound"
        return f"{size}; {age}"


@dataclass(frozen=True)
class Entry:
    path: str
    kind: str
    size: int
    used: float  # modification time: when it was last written or read


@dataclass
class Holdings:
    """What a cache folder holds, per kind."""

    root: Path
    entries: list[Entry] = field(default_factory=list)
    temporary: list[Entry] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(e.size for e in self.entries)

    def by_kind(self, kind: str) -> tuple[int, int]:
        chosen = [e for e in self.entries if e.kind == kind]
        return len(chosen), sum(e.size for e in chosen)


@dataclass(frozen=True)
class Pruned:
    removed: int
    freed: int


def scan(root: Path) -> Holdings:
    """Every entry under ``root`` (none where there is no cache)."""
    holdings = Holdings(root)
    for kind in KINDS:
        for entry in _files(root / kind):
            target = holdings.temporary if os.path.basename(entry.path).startswith(".tmp-") else holdings.entries
            target.append(Entry(entry.path, kind, entry.size, entry.used))
    return holdings


def _files(folder: Path) -> Iterator[Entry]:
    try:
        shards = list(os.scandir(folder))
    except OSError:
        return
    for shard in shards:
        if not shard.is_dir(follow_symlinks=False):
            continue
        try:
            items = list(os.scandir(shard.path))
        except OSError:
            continue
        for item in items:
            with contextlib.suppress(OSError):
                if item.is_file(follow_symlinks=False):
                    info = item.stat(follow_symlinks=False)
                    yield Entry(item.path, "", info.st_size, info.st_mtime)


def prune(root: Path, limits: Limits, now: float | None = None) -> Pruned:
    """Remove the entries past ``limits`` (see the module's docstring) and stale temporary
    files; stamp the folder. What cannot be removed is left (another run may hold it)."""
    now = time.time() if now is None else now
    holdings = scan(root)
    doomed = [t for t in holdings.temporary if now - t.used > STALE_TEMPORARY_S]
    kept = holdings.entries
    if limits.max_age_s:
        doomed += [e for e in kept if now - e.used > limits.max_age_s]
        kept = [e for e in kept if now - e.used <= limits.max_age_s]
    total = sum(e.size for e in kept)
    if limits.max_bytes and total > limits.max_bytes:
        for entry in sorted(kept, key=lambda e: e.used):  # least recently used first
            if total <= limits.max_bytes * LOW_WATER:
                break
            doomed.append(entry)
            total -= entry.size
    removed = freed = 0
    for entry in doomed:
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
            removed += 1
            freed += entry.size
    stamp(root)
    return Pruned(removed, freed)


def stamp(root: Path) -> None:
    with contextlib.suppress(OSError):
        (root / STAMP).touch()


def due(root: Path, written: int, limits: Limits, now: float | None = None) -> bool:
    """Whether a run that wrote ``written`` bytes should prune: an hour since the last prune,
    or more written than the headroom below the size bound."""
    if not (limits.max_bytes or limits.max_age_s):
        return False
    if limits.max_bytes and written > limits.max_bytes * (1 - LOW_WATER):
        return True
    try:
        last = (root / STAMP).stat().st_mtime
    except OSError:
        return True
    return (time.time() if now is None else now) - last >= PRUNE_EVERY_S


def report(holdings: Holdings, limits: Limits, where: str) -> str:
    """``scalarlint clean --stats``: the folder, entries and size per kind, the bounds."""
    lines = [f"Cache at {holdings.root} ({where})"]
    for kind in KINDS:
        count, size = holdings.by_kind(kind)
        lines.append(f"  {kind:9} {count:>8} entries {_size(size):>10}   {DESCRIPTIONS[kind]}")
    lines.append(f"  {'total':9} {len(holdings.entries):>8} entries {_size(holdings.size):>10}   {limits.describe()}")
    if holdings.entries:
        newest = max(e.used for e in holdings.entries)
        oldest = min(e.used for e in holdings.entries)
        lines.append(f"  last used: newest {_when(newest)}, oldest {_when(oldest)}")
    if holdings.temporary:
        lines.append(f"  {len(holdings.temporary)} temporary files of unfinished writes ({_size(sum(t.size for t in holdings.temporary))})")
    return "\n".join(lines) + "\n"


def report_size(count: int) -> str:
    """A byte count in kB, MB or GB (decimal units, as the bound is set)."""
    return _size(count)


def _size(count: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} B"


def _when(stamp_s: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp_s))
