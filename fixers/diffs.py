"""A fix as a unified diff (``--diff``): a patch that ``patch -p0`` and ``git apply`` take, byte
for byte the file's own encoding, line endings and final newline.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from .outcomes import FileFix

NO_NEWLINE = "\\ No newline at end of file"


def diff_path(path: str) -> str:
    """The path a diff names: relative to the current folder when inside it, with a ``./``
    prefix so that ``patch -p0`` and ``git apply`` (which strips one leading component) both
    find the file."""
    p = Path(path)
    try:
        rel = p.resolve().relative_to(Path.cwd().resolve()) if p.is_absolute() else p
    except ValueError:
        return p.as_posix()
    text = rel.as_posix()
    return text if text.startswith("./") else f"./{text}"


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] = lines[-1] + "\n" + NO_NEWLINE + "\n"
    return lines


def unified_diff(fixed: FileFix) -> str:
    """A unified diff from the file as read to the fixed text (empty when unchanged).

    Lines keep their own endings (a CRLF file gives CRLF lines), a missing final newline is
    marked as ``diff`` does, and a BOM is shown on line 1 so the context matches the bytes.
    """
    bom = "\ufeff" if fixed.source.encoding == "utf-8-sig" else ""
    if fixed.outcome.text == fixed.source.text:
        return ""
    notebook = fixed.source.notebook
    if notebook is not None:  # the diff of the JSON file, so that patch applies it
        old, new = bom + notebook.json_text, bom + notebook.render(fixed.outcome.text)
    else:
        old, new = bom + fixed.source.text, bom + fixed.outcome.text
    name = diff_path(fixed.path)
    out = []
    for line in difflib.unified_diff(_lines(old), _lines(new), fromfile=name, tofile=name):
        out.append(line if line.endswith(("\n", "\r")) else line + "\n")
    return "".join(out)


def diff_bytes(fixed: FileFix) -> bytes:
    """``unified_diff`` in the file's encoding, so the patch matches the file byte for byte."""
    encoding = "utf-8" if fixed.source.encoding in ("utf-8-sig", "utf-8") else fixed.source.encoding
    return unified_diff(fixed).encode(encoding, errors="surrogateescape")
