"""The ``allow_scalar`` helper that ``scalarlint vendor`` writes into a project.

A project that does not depend on scalarlint still needs *some* ``allow_scalar`` for the
``allow_scalar`` fix to import: this package holds the text of a small, dependency-free one
(``allow_scalar_template.py``, a real module so that the test suite imports and runs it) and
says what a copy found in a project is.

The text is versioned by its first line, ``# scalarlint-vendored: allow_scalar v2``. Each
released version's digest is kept in ``RELEASED``, and a test fails when the template changes
without a new version, so a copy can be told apart as current, outdated (an older release,
untouched), edited (its text is no release of its version: changed or reformatted by hand),
newer (written by a later scalarlint) or foreign (no version line: the user's own helper,
never touched). Import-light: the standard library only, as ``scalarlint check`` asks here on
every run.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

__all__ = ["NAME", "RELEASED", "VERSION", "Copy", "State", "digest", "inspect_copy", "template_text"]

NAME = "allow_scalar"
VERSION = 2
# version -> sha256 of that release's text (line endings as LF). Never change an entry: add one.
RELEASED: dict[int, str] = {
    1: "1607561f27ec82362c64a08b4f6068f203a2bfb923e9740c899a5a718151201e",
    2: "86dbb4e6eaf259e3b513a704f0f67e4ccee3e6d263f39aedfd5152a5ef3f16bf",  # adds to_host
}
TEMPLATE = Path(__file__).with_name("allow_scalar_template.py")
_MARKER = re.compile(r"# scalarlint-vendored: allow_scalar v(\d+)[ \t]*\r?$")
_MARKER_LINES = 5  # the version line is looked for in a copy's first lines only


class State(Enum):
    CURRENT = "current"
    OUTDATED = "outdated"
    EDITED = "edited"
    NEWER = "newer"
    FOREIGN = "foreign"


@dataclass(frozen=True)
class Copy:
    """What the file at ``path`` is; ``version`` is ``None`` for a foreign file."""

    path: Path
    state: State
    version: int | None


def template_text() -> str:
    """The current version's text, as ``scalarlint vendor`` writes it."""
    return TEMPLATE.read_text(encoding="utf-8")


def digest(text: str) -> str:
    """The digest ``RELEASED`` keeps: line endings do not count (git may turn them into CRLF)."""
    return hashlib.sha256(text.replace("\r\n", "\n").encode("utf-8")).hexdigest()


def version_of(text: str) -> int | None:
    """The version named by a ``# scalarlint-vendored: allow_scalar vN`` line near the top."""
    for line in text.splitlines()[:_MARKER_LINES]:
        match = _MARKER.fullmatch(line)
        if match:
            return int(match.group(1))
    return None


def inspect_copy(path: Path) -> Copy | None:
    """What the file at ``path`` is; ``None`` where it cannot be read (missing, a folder,
    not UTF-8)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    version = version_of(text)
    if version is None:
        return Copy(path, State.FOREIGN, None)
    if version > VERSION:
        return Copy(path, State.NEWER, version)
    if RELEASED.get(version) != digest(text):
        return Copy(path, State.EDITED, version)
    return Copy(path, State.CURRENT if version == VERSION else State.OUTDATED, version)
