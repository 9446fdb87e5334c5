"""Suppression comments: ``# noqa``, ``# noqa: SL101``, ``# scalarlint: ignore[SL101]``, skip-file.

Comments are read with ``tokenize`` so that ``#`` inside strings never counts. Only files
with findings, and with such a comment somewhere in their text, pay for it.
"""

from __future__ import annotations

import io
import re
import tokenize

ALL = frozenset({"*"})
NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
_IGNORE = re.compile(r"#\s*scalarlint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
SKIP_FILE = re.compile(r"^[ \t]*#[ \t]*scalarlint:[ \t]*skip-file\b", re.MULTILINE | re.IGNORECASE)


def file_is_skipped(text: str) -> bool:
    return SKIP_FILE.search(text) is not None


def noqa_codes(raw: str) -> list[str]:
    """The codes of a ``# noqa:`` comment's ``codes`` group, upper-cased, in their order."""
    return [c.upper() for c in re.split(r"[\s,]+", raw.strip()) if c]


def _codes(raw: str | None) -> frozenset[str]:
    if not raw:
        return ALL
    return frozenset(noqa_codes(raw))


def suppressions(text: str) -> dict[int, frozenset[str]]:
    """Line number -> codes suppressed on it (``{"*"}`` for all)."""
    out: dict[int, frozenset[str]] = {}
    if NOQA.search(text) is None and _IGNORE.search(text) is None:
        return out  # no such comment anywhere: nothing to tokenize for
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return out
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        for pattern in (NOQA, _IGNORE):
            match = pattern.search(token.string)
            if match:
                codes = _codes(match.group("codes"))
                line = token.start[0]
                out[line] = ALL if ALL <= codes or ALL <= out.get(line, frozenset()) else out.get(line, frozenset()) | codes
    return out


def is_suppressed(table: dict[int, frozenset[str]], code: str, first_line: int, last_line: int) -> bool:
    for line in (first_line, last_line):
        codes = table.get(line)
        if codes and ("*" in codes or code in codes):
            return True
    return False
