"""Any Python syntax on any supported interpreter: newer grammars for libcst, a downgrade for ``ast``.

scalarlint runs on Python 3.10 and up, but the code it checks may use syntax newer than the
interpreter: PEP 695 ``type`` statements and generic ``def f[T]``/``class C[T]`` (3.12),
PEP 701 f-strings that reuse their quotes (3.12). libcst's native parser knows every grammar
up to 3.14 whatever Python runs it, so the analysis parses with the running version first
and then with the newest. CPython's ``ast`` (the first pass, and the check that a fix still
compiles) only knows the running grammar; ``downgraded`` rewrites the newer constructs into
older ones that keep every line, every ``def``, ``class`` and ``lambda``, and every name the
first pass reads: ``type X = v`` becomes ``X = v``, type parameter lists are dropped, and
(only when that is not enough) a new-style f-string becomes a plain string of the same lines.
A file is unparsable only when no grammar accepts it.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import libcst as cst

NEWEST = "3.14"
# (libcst is imported only when the running grammar fails: the first pass on ordinary files
# stays libcst-free)
PIECEWISE_BYTES = 64_000  # a text this long is parsed in pieces (memory)


def parse_module(text: str) -> cst.Module:
    """libcst's tree of ``text``: the running interpreter's grammar, else the newest one; a
    large text in pieces (``piecewise_parse``: the same tree at a fraction of the peak memory)."""
    if len(text) >= PIECEWISE_BYTES:
        from scalarlint.analysis.piecewise_parse import parse_in_pieces

        try:
            tree = ast_parse(text)
        except (SyntaxError, ValueError, RecursionError):
            tree = None
        module = parse_in_pieces(text, tree, _parse_one) if tree is not None else None
        if module is not None:
            return module
    return _parse_one(text)


def _parse_one(text: str) -> cst.Module:
    import libcst as cst

    from scalarlint.analysis.fast_parse import parse

    from scalarlint.time_limit import parser_running

    with parser_running():
        try:
            return parse(text)
        except cst.ParserSyntaxError as first:
            try:
                return parse(text, config=cst.PartialParserConfig(python_version=NEWEST))
            except cst.ParserSyntaxError:
                raise first from None


def ast_parse(text: str, filename: str = "<unknown>") -> ast.Module:
    """CPython's tree of ``text``, through ``downgraded`` when the running grammar is too old.
    Raises the original ``SyntaxError`` when no grammar accepts the file. The per-file time
    limit's alarm waits while CPython's parser runs (``time_limit.parser_running``)."""
    from scalarlint.time_limit import parser_running

    try:
        with parser_running():
            return ast.parse(text, filename=filename)
    except SyntaxError as error:
        older = downgraded(text)
        if older is None:
            raise
        try:
            with parser_running():
                return ast.parse(older, filename=filename)
        except SyntaxError:
            raise error from None


def downgraded(text: str) -> str | None:
    """``text`` without 3.12+ syntax, line for line; None when libcst cannot parse it either."""
    import libcst as cst

    from scalarlint.analysis._syntax_downgrade import PlainFStrings, WithoutTypeParameters

    try:
        module = cst.parse_module(text, config=cst.PartialParserConfig(python_version=NEWEST))
    except Exception:
        return None
    first = module.visit(WithoutTypeParameters())
    code = first.code  # type: ignore[union-attr]
    try:
        ast.parse(code)
        return code
    except SyntaxError:
        pass
    return first.visit(PlainFStrings()).code  # type: ignore[union-attr]
