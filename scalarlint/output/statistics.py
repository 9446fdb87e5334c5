"""``--statistics``: how many findings of each check, and how many of them a fix covers.

Printed as ruff prints its statistics (count, code, fix marker, name), one line per code, most
frequent first; ``--format json`` gives the same as a list of objects. The fix marker is
``[*]`` when every finding of the code has a fix this run may apply, ``[-]`` when some have,
and ``[ ]`` when none has.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from scalarlint.diagnostics import Diagnostic, FileError
from scalarlint.output.text import plural


@dataclass(frozen=True)
class CodeCount:
    code: str
    name: str
    count: int
    fixable: int

    @property
    def marker(self) -> str:
        return "[*]" if self.fixable == self.count else ("[-]" if self.fixable else "[ ]")


def count_by_code(diagnostics: list[Diagnostic]) -> list[CodeCount]:
    """Per-code counts, most frequent first (then by code)."""
    totals = Counter(d.code for d in diagnostics)
    fixable = Counter(d.code for d in diagnostics if d.fixable)
    names = {d.code: d.name for d in diagnostics}
    return [CodeCount(code, names[code], n, fixable[code]) for code, n in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))]


def render_statistics(diagnostics: list[Diagnostic], errors: list[FileError], files: int, as_json: bool) -> str:
    counts = count_by_code(diagnostics)
    if as_json:
        return json.dumps([{"code": c.code, "name": c.name, "count": c.count, "fixable": c.fixable} for c in counts], indent=2) + "\n"
    width = max((len(str(c.count)) for c in counts), default=1)
    lines = [f"{c.count:>{width}}\t{c.code}\t{c.marker} {c.name}" for c in counts]
    lines.extend(e.describe() for e in errors)
    total, fixable = sum(c.count for c in counts), sum(c.fixable for c in counts)
    if counts:
        summary = f"Found {plural(total, 'finding')} in {plural(files, 'file')} checked."
        lines.append(summary + (f" [*] {fixable} fixable with `--fix`." if fixable else ""))
    elif not errors:
        lines.append(f"All checks passed! ({plural(files, 'file')} checked)")
    return "\n".join(lines) + "\n"
