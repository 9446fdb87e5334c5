"""Codes for files that could not be checked: SL001 (does not parse), SL002 (cannot be read or
decoded), SL003 (the analysis stopped). They are reported like findings, with a location, in
every format (as ruff reports syntax errors), so editors and CI can jump to them; unlike
checks they cannot be selected, ignored or suppressed, and they make the exit code 2.

Kept apart from ``scalarlint.checks`` (which imports libcst): the reports, ``explain`` and the
SARIF rule list read these without the parser.
"""

from __future__ import annotations

from dataclasses import dataclass

SYNTAX_ERROR = "SL001"
UNREADABLE = "SL002"
NOT_ANALYSED = "SL003"


@dataclass(frozen=True)
class ErrorCodeInfo:
    code: str
    name: str
    summary: str
    doc: str  # Markdown, in the layout of a check's doc
    default_enabled: bool = True


_EXIT = """\
## Exit code

A run with a file that could not be checked exits 2, even with `--exit-zero`. ruff reports
syntax errors as diagnostics and exits 1; scalarlint keeps 1 for findings in code it checked
and 2 for code it could not check, so a pipeline that accepts findings for now (`--exit-zero`,
or treating 1 as a warning) never takes an unchecked file for a clean one. The code cannot be
selected, ignored or suppressed with `# noqa`; leave a file out with `extend-exclude`.
"""

ERROR_CODES: dict[str, ErrorCodeInfo] = {
    SYNTAX_ERROR: ErrorCodeInfo(
        SYNTAX_ERROR,
        "syntax-error",
        "The file does not parse, so none of its code was checked",
        f"""\
## What it flags

A file Python's parser rejects, at the position the parser names, with its message
(`rule.py:3:12: SL001 syntax error: '(' was never closed`). The syntax of every Python version
scalarlint reads (up to 3.14) is accepted, unless `target-version` names an older one: then
syntax newer than the target is reported here, with that version's message. In a notebook the position is the cell's
(`nb.ipynb:cell 2:1:7:`).

## Why it matters

The checks read the file's syntax tree; without one, no rule in the file is checked, and a
clean report would be wrong.

{_EXIT}
## What to do

Fix the syntax. If `python -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" FILE`
accepts the file, scalarlint is wrong: please report it with the file.
""",
    ),
    UNREADABLE: ErrorCodeInfo(
        UNREADABLE,
        "unreadable-file",
        "The file cannot be read or decoded (or a fix cannot be written back)",
        f"""\
## What it flags

A path that names no file, a file or folder without read permission, a FIFO or device file
(never opened), a binary file (NUL bytes), bytes that are not valid in the file's encoding
(PEP 263 cookie or UTF-8; located at the first bad byte), an unknown coding cookie (located at
its line), a notebook that is not valid JSON, and, with `--fix`, a fixed file that cannot be
written back (read-only, changed on disk meanwhile). Without a position in the file, the
location is 1:1, as ruff reports its io-error.

## Why it matters

An unread file is an unchecked file; the rest of the run goes on.

{_EXIT}
## What to do

Make the file readable, save it in its declared encoding (or fix the cookie), or exclude it.
""",
    ),
    NOT_ANALYSED: ErrorCodeInfo(
        NOT_ANALYSED,
        "not-analysed",
        "The analysis of the file stopped: past the file-time-limit, nested too deeply, or an internal error",
        f"""\
## What it flags

A file whose reading or analysis took longer than `--file-time-limit` seconds (the
`file-time-limit` setting, default 60), whose nesting is too deep for the analysis to walk, or
whose analysis raised an internal error (a bug in scalarlint: the message names the exception;
the run goes on with the other files). The file parses; its findings are unknown.

## Why it matters

One pathological file must not stall a run, and must not pass as clean either.

{_EXIT}
## What to do

Raise `--file-time-limit` (0: no limit) for a large generated file, or exclude it.
""",
    ),
}
