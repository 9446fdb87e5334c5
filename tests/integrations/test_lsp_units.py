"""The LSP server's pure parts: position conversion, minimal edits and `# noqa` insertion.

The end-to-end tests (test_lsp.py) cover the protocol; these pin the edge cases that are
slow or awkward to reach through a client: other encodings, CRLF, continuation lines, strings.
Every noqa edit is checked against the real checker: after it, the finding is gone.
"""

from __future__ import annotations

import pytest

pytest.importorskip("lsprotocol", reason="the LSP extra is not installed")

from lsprotocol import types

from scalarlint.analysis.sources import SourceFile
from scalarlint.config import Config
from scalarlint.diagnostics import Diagnostic, Location, Severity, apply_edits
from scalarlint.engine import check_source
from scalarlint.lsp.actions import kind_wanted, noqa_edit
from scalarlint.lsp.convert import LineIndex, minimal_edit


def check(text: str) -> list[Diagnostic]:
    found = check_source(SourceFile("m.py", text, "utf-8", text.encode()), Config())
    assert isinstance(found, list), found
    return found


@pytest.mark.parametrize(
    ("encoding", "expected"),
    [("utf-16", 8), ("utf-8", 11), ("utf-32", 7)],
)
def test_position_encodings(encoding: str, expected: int) -> None:
    text = 'a\ns = "é😀"\n'
    index = LineIndex(text, encoding)
    # Column 8 (1-based, code points) on row 2 is the closing quote, after the 7 of `s = "é😀`.
    pos = index.position(Location(2, 8))
    assert pos == types.Position(line=1, character=expected)
    assert index.location(pos) == Location(2, 8)


def test_lines_split_like_lsp() -> None:
    """Form feeds and U+2028 are not line breaks in LSP; \\r\\n, \\r and \\n are."""
    text = "a\x0cb\u2028c\r\nd\re\n"
    index = LineIndex(text)
    assert index.lines == ["a\x0cb\u2028c", "d", "e", ""]
    assert index.position(Location(3, 1)) == types.Position(line=2, character=0)
    assert index.location_at(text.index("e")) == Location(3, 1)
    assert index.position(Location(9, 1)) == types.Position(line=3, character=0)  # past the end: clamped


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("x[i]\n", "x[i:i + 1]\n"),
        ("a\r\nb\r\n", "a\r\nc\r\nb\r\n"),
        ("a\r\nb", "a\nb"),
        ("same", "same"),
        ("", "def f():\n    pass\n"),
        ("abcabc", "abc"),
    ],
)
def test_minimal_edit_reproduces_the_new_text(old: str, new: str) -> None:
    edit = minimal_edit(old, new)
    if old == new:
        assert edit is None
        return
    assert edit is not None
    assert apply_edits(old, [edit]) == new
    assert len(edit.content) <= len(new)


def test_kind_hierarchy() -> None:
    assert kind_wanted("source.fixAll.scalarlint", ["source.fixAll"])
    assert kind_wanted("source.fixAll.scalarlint", ["source"])
    assert kind_wanted("quickfix", None)
    assert not kind_wanted("source.fixAll.scalarlint", ["quickfix"])
    assert not kind_wanted("source.fixAllx", ["source.fixAll"])


RULE = """\
import numpy as np


def norm_inf_pullback(x, g):
    xp = np
    dx = xp.zeros_like(x)
    i = len(x) - 1
    dx[i] = xp.sign(x[i]) * g{comment}
    return dx
"""


@pytest.mark.parametrize(
    ("comment", "expected"),
    [
        ("", "    dx[i] = xp.sign(x[i]) * g  # noqa: SL101"),
        ("   ", "    dx[i] = xp.sign(x[i]) * g  # noqa: SL101"),
        ("  # the last index", "    dx[i] = xp.sign(x[i]) * g  # the last index  # noqa: SL101"),
        ("  # NOQA:SL102", "    dx[i] = xp.sign(x[i]) * g  # NOQA:SL102, SL101"),
        ("  # noqa: SL102 keep this", "    dx[i] = xp.sign(x[i]) * g  # noqa: SL102, SL101 keep this"),
    ],
)
def test_noqa_edit_suppresses(comment: str, expected: str) -> None:
    text = RULE.format(comment=comment)
    read = next(d for d in check(text) if d.code == "SL101")
    edit = noqa_edit(text, read)
    assert edit is not None
    fixed = apply_edits(text, [edit])
    assert fixed.splitlines()[7] == expected
    assert not any(d.code == "SL101" for d in check(fixed))


def test_noqa_edit_crlf_keeps_line_endings() -> None:
    text = RULE.format(comment="").replace("\n", "\r\n")
    read = next(d for d in check(text) if d.code == "SL101")
    edit = noqa_edit(text, read)
    assert edit is not None
    fixed = apply_edits(text, [edit])
    assert "g  # noqa: SL101\r\n    return dx" in fixed
    assert fixed.count("\r\n") == text.count("\r\n") and "\n" not in fixed.replace("\r\n", "")


def test_noqa_edit_not_offered_when_already_listed_or_bare() -> None:
    text = RULE.format(comment="  # noqa: SL101")
    d = Diagnostic("SL101", "scalar-getindex", "m", "m.py", Location(8, 21), Location(8, 25), Severity.WARNING)
    assert noqa_edit(text, d) is None
    assert noqa_edit(RULE.format(comment="  # noqa"), d) is None


def test_noqa_edit_avoids_continuation_and_string_lines() -> None:
    text = (
        "import numpy as np\n\n\n"
        "def norm_inf_pullback(x, g):\n"
        "    i = len(x) - 1\n"
        "    y = xp_sign(x[i]) + \\\n"
        "        1\n"
        '    s = f"""{x[i]}\n'
        '    """\n'
        "    return y, s\n"
    )
    continued = Diagnostic("SL101", "scalar-getindex", "m", "m.py", Location(6, 17), Location(6, 21), Severity.WARNING)
    assert noqa_edit(text, continued) is None  # a comment after `\` is a syntax error
    spanning = Diagnostic("SL101", "scalar-getindex", "m", "m.py", Location(6, 9), Location(7, 10), Severity.WARNING)
    edit = noqa_edit(text, spanning)  # falls back to the diagnostic's last line
    assert edit is not None and edit.location.row == 7
    in_string = Diagnostic("SL101", "scalar-getindex", "m", "m.py", Location(8, 14), Location(8, 18), Severity.WARNING)
    assert noqa_edit(text, in_string) is None  # the line ends inside a triple-quoted f-string
    compile(apply_edits(text, [edit]), "m.py", "exec")


def test_finished_notifications_are_forgotten() -> None:
    """pygls files a future per notification; the server's protocol drops it when the handler
    is done, so memory does not grow with every keystroke (benchmarks/results/lsp_memory.md)."""
    from concurrent.futures import Future

    from scalarlint.lsp.server import create_server

    protocol = create_server().protocol
    pending: Future[None] = Future()
    protocol._request_futures["request-7"] = pending
    for k in range(100):
        done: Future[None] = Future()
        done.set_result(None)
        protocol._request_futures[f"notification-{k}"] = done
        protocol._check_handler_result(done)
    assert protocol._request_futures == {"request-7": pending}
