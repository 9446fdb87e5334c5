"""A large module parsed in pieces gives exactly the tree of one parse (``deep_equals``, and
the module's own settings), or None where it cannot vouch for that; ``parse_module`` uses it
for large texts and still reports a syntax error as one parse would."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from scalarlint.analysis.fast_parse import parse
from scalarlint.analysis.piecewise_parse import _pieces, parse_in_pieces
from scalarlint.analysis.pruning import split_lines
from scalarlint.analysis.syntax_versions import PIECEWISE_BYTES, _parse_one, ast_parse, parse_module

EVERY_CUT = 1  # piece_bytes: cut wherever a cut is allowed


def _same_as_one_parse(text: str, piece_bytes: int = EVERY_CUT) -> cst.Module | None:
    pieces = parse_in_pieces(text, ast_parse(text), _parse_one, piece_bytes)
    if pieces is None:
        return None
    whole = _parse_one(text)
    assert pieces.deep_equals(whole)
    assert pieces.code == text
    for setting in ("encoding", "default_indent", "default_newline", "has_trailing_newline"):  # header, footer: deep_equals
        assert getattr(pieces, setting) == getattr(whole, setting), setting
    return pieces


CASES = {
    "comments and blank lines between statements": """\
        #!/usr/bin/env python
        # -*- coding: latin-1 -*-
        \"\"\"Docstring.\"\"\"

        import os

        # about f

        def f(x):
            return x[0]


        # about C
        class C:
            def m(self):
                pass
            # indented: the class body's footer, so no cut before the next statement

        x = 1; y = 2
        z = (1,
             2)
        w = 1 + \\
            2
        s = '''
        text at column 0
        '''

        # trailing comment
        """,
    "decorators with comments between them": """\
        import functools

        @functools.lru_cache
        # between decorators
        @staticmethod
        def g():
            pass
        def h():
            pass
        """,
    "tab indentation": "x = 1\ndef f():\n\tif x:\n\t\treturn 1\n\treturn 2\ndef g():\n\treturn 3\n",
    "two-space indentation found late": "a = 1\nb = 2\nif a:\n  b = 3\ndef f():\n  return a\n",
    "no indentation at all": "a = 1\nb = 2\nc = [\n    1,\n]\n",
    "no final newline": "a = 1\ndef f():\n    return 2\nb = 3",
    "compound statement on one line first": "if a: pass\nelse:\n  b = 1\ndef f():\n  return 2\n",
    "new syntax": "type X = list[int]\n\ndef f[T](x: T) -> T:\n    return x\n\nclass C[T]:\n    pass\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pieces_make_the_tree_of_one_parse(name: str) -> None:
    text = textwrap.dedent(CASES[name]) if name != "tab indentation" else CASES[name]
    assert _same_as_one_parse(text) is not None


def test_a_cut_never_falls_before_an_indented_comment_or_inside_a_line() -> None:
    text = textwrap.dedent(CASES["comments and blank lines between statements"])
    pieces = _pieces(split_lines(text), ast.parse(text).body, EVERY_CUT)
    assert "".join(pieces) == text
    assert not any(piece.startswith("    # indented") for piece in pieces)
    assert not any(piece.startswith("y = 2") for piece in pieces)
    assert any(piece.startswith("\n\n# about C\nclass C:") for piece in pieces)  # leading lines travel with their statement


@pytest.mark.parametrize("text", ["a = 1\r\nb = 2\r\n", "a = 1\n\x0c\nb = 2\n", "a = 1\n"])
def test_texts_it_cannot_vouch_for_are_left_to_one_parse(text: str) -> None:
    assert parse_in_pieces(text, ast.parse(text), parse, EVERY_CUT) is None


def test_a_later_piece_indented_otherwise_keeps_its_own_indentation() -> None:
    # the opener makes the first piece's indentation the module's, so g's block records its tab
    # as one parse does
    assert _same_as_one_parse("def f():\n    return 1\ndef g():\n\treturn 2\n") is not None


def _real_files() -> list[Path]:
    roots = [Path(cst.__file__).parent, Path(__file__).parents[2] / "scalarlint"]
    return sorted(p for root in roots for p in root.rglob("*.py") if p.stat().st_size > 8_000)


@pytest.mark.slow
@pytest.mark.parametrize("path", _real_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_files_in_pieces_make_the_tree_of_one_parse(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _same_as_one_parse(text, piece_bytes=2_000)


def test_parse_module_parses_a_large_text_in_pieces_and_reports_errors_as_one_parse() -> None:
    unit = "def f{n}(x):\n    return x[{n}]\n\n"
    text = "".join(unit.format(n=n) for n in range(PIECEWISE_BYTES // 20))
    assert len(text) >= PIECEWISE_BYTES
    module = parse_module(text)
    assert module.deep_equals(parse(text))
    with pytest.raises(cst.ParserSyntaxError):
        parse_module(text + "def broken(:\n")
