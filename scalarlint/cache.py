"""The on-disk cache: what a run learnt about a file, reused while nothing it depends on changed.

Three kinds of entry, each keyed by a digest of everything that can change it:

* ``index``: a file's first pass (``ModuleIndex``, or the ``FileError`` of a file that does
  not parse), keyed by the file's path and bytes, the settings that name rules, and the
  checker's own fingerprint.
* ``findings``: a file's second pass (its diagnostics, fixes included), keyed by its bytes, the
  *targets* the project gives it (which functions are checked and which rule reaches them), the
  settings and the checker. A helper edited elsewhere changes only the targets of the files it
  reaches, so only those are analysed again.
* ``run``: a whole run, keyed by every file's path and content digest: a second run with
  nothing changed reads one entry.

Entries that depend on more than their key (a fix is display-only unless the project declares
scalarlint: ``fixers.runtime_dependency``) carry the modification stamps of those files and are
ignored when a stamp moved. Unlike ruff, files with findings are cached too.

Safety: each entry is written to a temporary file and renamed into place, so concurrent runs
and interrupted writes never leave a half-written entry under a real name. An entry starts with
a magic line and its own key; an entry that is truncated, garbled, of another version or filed
under another key is ignored (and overwritten), never trusted. Entries are unpickled with an
allow-list of scalarlint's own data classes, so a planted file cannot run code.

The checker's fingerprint is its version plus the size and modification time of every module
of the ``scalarlint`` and ``fixers`` packages: an edited checker (an editable install) never
reads results of the old one.

Where: per user, ``$XDG_CACHE_HOME/scalarlint``, unlike ruff's per-project ``.ruff_cache``
(``cache-dir = ".scalarlint_cache"`` gives that layout). Every key holds the file's absolute
path or its content, so projects cannot read each other's entries, and one folder per user
means one bound for all of them (``cache_limits``), nothing to add to each repository's
``.gitignore``, and the editor server and the command line sharing what either computed, in
any folder of the project. A folder per project would have to be bounded project by project,
and would be left behind in every checkout.

Size: bounded by ``cache-max-mb`` and ``cache-max-days`` (``cache_limits``): a hit refreshes
an entry's modification time, and a run that wrote entries prunes the least recently used
ones now and then. ``scalarlint clean --stats`` says what the folder holds.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import io
import os
import pickle
import shutil
import tempfile
from dataclasses import fields
from pathlib import Path
from typing import Any

from scalarlint import __version__
from scalarlint.cache_limits import STAMP, Limits, due, prune
from scalarlint.config import Config

# 2: diagnostics carry ``confidence`` and ``evidence``; an entry of 1 would read back without them
MAGIC = b"scalarlint-cache 2\n"
KINDS = ("index", "findings", "run")
# Settings that do not change what a run finds (where the cache lives, how long a file may take,
# which findings a baseline holds back from the report).
_UNRELATED_SETTINGS = frozenset({"cache_dir", "cache_max_mb", "cache_max_days", "file_time_limit", "use_cache", "baseline"})
_ALLOWED_CLASSES = {
    ("scalarlint.diagnostics", name)
    for name in ("Diagnostic", "Location", "Edit", "Fix", "Severity", "Applicability", "Confidence", "FileError")
} | {
    ("scalarlint.analysis.module_index", name) for name in ("ModuleIndex", "FunctionEntry", "ClassEntry")
} | {("copyreg", "_reconstructor"), ("builtins", "object"), ("builtins", "set"), ("builtins", "frozenset")}


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/scalarlint``, else ``~/.cache/scalarlint`` (the XDG default)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "scalarlint"


def cache_dir_for(config: Config) -> Path:
    """The configured ``cache-dir`` (relative to the configuration's folder), else the default."""
    if config.cache_dir:
        chosen = Path(os.path.expanduser(config.cache_dir))
        return chosen if chosen.is_absolute() else Path(config.root) / chosen
    return default_cache_dir()


@functools.lru_cache(maxsize=1)
def _checker_fingerprint() -> str:
    """The version and the stamps of the checker's own modules (once per process: the code a
    process runs does not change under it)."""
    digest = hashlib.blake2b(__version__.encode(), digest_size=16)
    for package in _checker_folders():
        for folder, dirs, names in os.walk(package):
            dirs.sort()
            for name in sorted(names):
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    try:
                        info = os.stat(path)
                    except OSError:
                        continue
                    digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _checker_folders() -> list[str]:
    """The folders of ``scalarlint`` and ``scalarlint.fixers`` (installed from ``fixers/``),
    found without importing the fixers (and libcst)."""
    here = str(Path(__file__).resolve().parent)
    spec = importlib.util.find_spec("scalarlint.fixers")
    found = list(spec.submodule_search_locations or []) if spec is not None else []
    return [here, *(f for f in found if not f.startswith(here + os.sep))]


def watched_project_files(path: str) -> list[str]:
    """The packaging files whose content decides whether a fix in ``path`` may import scalarlint
    (``fixers.runtime_dependency``): an entry with fixes is stale when one of them changes."""
    from scalarlint.fixers.runtime_dependency import PROJECT_FILES, project_folder

    folder = project_folder(Path(path))
    if folder is None:
        return []
    return [str(folder / name) for name in PROJECT_FILES] + sorted(str(p) for p in folder.glob("requirements*.txt"))


def settings_fingerprint(config: Config) -> str:
    """Every setting that can change a finding, including the folder relative paths start at."""
    parts = [f"{f.name}={getattr(config, f.name)!r}" for f in fields(config) if f.name not in _UNRELATED_SETTINGS]
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=16).hexdigest()


def _helper_stamp(config: Config) -> str:
    """Size and time of the project's own ``allow-scalar-import`` module, where it is one: which
    fixes import from it depends on its version (``to_host`` came with v2), so a findings entry
    made before ``scalarlint vendor`` updated it must not be served after."""
    from scalarlint.vendored.locate import configured_file

    found = configured_file(config)
    try:
        info = os.stat(found) if found is not None else None
    except OSError:
        return ""
    return f"{found}\0{info.st_size}\0{info.st_mtime_ns}" if info is not None else ""


def content_digest(raw: bytes) -> str:
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


class _SafeUnpickler(pickle.Unpickler):
    """Only scalarlint's own data classes (and the builtins they are made of) may be rebuilt."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED_CLASSES:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a cache entry")
        return super().find_class(module, name)


def _stamps(paths: list[str]) -> tuple[tuple[str, int], ...]:
    out = []
    for path in paths:
        try:
            out.append((path, os.stat(path).st_mtime_ns))
        except OSError:
            out.append((path, -1))
    return tuple(out)


class NoCache:
    """What a run uses with ``--no-cache``: it answers nothing and keeps nothing, so a run has
    one code path with or without a cache."""

    enabled = False

    def key(self, kind: str, *parts: str) -> str:
        return ""

    def load(self, kind: str, key: str) -> None:
        return None

    def store(self, kind: str, key: str, value: Any, depends_on: list[str] = ()) -> None:  # type: ignore[assignment]
        return None

    def finish(self) -> None:
        return None


class Cache:
    """One cache folder, for one set of settings and one checker build."""

    enabled = True

    def __init__(self, root: Path, config: Config) -> None:
        self.root = root
        self.salt = f"{_checker_fingerprint()}\0{settings_fingerprint(config)}\0{config.scope}\0{_helper_stamp(config)}"
        self.hits = 0
        self.misses = 0
        self.write_errors = 0
        self.written = 0  # bytes this process stored (whether pruning is due)
        self.limits = Limits.of(config.cache_max_mb, config.cache_max_days)

    @classmethod
    def for_config(cls, config: Config) -> Cache:
        return cls(cache_dir_for(config), config)

    def key(self, kind: str, *parts: str) -> str:
        digest = hashlib.blake2b(kind.encode(), digest_size=20)
        digest.update(self.salt.encode())
        for part in parts:
            digest.update(b"\0")
            digest.update(part.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def _path(self, kind: str, key: str) -> Path:
        return self.root / kind / key[:2] / key

    def load(self, kind: str, key: str) -> Any | None:
        """The value stored under ``key``, or ``None`` when there is none or it cannot be trusted."""
        try:
            data = self._path(kind, key).read_bytes()
        except OSError:
            self.misses += 1
            return None
        head = MAGIC + key.encode() + b"\n"
        if not data.startswith(head):
            self.misses += 1
            return None
        try:
            value, depends_on = _SafeUnpickler(io.BytesIO(data[len(head):])).load()
        except Exception:  # noqa: BLE001  # truncated, garbled or foreign: a miss, rewritten by this run
            self.misses += 1
            return None
        if not isinstance(depends_on, tuple) or _stamps([p for p, _ in depends_on]) != depends_on:
            self.misses += 1
            return None
        self.hits += 1
        with contextlib.suppress(OSError):  # used now: the age bound counts from the last use
            os.utime(self._path(kind, key))
        return value

    def store(self, kind: str, key: str, value: Any, depends_on: list[str] = ()) -> None:  # type: ignore[assignment]
        """Write atomically: a temporary file in the entry's folder, renamed over the name.
        A cache that cannot be written is not an error: the run just does not leave one."""
        path = self._path(kind, key)
        try:
            payload = pickle.dumps((value, _stamps(list(depends_on))), protocol=pickle.HIGHEST_PROTOCOL)
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(MAGIC + key.encode() + b"\n" + payload)
                os.replace(temporary, path)
                self.written += len(payload)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            self.write_errors += 1


    def finish(self) -> None:
        """At the end of a run: prune the folder when this run wrote entries and it is due
        (``cache_limits.due``). Never an error: a cache that cannot be pruned stays as it is."""
        if self.written and due(self.root, self.written, self.limits):
            with contextlib.suppress(OSError):
                prune(self.root, self.limits)


def clean(root: Path) -> bool:
    """Remove a cache folder; ``False`` when there was none. Refuses a folder that is not a
    scalarlint cache (no entry folders), so a mistyped setting cannot delete someone's files."""
    if not root.exists():
        return False
    known = {p.name for p in root.iterdir()} if root.is_dir() else set()
    if known - set(KINDS) - {"CACHEDIR.TAG", STAMP}:
        raise ValueError(f"{root} does not look like a scalarlint cache (it holds {', '.join(sorted(known - set(KINDS)))}); not removed")
    shutil.rmtree(root)
    return True


def tag_cache_dir(root: Path) -> None:
    """A ``CACHEDIR.TAG``, so backup tools skip the folder (as ruff and pip do)."""
    tag = root / "CACHEDIR.TAG"
    if tag.exists():
        return
    with contextlib.suppress(OSError):
        root.mkdir(parents=True, exist_ok=True)
        tag.write_text("Signature: 8a477f597d28d172789f06886806bc55\n# A scalarlint cache: see https://bford.info/cachedir/\n")
