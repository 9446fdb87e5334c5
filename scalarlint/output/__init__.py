"""Report formats. Each takes the diagnostics of a run and returns the text to print."""

from __future__ import annotations

from typing import Callable

from scalarlint.diagnostics import Diagnostic, FileError
from scalarlint.output.github import render_github
from scalarlint.output.json_format import render_json
from scalarlint.output.sarif import render_sarif
from scalarlint.output.text import render_text

Renderer = Callable[[list[Diagnostic], list[FileError], int, bool], str]

FORMATS: dict[str, Renderer] = {
    "text": render_text,
    "json": render_json,
    "sarif": render_sarif,
    "github": render_github,
}
