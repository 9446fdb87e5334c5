"""ruff-compatible JSON: an array of diagnostic objects (see ``Diagnostic.to_json``), files that
could not be checked included (``FileError.as_diagnostic``)."""

from __future__ import annotations

import json
from typing import Any

from scalarlint.diagnostics import Diagnostic, FileError


def render_json(diagnostics: list[Diagnostic], errors: list[FileError], files: int, color: bool) -> str:
    """Findings and the files that could not be checked (SL001-SL003, as ruff lists its syntax
    errors among the diagnostics), in file and position order."""
    reported = sorted([*diagnostics, *(e.as_diagnostic() for e in errors)], key=Diagnostic.sort_key)
    unsuppressible = {e.code for e in errors}  # no suppression comment silences an unchecked file
    return json.dumps([_entry(d, unsuppressible) for d in reported], indent=2) + "\n"


def _entry(d: Diagnostic, unsuppressible: set[str]) -> dict[str, Any]:
    entry = d.to_json()
    return {**entry, "noqa_row": None} if d.code in unsuppressible else entry
