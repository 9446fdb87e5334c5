"""Markdown from a fixer module's docstring (the reStructuredText-like form the fixers use).

Each fixer documents itself at the top of its module ("What it rewrites", "When it is offered",
"Applicability", with ``::`` code blocks); the docs site shows that text rather than a copy
that would drift. Only the few constructs those docstrings use are converted: a heading
line followed by an indented body, ``::`` literal blocks and double-backtick literals.
"""

from __future__ import annotations

import re
import textwrap

_LITERAL = re.compile(r"``([^`]+)``")


def _inline(text: str) -> str:
    """``code`` as Markdown's `code`."""
    return _LITERAL.sub(r"`\1`", text)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def summary_and_body(doc: str) -> tuple[str, str]:
    """The first paragraph (one line or more) and the rest, both still in the docstring's form."""
    head, _, rest = doc.strip().partition("\n\n")
    return " ".join(head.split()), rest


def docstring_markdown(doc: str, heading: str = "##") -> str:
    """``doc`` (a body without its summary) as Markdown: an unindented line followed by an
    indented one is a ``heading``; a paragraph ending in ``::`` is followed by a fenced code
    block of the lines indented below it."""
    lines = doc.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line and _indent(line) == 0 and nxt.strip() and _indent(nxt) > 0 and not line.endswith("::"):
            out += [f"{heading} {_inline(line.strip())}", ""]
            i += 1
            continue
        if line.endswith("::"):
            base = _indent(line)
            text = line.strip()[:-2].rstrip()
            if text:
                out.append(_inline(text) + ":")
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
                block.append(lines[i].rstrip())
                i += 1
            while block and not block[-1]:
                block.pop()
            code = textwrap.dedent("\n".join(block)).strip("\n")
            out += ["", "```python", code, "```", ""]
            continue
        out.append(_inline(line.strip()))
        i += 1
    return "\n".join(out).strip() + "\n"
