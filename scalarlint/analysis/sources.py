"""Reading source files the way Python does, so that nothing is lost on the way back.

A run must survive bad input: undecodable bytes, binary files and unreadable paths become a
per-file ``FileError`` and the run continues. The decoded text keeps its line endings; the
encoding and BOM are remembered so that a fixer can write the file back unchanged around its
edits.
"""

from __future__ import annotations

import io
import os
import stat
import tokenize
from dataclasses import dataclass
from pathlib import Path

from scalarlint.diagnostics import FileError, Location
from scalarlint.notebooks import Notebook, NotebookError, read_notebook

NOTEBOOK_SUFFIX = ".ipynb"


@dataclass(frozen=True)
class SourceFile:
    path: str
    text: str  # for a notebook: its code cells joined into one module (scalarlint.notebooks)
    encoding: str  # as tokenize names it; "utf-8-sig" means the file starts with a BOM
    raw: bytes
    notebook: Notebook | None = None

    def locate(self, location: Location) -> tuple[int | None, Location]:
        """(cell, location within it) for a notebook; (None, location) for a Python file."""
        return self.notebook.locate(location) if self.notebook is not None else (None, location)

    def where(self, row: int, column: int) -> str:
        """``row:column`` for messages, ``cell 3, row:column`` in a notebook."""
        cell, at = self.locate(Location(row, column))
        return f"{at.row}:{at.column}" if cell is None else f"cell {cell}, {at.row}:{at.column}"

    @property
    def newline(self) -> str:
        """The file's dominant line ending, used for lines a fixer adds."""
        crlf = self.text.count("\r\n")
        lf = self.text.count("\n") - crlf
        cr = self.text.count("\r") - crlf
        if crlf >= lf and crlf >= cr and crlf:
            return "\r\n"
        if cr > lf:
            return "\r"
        return "\n"


def decode_source(raw: bytes, path: str) -> SourceFile | FileError:
    """Decode bytes with Python's own rules (BOM, PEP 263 cookie, default UTF-8); a notebook
    (``*.ipynb``) is UTF-8 JSON whose code cells become the text."""
    if path.endswith(NOTEBOOK_SUFFIX):
        return _decode_notebook(raw, path)
    if b"\x00" in raw[:8192]:
        return FileError(path, "binary file (contains NUL bytes); not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except (SyntaxError, LookupError) as exc:
        try:  # tokenize rejects undecodable first lines; say which byte is at fault
            raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            return FileError(path, f"cannot decode as utf-8: byte {bad.start} ({bad.reason})")
        return FileError(path, f"cannot determine the encoding: {exc}")
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        return FileError(path, f"cannot decode as {exc.encoding}: byte {exc.start} ({exc.reason})")
    return SourceFile(path=path, text=text, encoding=encoding, raw=raw)


def _decode_notebook(raw: bytes, path: str) -> SourceFile | FileError:
    encoding = "utf-8-sig" if raw.startswith(b"\xef\xbb\xbf") else "utf-8"  # JSON is UTF-8
    try:
        text, notebook = read_notebook(raw.decode(encoding))
    except UnicodeDecodeError as exc:
        return FileError(path, f"cannot decode as utf-8: byte {exc.start} ({exc.reason})")
    except NotebookError as exc:
        return FileError(path, str(exc))
    return SourceFile(path=path, text=text, encoding=encoding, raw=raw, notebook=notebook)


def read_regular(path: str | Path) -> tuple[bytes, os.stat_result] | FileError:
    """The bytes of a regular file and its status before reading, or why they cannot be had.
    Only regular files are opened: a FIFO or a device named ``*.py`` would block or stream
    forever."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return FileError(str(path), "not a regular file (a FIFO, socket or device); not read")
        return Path(path).read_bytes(), info
    except OSError as exc:
        return FileError(str(path), f"cannot read: {exc.strerror or exc}")


def read_source(path: str | Path) -> SourceFile | FileError:
    """The file's source, or why it cannot be had."""
    read = read_regular(path)
    if isinstance(read, FileError):
        return read
    return decode_source(read[0], str(path))


def encode_source(text: str, source: SourceFile) -> bytes:
    """The bytes of ``source`` with ``text`` as its (fixed) text: for a notebook, its JSON with
    the changed cells rewritten (:class:`NotebookError` if the cells cannot be recovered)."""
    if source.notebook is not None:
        return source.notebook.render(text).encode(source.encoding)
    return text.encode(source.encoding)
