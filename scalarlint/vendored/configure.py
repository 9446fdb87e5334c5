"""``scalarlint vendor --configure``: set ``allow-scalar-import`` in the configuration file.

Editing a user's TOML by hand is done only where it is simple, and then checked: the new text
must parse to exactly the old settings plus this one key, or nothing is written. The cases:

* a ``[tool.scalarlint]`` table (one header line): the key's line is replaced, or added
  right under the header;
* a ``pyproject.toml`` without that table: the table is appended at the end;
* a standalone ``.scalarlint.toml`` / ``scalarlint.toml``: the key's line is replaced, or
  added before the first table (top-level keys must come first).

Anything else (dotted keys, inline tables, a key spread over lines) fails the check, and the
user is told the line to add. The file's line endings are kept.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any

from scalarlint.atomic_text import write_text_atomic

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

KEY = "allow-scalar-import"
_HEADER = re.compile(r"^[ \t]*\[[ \t]*tool[ \t]*\.[ \t]*scalarlint[ \t]*\][ \t]*(#.*)?$")
_ANY_HEADER = re.compile(r"^[ \t]*\[")
_KEY_LINE = re.compile(rf"""^[ \t]*["']?{re.escape(KEY)}["']?[ \t]*=""")


class ConfigureError(Exception):
    """The setting could not be written safely; the message says why."""


def set_allow_scalar_import(path: Path, module: str) -> None:
    """Set ``allow-scalar-import = "module"`` in the existing configuration file ``path``;
    ``ConfigureError`` when that cannot be done safely."""
    try:
        text = path.read_bytes().decode("utf-8")  # not read_text: its line endings are kept
        before = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigureError(f"cannot read {path}: {exc}") from exc
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    line = f"{KEY} = {json.dumps(module)}{newline}"
    standalone = path.name != "pyproject.toml" and "tool" not in before
    new_lines = _standalone(lines, line) if standalone else _in_table(lines, line, newline)
    new_text = "".join(new_lines)
    expected = copy.deepcopy(before)
    table = expected if standalone else expected.setdefault("tool", {}).setdefault("scalarlint", {})
    table[KEY] = module
    try:
        after: Any = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError:
        after = None
    if after != expected:
        raise ConfigureError(f"{path} is not laid out simply enough to edit safely")
    try:
        write_text_atomic(path, new_text)
    except OSError as exc:
        raise ConfigureError(f"cannot write {path}: {exc.strerror or exc}") from exc


def _in_table(lines: list[str], line: str, newline: str) -> list[str]:
    headers = [i for i, text in enumerate(lines) if _HEADER.match(text.rstrip("\r\n"))]
    if not headers:
        ending = "" if not lines or lines[-1].endswith(("\n", "\r")) else newline
        gap = newline if lines else ""
        return [*lines, ending + gap + f"[tool.scalarlint]{newline}", line]
    start = headers[0] + 1
    end = next((i for i in range(start, len(lines)) if _ANY_HEADER.match(lines[i])), len(lines))
    return _replace_or_insert(lines, line, start, end, at=start)


def _standalone(lines: list[str], line: str) -> list[str]:
    end = next((i for i, text in enumerate(lines) if _ANY_HEADER.match(text)), len(lines))
    at = end
    while at > 0 and not lines[at - 1].strip():  # keep the blank lines before the first table
        at -= 1
    return _replace_or_insert(lines, line, 0, end, at=at)


def _replace_or_insert(lines: list[str], line: str, start: int, end: int, at: int) -> list[str]:
    found = [i for i in range(start, end) if _KEY_LINE.match(lines[i])]
    out = list(lines)
    if found:
        out[found[0]] = line
    else:
        if at > 0 and not out[at - 1].endswith(("\n", "\r")):
            out[at - 1] += line[len(line.rstrip("\r\n")):]
        out.insert(at, line)
    return out
