"""ruff-compatible JSON: an array of diagnostic objects (see ``Diagnostic.to_json``)."""

from __future__ import annotations

import json

from scalarlint.diagnostics import Diagnostic, FileError


def render_json(diagnostics: list[Diagnostic], errors: list[FileError], files: int, color: bool) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2) + "\n"
