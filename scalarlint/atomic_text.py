"""Write a whole text file atomically: a temporary file in the same folder, then ``os.replace``.

An interrupted run must leave either the old file or the new one: never half of a module the
project imports or of its ``pyproject.toml`` (``scalarlint vendor``), never half a baseline
for the next run to reject (``baseline``). The replaced file's permission bits are kept (a new
file gets the umask's). ``--fix`` has its own writer (``fixers.write_back``): it keeps a
file's bytes and encoding, where these files are UTF-8 text scalarlint wrote.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, line endings as given) over ``path``; ``OSError`` on failure, with
    ``path`` as it was."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
