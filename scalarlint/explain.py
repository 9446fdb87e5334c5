"""``scalarlint explain``: a check's documentation, found by its code or its name.

A report names each finding both ways (``SL101 ... scalar-getindex`` in JSON and SARIF,
``# noqa`` takes the code), so a reader may look either up, as ``ruff rule`` takes both. The
JSON form (``--output-format json``) is for editors and docs generators: one object per check
with its code, name, summary, default, documentation URL and Markdown explanation.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any, Protocol

from scalarlint.diagnostics import DOCS_URL


class Info(Protocol):
    """What ``checks.base.CheckInfo`` and ``error_codes.ErrorCodeInfo`` both hold."""

    code: str
    name: str
    summary: str
    doc: str
    default_enabled: bool


class UnknownCheck(LookupError):
    """Neither a code nor a name of a check; the message lists the known ones (and a close
    name, when there is one)."""


@dataclass(frozen=True)
class Catalogue:
    """Every check and file-error code, by code; ``always_on``: the codes that cannot be
    selected (SL001-SL003)."""

    infos: dict[str, Info]
    always_on: frozenset[str]

    @classmethod
    def load(cls) -> Catalogue:
        from scalarlint.checks import BY_CODE
        from scalarlint.error_codes import ERROR_CODES

        infos: dict[str, Info] = {**{c: check.INFO for c, check in BY_CODE.items()}, **ERROR_CODES}
        return cls(dict(sorted(infos.items())), frozenset(ERROR_CODES))

    def find(self, wanted: str) -> Info:
        """The check whose code or name is ``wanted`` (any case; ``_`` for ``-`` in a name)."""
        key = wanted.strip()
        if key.upper() in self.infos:
            return self.infos[key.upper()]
        by_name = {info.name: info for info in self.infos.values()}
        name = key.lower().replace("_", "-")
        if name in by_name:
            return by_name[name]
        close = difflib.get_close_matches(name, list(by_name), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        known = ", ".join(f"{i.code} {i.name}" for i in self.infos.values())
        raise UnknownCheck(f"unknown check {wanted!r}{hint}; known: {known}")

    def listing(self) -> str:
        """One line per check: code, name, summary, and whether it is on by default."""
        lines = []
        for info in self.infos.values():
            flag = " (always on)" if info.code in self.always_on else ("" if info.default_enabled else " (opt-in)")
            lines.append(f"{info.code}  {info.name:22} {info.summary}{flag}")
        return "\n".join(lines) + "\n"

    def as_json(self, info: Info) -> dict[str, Any]:
        """ruff's ``rule --output-format json`` fields where they exist (code, name, summary,
        explanation), plus the default and the documentation URL."""
        return {
            "code": info.code,
            "name": info.name,
            "summary": info.summary,
            "default": "always on" if info.code in self.always_on else ("on" if info.default_enabled else "off"),
            "url": DOCS_URL.format(code=info.code.lower()),
            "explanation": info.doc,
        }


def render_text(infos: list[Info], markdown: bool) -> str:
    """The documentation of ``infos`` as ``explain`` prints it (``markdown``: with the link
    anchors docs/checks.md uses)."""
    parts = []
    for info in infos:
        anchor = f'<a id="{info.code.lower()}"></a>\n\n' if markdown else ""
        summary = info.summary + (" (off by default)" if not info.default_enabled else "")
        parts.append(f"{anchor}# {info.code} {info.name}\n\n{summary}\n\n{info.doc}\n")
    return "".join(parts)


def render_json(catalogue: Catalogue, infos: list[Info], one: bool) -> str:
    """One object for one check asked by code or name, else an array."""
    data: Any = catalogue.as_json(infos[0]) if one else [catalogue.as_json(i) for i in infos]
    return json.dumps(data, indent=2) + "\n"
