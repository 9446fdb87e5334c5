"""Where in a file its bytes stop being text: the location of an SL002 (unreadable-file) error.

Reading reports *that* a file has NUL bytes, undecodable bytes or an unknown coding cookie; a
report (and an editor, or a CI annotation) also wants *where*. The place is found again from
the bytes, only for the files that failed, so reading stays as it is for every other file:
the first NUL byte, the first byte the file's encoding rejects, or the line of the cookie.
"""

from __future__ import annotations

import dataclasses
import io
import re
import tokenize

from scalarlint.diagnostics import FileError, Location
from scalarlint.error_codes import UNREADABLE

_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=]")
SNIFFED_BYTES = 8192  # as far as reading looks for NUL bytes (scalarlint.analysis.sources)


def bad_byte(raw: bytes) -> Location | None:
    """The location (row, column in characters) of the first thing that keeps ``raw`` from
    being read as Python source, or ``None`` when it reads."""
    nul = raw.find(b"\x00", 0, SNIFFED_BYTES)
    if nul >= 0:
        return _location(raw, nul, "utf-8")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except (SyntaxError, LookupError):
        return _cookie_line(raw) or _first_invalid(raw, "utf-8") or Location(1, 1)
    return _first_invalid(raw, encoding)


def locate(error: FileError, raw: bytes | None) -> FileError:
    """``error`` with the location of its bad byte, when it is a reading error without one and
    ``raw`` (the file's bytes) shows where."""
    if error.code != UNREADABLE or error.location is not None or raw is None:
        return error
    where = bad_byte(raw)
    return error if where is None else dataclasses.replace(error, location=where)


def locate_on_disk(error: FileError) -> FileError:
    """``locate`` for an error of a file the run read from disk (read again: only failed files
    come here; a FIFO or device is never opened)."""
    if error.code != UNREADABLE or error.location is not None:
        return error
    from scalarlint.analysis.sources import read_regular

    read = read_regular(error.filename)
    return locate(error, None if isinstance(read, FileError) else read[0])


def _first_invalid(raw: bytes, encoding: str) -> Location | None:
    try:
        raw.decode(encoding)
    except UnicodeDecodeError as exc:
        return _location(raw, exc.start, encoding)
    except LookupError:
        return Location(1, 1)
    return None


def _cookie_line(raw: bytes) -> Location | None:
    """The row of a coding cookie (PEP 263: on line 1 or 2)."""
    for row, line in enumerate(raw.splitlines()[:2], start=1):
        if _COOKIE.match(line):
            return Location(row, 1)
    return None


def _location(raw: bytes, offset: int, encoding: str) -> Location:
    row = raw.count(b"\n", 0, offset) + 1
    start = raw.rfind(b"\n", 0, offset) + 1
    try:
        column = len(raw[start:offset].decode(encoding, errors="replace")) + 1
    except LookupError:
        column = offset - start + 1
    return Location(row, column)
