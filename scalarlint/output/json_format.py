"""ruff-compatible JSON: an array of diagnostic objects (see ``Diagnostic.to_json``), files that
could not be checked included (``FileError.as_diagnostic``).

``filename`` is absolute, as in ruff's JSON (its text output is relative, its JSON absolute,
since a program reading the report may run in another folder than the one checked): a path
given relative is made absolute from the current folder, without resolving symbolic links,
so it names the file as it was given. A name in angle brackets (``<stdin>``: standard input
without ``--stdin-filename``) names no file and stays as it is.
"""

from __future__ import annotations

import json
import os
from typing import Any

from scalarlint.diagnostics import Diagnostic, FileError


def render_json(diagnostics: list[Diagnostic], errors: list[FileError], files: int, color: bool) -> str:
    """Findings and the files that could not be checked (SL001-SL003, as ruff lists its syntax
    errors among the diagnostics), in file and position order."""
    reported = sorted([*diagnostics, *(e.as_diagnostic() for e in errors)], key=Diagnostic.sort_key)
    unsuppressible = {e.code for e in errors}  # no suppression comment silences an unchecked file
    return json.dumps([_entry(d, unsuppressible) for d in reported], indent=2) + "\n"


def _entry(d: Diagnostic, unsuppressible: set[str]) -> dict[str, Any]:
    entry = {**d.to_json(), "filename": absolute(d.filename)}
    return {**entry, "noqa_row": None} if d.code in unsuppressible else entry


def absolute(filename: str) -> str:
    """``filename`` made absolute from the current folder (see the module's docstring)."""
    return filename if filename.startswith("<") else os.path.abspath(filename)
