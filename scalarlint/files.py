"""Which files a run checks: Python files under the given paths, minus excluded and ignored ones.

Explicitly named files are always checked (as ruff does); folders are walked with the
``exclude`` patterns and every ``.gitignore`` on the way applied (pathspec's git-wildmatch).
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

from scalarlint.config import Config
from scalarlint.diagnostics import FileError


class _Excludes:
    """The ``exclude`` patterns: an entry is excluded when its name or its path relative to the
    root matches one (shell-style), or its path lies below one. Compiled into one regex."""

    def __init__(self, patterns: tuple[str, ...]) -> None:
        stripped = [p.rstrip("/") for p in patterns]
        self.glob = re.compile("|".join(fnmatch.translate(os.path.normcase(p)) for p in stripped)) if stripped else None
        self.prefixes = tuple(p + "/" for p in stripped)

    def __call__(self, rel: str, name: str) -> bool:
        if self.glob is None:
            return False
        return bool(
            self.glob.match(os.path.normcase(name)) or self.glob.match(os.path.normcase(rel)) or rel.startswith(self.prefixes)
        )


class _GitIgnore:
    """A folder's ``.gitignore``: git's patterns, last match wins, behind one combined regex of
    every pattern. Most paths match none, and one search is far cheaper than pathspec trying
    each of a large project's hundred patterns.

    Plain last-match-wins, not pathspec's ``GitIgnoreSpec``: that one ranks a file pattern above
    a folder pattern, which keeps ``*`` / ``!*/`` / ``!*.py`` (ignore all but folders and Python
    files) ignoring every folder, where git re-includes them. Git's other rule, that nothing in
    an excluded folder comes back, holds because the walk never enters one."""

    def __init__(self, spec: pathspec.PathSpec) -> None:
        self.spec = spec
        alternatives = [
            _UNNAMED.sub("(?:", p.regex.pattern)
            for p in spec.patterns
            if getattr(p, "include", None) is not None and getattr(p, "regex", None) is not None
        ]
        self.any = re.compile("|".join(f"(?:{a})" for a in alternatives)) if alternatives else None

    def match_file(self, path: str) -> bool:
        if self.any is None or self.any.match(path) is None:
            return False
        return self.spec.match_file(path)


_UNNAMED = re.compile(r"\(\?P<\w+>")


def _gitignore(folder: Path) -> _GitIgnore | None:
    ignore = folder / ".gitignore"
    if not ignore.is_file():
        return None
    try:
        import pathspec  # here: checking named files never reads a .gitignore

        lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
        try:
            return _GitIgnore(pathspec.PathSpec.from_lines("gitignore", lines))
        except LookupError:  # pathspec before 1.0 names git's patterns "gitwildmatch"
            return _GitIgnore(pathspec.PathSpec.from_lines("gitwildmatch", lines))
    except Exception:
        return None


def patterns_from_cwd(patterns: tuple[str, ...], root: Path) -> tuple[str, ...]:
    """Command-line exclude patterns made relative to the configuration's ``root``, as the
    configured ones are: ruff reads a pattern given on the command line from the current
    folder. A pattern without a '/' matches a name anywhere and is kept as it is; so is one
    whose folder is not below the root (it can only match as written)."""
    try:
        here = Path.cwd().resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return patterns
    if here == ".":
        return patterns
    return tuple(f"{here}/{p.removeprefix('./')}" if "/" in p.rstrip("/") and not os.path.isabs(p) else p for p in patterns)


def discover(paths: list[Path], config: Config) -> tuple[list[Path], list[FileError]]:
    """(files to check, paths that do not exist or folders that cannot be read)."""
    root = Path(config.root).resolve()
    patterns = config.exclude + config.extend_exclude
    found: list[Path] = []
    problems: list[FileError] = []
    for path in paths:
        if not path.exists() and not path.is_symlink():
            problems.append(FileError(str(path), "no such file or directory"))
            continue
        if not path.is_dir():  # a named file is checked (or reported: a FIFO, a link loop)
            found.append(path)
            continue
        found.extend(_walk(path, root, patterns, config.respect_gitignore, problems))
    unique: dict[str, Path] = {}
    for path in found:
        unique.setdefault(os.path.normpath(str(path)), path)
    return sorted(unique.values(), key=lambda p: str(p)), problems


def _resolved(path: Path) -> Path:
    """``path.resolve()``, or its absolute form when it cannot be resolved (a symbolic-link
    loop): such a file is still listed, and reading it reports the loop for that file alone."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return Path(os.path.abspath(path))


def _prefix(folder: str) -> str:
    return folder if folder.endswith(os.sep) else folder + os.sep


def _below(path: str, prefix: str) -> str | None:
    """``path`` relative to the folder ``prefix`` (ending in a separator), with forward slashes;
    ``None`` when it is not below it. String work: pathlib's ``relative_to`` costs more than
    the whole match on a large tree."""
    if not path.startswith(prefix):
        return None
    rest = path[len(prefix) :]
    return rest if os.sep == "/" else rest.replace(os.sep, "/")


def _walk(top: Path, root: Path, patterns: tuple[str, ...], use_gitignore: bool, problems: list[FileError]) -> list[Path]:
    """Python files below ``top``. Each ``.gitignore`` is read once; an entry's real path is its
    folder's plus its name unless the entry is a symbolic link (resolving every path walks
    every component of it: that was most of a large tree's cost)."""
    out: list[Path] = []
    excluded = _Excludes(patterns)

    def unreadable(error: OSError) -> None:  # a folder os.walk cannot list: say so, go on
        problems.append(FileError(str(error.filename or top), f"cannot read folder: {error.strerror or error}"))

    top_real = _resolved(top)
    above: list[tuple[Path, _GitIgnore]] = []
    if use_gitignore:  # .gitignore files above the walked folder, up to the config root
        for folder in reversed([top_real, *top_real.parents]):
            if root in (folder, *folder.parents) or folder == top_real:
                spec = _gitignore(folder)
                if spec is not None:
                    above.append((folder, spec))
    root_prefix = _prefix(str(root))
    specs_of: dict[str, list[tuple[str, _GitIgnore]]] = {}
    real_of: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(top, onerror=unreadable):
        current = Path(dirpath)
        parent = os.path.dirname(dirpath)
        # os.walk does not enter linked folders: below the top, a folder's real path is its
        # parent's plus its name (no realpath per folder)
        here_str = os.path.join(real_of[parent], os.path.basename(dirpath)) if parent in real_of else str(top_real)
        real_of[dirpath] = here_str
        specs = list(specs_of.get(parent, [(_prefix(str(f)), s) for f, s in above]))
        if use_gitignore and here_str != str(top_real):
            spec = _gitignore(current)
            if spec is not None:
                specs.append((_prefix(here_str), spec))
        specs_of[dirpath] = specs

        def ignored(name: str, is_dir: bool) -> bool:
            path = os.path.join(dirpath, name)
            real = str(_resolved(Path(path))) if os.path.islink(path) else os.path.join(here_str, name)
            rel = _below(real, root_prefix)
            if excluded(Path(path).as_posix() if rel is None else rel, name):
                return True
            for prefix, spec in specs:
                sub = _below(real, prefix)
                if sub is not None and spec.match_file(sub + ("/" if is_dir else "")):
                    return True
            return False

        dirnames[:] = sorted(d for d in dirnames if not ignored(d, True))
        for name in sorted(filenames):
            # stubs (.pyi) have no bodies to check; notebooks are checked cell by cell
            if name.endswith((".py", ".ipynb")) and not ignored(name, False):
                out.append(current / name)
    return out
