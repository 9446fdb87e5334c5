"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request.

``::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=SL101 scalar-getindex::message``
(``::warning`` for warnings). The runner parses these lines from a step's output, so no
upload step or token is needed; annotations are capped per step by GitHub, which is why the
SARIF output exists for code scanning.

Escaping follows the runner's rules (actions/toolkit ``command.ts``): in the message ``%``,
``\\r`` and ``\\n`` are percent-encoded; in property values ``:`` and ``,`` are too, since they
delimit properties. A file path with a comma or colon therefore survives intact.
"""

from __future__ import annotations

import os
from pathlib import Path

from scalarlint.diagnostics import Diagnostic, FileError


def escape_data(text: str) -> str:
    """Escape the message part of a workflow command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value (``file=``, ``title=``): data escapes plus ``:`` and ``,``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def display_path(filename: str, cwd: Path | None = None) -> str:
    """Path relative to the working directory (the checkout in Actions), else as given.

    Annotations only attach to a file when the path is relative to the repository root.
    """
    if filename.startswith("<"):
        return filename
    path = Path(filename)
    if not path.is_absolute():
        return Path(os.path.normpath(path)).as_posix()
    try:
        return path.resolve().relative_to((cwd or Path.cwd()).resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _command(kind: str, properties: dict[str, object], message: str) -> str:
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{kind} {props}::{escape_data(message)}"


def render_github(diagnostics: list[Diagnostic], errors: list[FileError], files: int, color: bool) -> str:
    """One annotation per finding and per file that could not be checked (at its location, with
    its code: SL001-SL003)."""
    lines: list[str] = []
    for d in sorted([*diagnostics, *(e.as_diagnostic() for e in errors)], key=Diagnostic.sort_key):
        message = d.message + (f" [rule: {d.rule}]" if d.rule else "")
        if d.cell is not None:  # lines count within the cell, not the JSON file
            message = f"cell {d.cell}: {message}"
        lines.append(
            _command(
                "error" if d.severity.value == "error" else "warning",
                {
                    "file": display_path(d.filename),
                    "line": d.location.row,
                    "col": d.location.column,
                    "endLine": d.end_location.row,
                    "endColumn": d.end_location.column,
                    "title": f"{d.code} {d.name}",
                },
                message,
            )
        )
    return "".join(line + "\n" for line in lines)
