"""Write a fixed text back to its file without ever losing someone's work.

A file is read for a fix together with its modification time (``read_for_fix``), and
``write_atomic`` writes the fixed text only if the file on disk is still what was read: through
a temporary file in the same folder, keeping permissions, symbolic links and hard links.
"""

from __future__ import annotations

import glob
import os
import stat
import tempfile
from pathlib import Path

from scalarlint.analysis.sources import SourceFile, decode_source, encode_source, read_regular
from scalarlint.diagnostics import FileError
from scalarlint.notebooks import NotebookError

from .outcomes import FileFix


def read_for_fix(path: str) -> tuple[SourceFile, int] | FileError:
    """Read a file and remember its modification time, to notice a concurrent edit later."""
    read = read_regular(path)
    if isinstance(read, FileError):
        return read
    raw, info = read
    before = info.st_mtime_ns
    source = decode_source(raw, path)
    if isinstance(source, FileError):
        return source
    return source, before


def encoded(text: str, source: SourceFile) -> bytes:
    """``text`` in the file's own encoding (a ``utf-8-sig`` file keeps its BOM); a notebook's
    JSON with the changed cells rewritten."""
    return encode_source(text, source)


TEMP_SUFFIX = ".scalarlint-fix"


def write_atomic(fixed: FileFix, root: Path | None = None, read_only: bool = False) -> FileError | None:
    """Write the fixed text over the file, atomically, unless the file changed since it was read.

    The new bytes go to a temporary file in the same folder (same file system, so
    ``os.replace`` is atomic), with the original's permission bits; just before the replace the
    file on disk is compared with what was read (bytes and modification time). A file edited
    meanwhile is left alone and reported: overwriting it would lose someone's work.

    A symbolic link is written through to its target (the link stays a link), unless the
    target lies outside ``root`` (the checked tree): then nothing is written and the link is
    reported. A file with several hard links is rewritten in place once the complete new text
    is safely on disk in the temporary file, so every name keeps seeing the same file. A
    read-only file is refused unless ``read_only``. Temporary files that a killed run left next
    to the file are removed first. Any write error (a full disk) leaves the original intact.
    """
    link = Path(fixed.path)
    path = link
    if link.is_symlink():
        path = Path(os.path.realpath(link))
        if root is not None and not _is_within(path, root):
            return FileError(fixed.path, f"a symbolic link to {path}, outside the checked tree; not fixed (fix the target itself)")
    try:
        data = encoded(fixed.outcome.text, fixed.source)
    except UnicodeEncodeError as exc:
        return FileError(fixed.path, f"cannot encode the fixed text as {fixed.source.encoding}: {exc.reason}")
    except NotebookError as exc:
        return FileError(fixed.path, str(exc))
    try:
        info = os.stat(path)
    except OSError as exc:
        return FileError(fixed.path, f"cannot write: {exc.strerror or exc}")
    mode = stat.S_IMODE(info.st_mode)
    if not mode & stat.S_IWUSR and not read_only:
        return FileError(fixed.path, "read-only file; not fixed (make it writable, or pass --fix-read-only)")
    _remove_leftovers(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        changed = _changed_on_disk(fixed)
        if changed is not None:
            os.unlink(tmp)
            return FileError(fixed.path, changed)
        if info.st_nlink > 1:  # keep the hard links: same inode, new content
            with open(path, "r+b") as original:
                original.write(data)
                original.truncate()
                original.flush()
                os.fsync(original.fileno())
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except OSError as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        return FileError(fixed.path, f"cannot write: {exc.strerror or exc}")
    return None


def _is_within(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def _remove_leftovers(path: Path) -> None:
    """Temporary files of a run killed between writing and replacing (never the file itself)."""
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*{TEMP_SUFFIX}"):
        try:
            leftover.unlink()
        except OSError:
            pass


def _changed_on_disk(fixed: FileFix) -> str | None:
    try:
        now = os.stat(fixed.path).st_mtime_ns
        raw = Path(fixed.path).read_bytes()
    except OSError as exc:
        return f"cannot re-read before writing: {exc.strerror or exc}"
    if raw != fixed.source.raw or (fixed.mtime_ns is not None and now != fixed.mtime_ns):
        return "changed on disk since it was read; not overwritten (run the fix again)"
    return None
