"""Which files a run checks: Python files under the given paths, minus excluded and ignored ones.

Explicitly named files are always checked (as ruff does); folders are walked with the
``exclude`` patterns and every ``.gitignore`` on the way applied (pathspec's git-wildmatch).
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

import pathspec

from scalarlint.config import Config
from scalarlint.diagnostics import FileError


def _excluded(rel: str, name: str, patterns: tuple[str, ...]) -> bool:
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        if fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch(rel, pattern) or rel.startswith(pattern + "/"):
            return True
    return False


def _gitignore(folder: Path) -> pathspec.GitIgnoreSpec | None:
    ignore = folder / ".gitignore"
    if not ignore.is_file():
        return None
    try:
        return pathspec.GitIgnoreSpec.from_lines(ignore.read_text(encoding="utf-8", errors="replace").splitlines())
    except Exception:
        return None


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


def _walk(top: Path, root: Path, patterns: tuple[str, ...], use_gitignore: bool, problems: list[FileError]) -> list[Path]:
    """Python files below ``top``. Each folder is resolved once and its ``.gitignore`` read once;
    an entry's real path is its folder's plus its name unless the entry is a symbolic link
    (resolving every file walks every component of its path: most of a large tree's cost)."""
    out: list[Path] = []

    def unreadable(error: OSError) -> None:  # a folder os.walk cannot list: say so, go on
        problems.append(FileError(str(error.filename or top), f"cannot read folder: {error.strerror or error}"))

    top_real = _resolved(top)
    above: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
    if use_gitignore:  # .gitignore files above the walked folder, up to the config root
        for folder in reversed([top_real, *top_real.parents]):
            if root in (folder, *folder.parents) or folder == top_real:
                spec = _gitignore(folder)
                if spec is not None:
                    above.append((folder, spec))
    specs_of: dict[str, list[tuple[Path, pathspec.GitIgnoreSpec]]] = {}
    for dirpath, dirnames, filenames in os.walk(top, onerror=unreadable):
        current = Path(dirpath)
        here = _resolved(current)
        specs = list(specs_of.get(os.path.dirname(dirpath), above))
        if use_gitignore and here != top_real:
            spec = _gitignore(current)
            if spec is not None:
                specs.append((here, spec))
        specs_of[dirpath] = specs

        def ignored(name: str, is_dir: bool) -> bool:
            path = current / name
            real = _resolved(path) if os.path.islink(path) else here / name
            try:
                rel = real.relative_to(root).as_posix()
            except ValueError:
                rel = path.as_posix()
            if _excluded(rel, name, patterns):
                return True
            for base, spec in specs:
                try:
                    sub = real.relative_to(base).as_posix()
                except ValueError:
                    continue
                if spec.match_file(sub + ("/" if is_dir else "")):
                    return True
            return False

        dirnames[:] = sorted(d for d in dirnames if not ignored(d, True))
        for name in sorted(filenames):
            # stubs (.pyi) have no bodies to check; notebooks are checked cell by cell
            if name.endswith((".py", ".ipynb")) and not ignored(name, False):
                out.append(current / name)
    return out
