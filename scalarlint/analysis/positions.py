"""Node positions one top-level statement at a time.

libcst's ``PositionProvider`` computes positions by generating the code of the whole module
while counting rows and columns: a file with a single finding paid for every statement in it
(on numpy's whole tree under ``--scope all``, a sixth of the second pass). A finding needs the
positions of a few nodes, and a node's position depends only on the code before it, so
``StatementPositions`` generates the code of just the top-level statement around the node,
starting from the row where that statement's code begins, with libcst's own position-recording
code generator. The row comes from CPython's ``ast`` (the first decorator's, or the
statement's, less the comment and blank lines libcst keeps in front of it).

Every statement's generated code is compared with the source at that row before its positions
are used (libcst round-trips source exactly, so they must agree); on any disagreement, and for
nodes outside the module's statements, the whole module's positions are computed the usual way.
So the answers are ``PositionProvider``'s, whichever path gives them
(``tests/checker/test_positions.py`` compares both on every node of real files).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import libcst as cst
from libcst.metadata import CodeRange, PositionProvider
from libcst.metadata.position_provider import NEWLINE_RE as NEWLINE
from libcst.metadata.position_provider import PositionProvidingCodegenState

from scalarlint.analysis.fast_walk import resolve_positions
from scalarlint.analysis.syntax_versions import ast_parse


class StatementPositions(Mapping[cst.CSTNode, CodeRange]):
    """``PositionProvider``'s positions for ``module`` (parsed from ``text``), computed for the
    top-level statement around each node asked about."""

    def __init__(self, module: cst.Module, parents: Mapping[cst.CSTNode, cst.CSTNode], text: str) -> None:
        self.module = module
        self.parents = parents
        self.text = text
        self._computed: dict[cst.CSTNode, CodeRange] = {}
        self._done: set[int] = set()  # ids of the top-level statements already positioned
        self._starts: dict[int, int] | None = None  # top-level statement id -> first row of its code
        self._next = {id(a): b for a, b in zip(module.body, module.body[1:])}
        self._line_offsets: list[int] | None = None
        self._whole = False

    # -- Mapping -----------------------------------------------------------------------------
    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        found = self._computed.get(node)
        if found is None:
            self._position_around(node)
            found = self._computed[node]
        return found

    def __contains__(self, node: object) -> bool:
        if node in self._computed:
            return True
        if not isinstance(node, cst.CSTNode):
            return False
        self._position_around(node)
        return node in self._computed

    def __iter__(self) -> Iterator[cst.CSTNode]:
        self._position_all()
        return iter(self._computed)

    def __len__(self) -> int:
        self._position_all()
        return len(self._computed)

    # -- computing ---------------------------------------------------------------------------
    def _position_around(self, node: cst.CSTNode) -> None:
        if self._whole:
            return
        statement = self._top_statement(node)
        if statement is None or id(statement) in self._done or not self._position_statement(statement):
            self._position_all()

    def _position_all(self) -> None:
        if not self._whole:
            self._computed = dict(resolve_positions(self.module))
            self._whole = True

    def _top_statement(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The module-level statement holding ``node`` (None for the module, its header and
        footer, and nodes of other trees)."""
        current, parent = node, self.parents.get(node)
        while parent is not None and parent is not self.module:
            current, parent = parent, self.parents.get(parent)
        return current if parent is self.module and isinstance(current, cst.BaseStatement) else None

    def _position_statement(self, statement: cst.CSTNode) -> bool:
        """Position one top-level statement's nodes; False when its code is not where the
        ``ast`` rows say (the caller then positions the whole module)."""
        row = self._statement_starts().get(id(statement))
        if row is None:
            return False
        provider = PositionProvider()
        provider._computed = {}
        state = PositionProvidingCodegenState(default_indent=self.module.default_indent, default_newline=self.module.default_newline, provider=provider)
        state.line = row
        statement._codegen(state)
        module = self.module
        if statement is module.body[-1] and not module.footer and not module.has_trailing_newline and state.tokens:
            state.tokens.pop()  # as ``Module`` does at the end of a file without a final newline
        code = "".join(state.tokens)
        offsets = self._offsets()
        if row < 1 or row - 1 >= len(offsets) or not self.text.startswith(code, offsets[row - 1]):
            return False
        following = self._statement_starts().get(id(self._next.get(id(statement))), None)
        if following is not None and following != row + len(NEWLINE.findall(code)):
            return False  # the next statement's code must start where this one's ends
        self._computed.update(provider._computed)
        self._done.add(id(statement))
        return True

    def _statement_starts(self) -> dict[int, int]:
        """Top-level statement id -> the row its code (leading comments and blank lines
        included) starts on, read off the ``ast`` tree; {} when the two trees disagree."""
        if self._starts is None:
            self._starts = _starts(self.module, self.text)
        return self._starts

    def _offsets(self) -> list[int]:
        """The offset in ``text`` of each row's first character, as libcst counts rows."""
        if self._line_offsets is None:
            self._line_offsets = [0, *(m.end() for m in NEWLINE.finditer(self.text))]
        return self._line_offsets


def _starts(module: cst.Module, text: str) -> dict[int, int]:
    """See ``StatementPositions._statement_starts``: the k-th ``ast`` statement is the first of
    the k-th libcst one (a line of ``a; b`` is one libcst statement and two ``ast`` ones)."""
    try:
        tree = ast_parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return {}
    body = tree.body
    starts: dict[int, int] = {}
    k = 0
    for statement in module.body:
        if k >= len(body):
            return {}
        first = body[k]
        decorators = getattr(first, "decorator_list", None)
        row = decorators[0].lineno if decorators else first.lineno
        row -= len(statement.leading_lines)
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) and statement.decorators:
            row -= len(statement.decorators[0].leading_lines)
        starts[id(statement)] = row
        k += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
    return starts if k == len(body) else {}
