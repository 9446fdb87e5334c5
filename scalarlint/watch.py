"""``scalarlint check --watch``: check once, then again each time a checked file changes.

The file system is watched by ``watchfiles`` (the ``watch`` extra: native notifications,
inotify on Linux, with debouncing), not by a poll loop of our own. Each run is a whole
ordinary run, configuration included, so an edited ``scalarlint.toml`` applies at once and the
report is the one ``check`` would print; the cache makes a run after a one-file edit cost that
file and the files whose reach it changes.

The parts are apart so a test can drive them without the file system: ``relevant`` decides
whether one change concerns the check, ``WatchSession`` reruns on a batch of changes, and
``watch`` feeds it the batches (from ``watchfiles`` unless a test hands its own).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scalarlint.config import CONFIG_FILE_NAMES, DEFAULT_EXCLUDE

if TYPE_CHECKING:
    import threading

WATCHED_SUFFIXES = (".py", ".ipynb")
_OTHER_NAMES = frozenset({*CONFIG_FILE_NAMES, ".gitignore"})  # change which files are checked, or how
_NEVER = frozenset(p for p in DEFAULT_EXCLUDE if "*" not in p)  # .git, __pycache__, .venv, ...

Change = tuple[Any, str]  # (watchfiles.Change, path)


class WatchUnavailable(RuntimeError):
    """``watchfiles`` is not installed (it comes with the ``watch`` extra)."""


def relevant(change: Any, path: str) -> bool:
    """Whether a change to ``path`` can change the report: a Python file or notebook, a
    configuration file or a ``.gitignore``, outside the folders no run enters. (Excluded
    patterns are left to the run: a change there costs one cached run.) ``change``, the kind
    of change, does not matter: a deleted helper changes its callers' findings too."""
    parts = Path(path).parts
    if any(part in _NEVER or part.endswith(".egg-info") for part in parts[:-1]):
        return False
    name = parts[-1] if parts else ""
    return name.endswith(WATCHED_SUFFIXES) or name in _OTHER_NAMES


@dataclass
class WatchSession:
    """Runs ``run_once`` (one whole check; returns its exit code) at the start and again on
    each batch of changes with a relevant one; ``say`` tells the user why (stderr), and
    ``clear`` empties the terminal before a new report (a no-op where output is not one)."""

    run_once: Callable[[], int]
    say: Callable[[str], None]
    clear: Callable[[], None] = lambda: None
    last: int = 0
    runs: int = 0

    def start(self) -> int:
        self.say("Watching for changes (Ctrl-C to stop).")
        return self._run()

    def on_changes(self, changes: Iterable[Change]) -> bool:
        """Check again when a change in ``changes`` is relevant; whether it did."""
        paths = sorted({path for change, path in changes if relevant(change, path)})
        if not paths:
            return False
        self.clear()
        shown = ", ".join(_shown(p) for p in paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        self.say(f"File change detected ({shown}); checking again.")
        self._run()
        return True

    def _run(self) -> int:
        self.last = self.run_once()
        self.runs += 1
        return self.last


def _shown(path: str) -> str:
    """``path`` relative to the current folder when it lies below it, else as it is."""
    try:
        return Path(path).relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path


def watch(
    paths: list[Path], session: WatchSession, batches: Iterable[Iterable[Change]] | None = None,
    stop_event: threading.Event | None = None,
) -> int:
    """Run ``session`` on ``paths`` until interrupted (Ctrl-C, ``stop_event``) or until
    ``batches`` (a test's own changes, else ``watchfiles``') run out; the last run's exit code."""
    source = batches if batches is not None else _watchfiles(paths, stop_event)
    session.start()
    for batch in source:
        session.on_changes(batch)
    return session.last


def _watchfiles(paths: list[Path], stop_event: threading.Event | None) -> Iterable[Iterable[Change]]:
    try:
        import watchfiles
    except ImportError as exc:
        raise WatchUnavailable("--watch needs the watchfiles package: pip install 'scalarlint[watch]'") from exc
    # watchfiles' own filter would drop nothing we keep; ours keeps only what can change a report
    return watchfiles.watch(*paths, watch_filter=relevant, stop_event=stop_event, raise_interrupt=False)
