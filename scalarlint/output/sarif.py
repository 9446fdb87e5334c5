"""SARIF 2.1.0 output, the format GitHub code scanning and most CI dashboards ingest.

One run with:
- ``tool.driver``: scalarlint's name, version and home page, and every check as a
  ``reportingDescriptor`` (so a viewer can show the rule's documentation next to a result,
  even for checks that found nothing in this run);
- ``results``: one per diagnostic, with its location and its fixes as SARIF ``fixes`` (and its
  ``confidence`` and ``evidence`` in the result's ``properties``), and
  one per file that could not be checked, under its code (SL001 syntax-error, SL002
  unreadable-file, SL003 not-analysed) at its location, so code scanning shows it in place;
- ``invocations[0]``: whether the run succeeded, and the files that could not be checked as
  ``toolExecutionNotifications`` too (a file that did not parse is not a clean file, and a
  dashboard must be able to tell the difference).

Paths are written relative to the current directory where possible and anchored with the
``%SRCROOT%`` base id, which is what code scanning resolves against the checkout. Columns are
counted in code points, as scalarlint counts them, and the run says so (``columnKind``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from scalarlint import __version__
from scalarlint.diagnostics import DOCS_URL, Diagnostic, Edit, FileError, Fix, Location
from scalarlint.error_codes import ERROR_CODES

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/scalarlint/scalarlint"
SRCROOT = "%SRCROOT%"


def artifact_location(filename: str, cwd: Path | None = None) -> dict[str, str]:
    """A SARIF ``artifactLocation``: relative to ``%SRCROOT%`` (the cwd) when the file is under it.

    Viewers resolve relative URIs against the checkout, so results stay clickable on another
    machine; files outside the current directory keep an absolute ``file://`` URI.
    """
    base = (cwd or Path.cwd()).resolve()
    path = Path(filename)
    if filename.startswith("<"):  # stdin and other pseudo-files: not a path, but still a valid URI reference
        return {"uri": quote(filename, safe="")}
    try:
        rel = path.resolve().relative_to(base) if path.is_absolute() else Path(os.path.normpath(path))
    except ValueError:
        return {"uri": path.resolve().as_uri()}
    if rel.parts and rel.parts[0] == "..":
        return {"uri": path.resolve().as_uri()}
    return {"uri": quote(PurePosixPath(*rel.parts).as_posix()), "uriBaseId": SRCROOT}


def _region(start: Location, end: Location) -> dict[str, int]:
    # SARIF regions are 1-based and endColumn is exclusive, exactly like scalarlint's Locations.
    return {
        "startLine": start.row,
        "startColumn": start.column,
        "endLine": end.row,
        "endColumn": end.column,
    }


def _replacement(edit: Edit) -> dict[str, Any]:
    return {
        "deletedRegion": _region(edit.location, edit.end_location),
        "insertedContent": {"text": edit.content},
    }


def _fix(fix: Fix, location: dict[str, str]) -> dict[str, Any]:
    label = fix.message if fix.applicability.value == "safe" else f"{fix.message} (unsafe)"
    return {
        "description": {"text": label},
        "artifactChanges": [
            {"artifactLocation": location, "replacements": [_replacement(e) for e in fix.edits]},
        ],
        "properties": {"applicability": fix.applicability.value},
    }


def _rules() -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Every check, and every code of a file that could not be checked (SL001-SL003), as a
    reportingDescriptor, in code order, and each code's index."""
    from scalarlint.checks import BY_CODE

    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    infos = [*ERROR_CODES.values(), *(check.INFO for check in BY_CODE.values())]
    for info in sorted(infos, key=lambda i: i.code):
        code = info.code
        index[code] = len(rules)
        rules.append(
            {
                "id": info.code,
                "name": info.name,
                "shortDescription": {"text": info.summary},
                "fullDescription": {"text": _what_it_flags(info.doc, info.summary, info.default_enabled)},
                "help": {"text": info.doc, "markdown": info.doc},
                "helpUri": _url(info.code),
                "defaultConfiguration": {"enabled": info.default_enabled},
                "properties": {"tags": ["file-not-checked"] if code in ERROR_CODES else ["gpu", "performance", "autodiff"], "precision": "high"},
            }
        )
    return rules, index


def _what_it_flags(doc: str, summary: str, default_enabled: bool) -> str:
    """The first section of a check's Markdown doc (its precise scope), as one paragraph.

    Viewers show ``fullDescription`` in a rule list where the whole doc would be too long and
    the one-line summary too vague.
    """
    body: list[str] = []
    started = False
    for line in doc.splitlines():
        if line.startswith("#"):
            if started:
                break
            started = True
            continue
        if started:
            if not line.strip() and body:
                break
            if line.strip():
                body.append(line.strip())
    text = " ".join(body) or summary
    return text if default_enabled else f"{text} (off by default)"


def _url(code: str) -> str:
    """The same anchor ``Diagnostic.url`` points at, without building a Diagnostic."""
    return DOCS_URL.format(code=code.lower())


def _result(d: Diagnostic, rule_index: dict[str, int]) -> dict[str, Any]:
    location = artifact_location(d.filename)
    message = d.message + (f" [rule: {d.rule}]" if d.rule else "")
    if d.cell is not None:  # a notebook: rows count within the cell
        message = f"cell {d.cell}: {message}"
    result: dict[str, Any] = {
        "ruleId": d.code,
        "level": d.severity.value,  # "error" / "warning" are SARIF levels too
        "message": {"text": message},
        "locations": [
            {"physicalLocation": {"artifactLocation": location, "region": _region(d.location, d.end_location)}},
        ],
    }
    if d.code in rule_index:
        result["ruleIndex"] = rule_index[d.code]
    if d.fixes and d.cell is None:  # a notebook's edits apply to its joined cells, not the file
        result["fixes"] = [_fix(f, location) for f in d.fixes if f.applicable]
    properties = {**({"adRule": d.rule} if d.rule else {}), **({"cell": d.cell} if d.cell is not None else {})}
    if d.code not in ERROR_CODES:  # why a finding was reported; a file that was not checked has no such why
        properties.update(confidence=d.confidence.value, evidence=list(d.evidence))
    if properties:
        result["properties"] = properties
    return result


def _folder_uri(folder: Path) -> str:
    """SARIF requires a base URI to end with a slash (``file:///`` for the root already does)."""
    uri = folder.resolve().as_uri()
    return uri if uri.endswith("/") else uri + "/"


def _notification(error: FileError) -> dict[str, Any]:
    at = error.location or Location(1, 1)
    return {
        "level": "error",
        "message": {"text": f"{error.filename}: {error.message}"},
        "associatedRule": {"id": error.code},
        "locations": [
            {"physicalLocation": {"artifactLocation": artifact_location(error.filename), "region": _region(at, at)}},
        ],
    }


def _reported(diagnostics: list[Diagnostic], errors: list[FileError]) -> list[Diagnostic]:
    """The findings and, as results of their codes at their locations, the files that could
    not be checked (also named in the invocation's notifications)."""
    return sorted([*diagnostics, *(e.as_diagnostic() for e in errors)], key=Diagnostic.sort_key)


def sarif_log(diagnostics: list[Diagnostic], errors: list[FileError], files: int) -> dict[str, Any]:
    """The SARIF log as a JSON-ready dict (separate from rendering so tests can inspect it)."""
    rules, rule_index = _rules()
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "scalarlint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": _folder_uri(Path.cwd())}},
                "columnKind": "unicodeCodePoints",
                "invocations": [
                    {
                        "executionSuccessful": not errors,
                        "toolExecutionNotifications": [_notification(e) for e in errors],
                        "properties": {"filesChecked": files},
                    }
                ],
                "results": [_result(d, rule_index) for d in _reported(diagnostics, errors)],
            }
        ],
    }


def render_sarif(diagnostics: list[Diagnostic], errors: list[FileError], files: int, color: bool) -> str:
    return json.dumps(sarif_log(diagnostics, errors, files), indent=2, ensure_ascii=False) + "\n"
