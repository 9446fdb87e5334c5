"""Node positions one statement at a time: a class member, or a top-level statement.

libcst's ``PositionProvider`` computes positions by generating the code of the whole module
while counting rows and columns: a file with a single finding paid for every statement in it
(on numpy's whole tree under ``--scope all``, a sixth of the second pass). A finding needs the
positions of a few nodes, and a node's position depends only on the code before it, so
``StatementPositions`` generates the code of just the statement around the node, starting
from the row where that statement's code begins, with libcst's own position-recording code
generator: the member of a class when the node is in one (test classes of thousands of lines
are common, and generating all of one for a finding cost a tenth of numpy's ``--scope all``
run), else the top-level statement. The row comes from CPython's ``ast`` (the first
decorator's, or the statement's, less the comment and blank lines libcst keeps in front of
it); a member is generated with its class bodies' indentation pushed, as its class would.

Every statement's generated code is compared with the source at that row before its positions
are used (libcst round-trips source exactly, so they must agree); on a disagreement the
statement around it is tried, and last the whole module's positions are computed the usual way
(as for nodes outside the module's statements).
So the answers are ``PositionProvider``'s, whichever path gives them
(``tests/checker/test_positions.py`` compares both on every node of real files).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence

import libcst as cst
from libcst.metadata import CodeRange, PositionProvider
from libcst.metadata.position_provider import NEWLINE_RE as NEWLINE
from libcst.metadata.position_provider import PositionProvidingCodegenState

from scalarlint.analysis.chunks import first_row
from scalarlint.analysis.fast_walk import resolve_positions
from scalarlint.analysis.syntax_versions import ast_parse


class StatementPositions(Mapping[cst.CSTNode, CodeRange]):
    """``PositionProvider``'s positions for ``module`` (parsed from ``text``), computed for the
    statement around each node asked about: the member of a class (at any depth of classes
    in classes) when the node is in one, else the top-level statement."""

    def __init__(self, module: cst.Module, parents: Mapping[cst.CSTNode, cst.CSTNode], text: str) -> None:
        self.module = module
        self.parents = parents
        self.text = text
        self._computed: dict[cst.CSTNode, CodeRange] = {}
        self._done: set[int] = set()  # ids of the statements already positioned
        self._rows: dict[int, int] | None = None  # statement id -> first row of its code
        self._classes: dict[int, ast.ClassDef] = {}  # class id -> its ast class, until its members have rows
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
        path = self._statement_path(node)
        if not path or any(id(statement) in self._done for statement in path):
            self._position_all()
            return
        for depth in range(len(path) - 1, -1, -1):  # the innermost statement first
            if self._position_statement(path[depth], [cls.body for cls in path[:depth]]):  # type: ignore[attr-defined]
                return
        self._position_all()

    def _position_all(self) -> None:
        if not self._whole:
            self._computed = dict(resolve_positions(self.module))
            self._whole = True

    def _statement_path(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        """The statements around ``node`` that can be positioned alone, outermost first: the
        module-level statement, then while that is a class with an indented body, the member
        of it holding ``node``. Empty for the module, its header and footer, and nodes of
        other trees."""
        chain = [node]
        parent = self.parents.get(node)
        while parent is not None and parent is not self.module:
            chain.append(parent)
            parent = self.parents.get(parent)
        if parent is not self.module or not isinstance(chain[-1], cst.BaseStatement):
            return []
        path = [chain[-1]]
        k = len(chain) - 1  # chain[k] is path[-1]
        while isinstance(path[-1], cst.ClassDef) and isinstance(path[-1].body, cst.IndentedBlock) and k >= 2:
            path.append(chain[k - 2])  # class -> its IndentedBlock -> the member
            k -= 2
        return path

    def _position_statement(self, statement: cst.CSTNode, blocks: list[cst.IndentedBlock]) -> bool:
        """Position one statement's nodes (inside ``blocks``, outermost first, for its
        indentation); False when its code is not where the ``ast`` rows say (the caller then
        tries the statement around it, and last the whole module)."""
        row = self._statement_rows(blocks).get(id(statement))
        if row is None:
            return False
        provider = PositionProvider()
        provider._computed = {}
        module = self.module
        state = PositionProvidingCodegenState(default_indent=module.default_indent, default_newline=module.default_newline, provider=provider)
        for block in blocks:
            state.increase_indent(module.default_indent if block.indent is None else block.indent)
        state.line = row
        statement._codegen(state)
        if not blocks and statement is module.body[-1] and not module.footer and not module.has_trailing_newline and state.tokens:
            state.tokens.pop()  # as ``Module`` does at the end of a file without a final newline
        code = "".join(state.tokens)
        offsets = self._offsets()
        if row < 1 or row - 1 >= len(offsets) or not self.text.startswith(code, offsets[row - 1]):
            return False
        following = self._statement_rows(blocks).get(id(self._next.get(id(statement))), None)
        if following is not None and following != row + len(NEWLINE.findall(code)):
            return False  # the next statement's code must start where this one's ends
        self._computed.update(provider._computed)
        self._done.add(id(statement))
        return True

    def _statement_rows(self, blocks: list[cst.IndentedBlock]) -> dict[int, int]:
        """Statement id -> the row its code (leading comments and blank lines included)
        starts on, read off the ``ast`` tree: the module's statements, and the members of the
        class whose body is ``blocks[-1]``; {} where the two trees disagree."""
        if self._rows is None:
            self._rows = {}
            try:
                tree = ast_parse(self.text)
            except (SyntaxError, ValueError, RecursionError):
                return self._rows
            self._read_rows(self.module.body, tree.body)
        if blocks:
            node = self._classes.pop(id(self.parents.get(blocks[-1])), None)
            if node is not None:
                members = blocks[-1].body
                self._read_rows(members, node.body)
                self._next.update({id(a): b for a, b in zip(members, members[1:])})
        return self._rows

    def _read_rows(self, statements: Sequence[cst.BaseStatement], body: list[ast.stmt]) -> None:
        """Rows of ``statements`` from ``body``, their ``ast`` statements: the k-th ``ast``
        statement is the first of the k-th libcst one (a line of ``a; b`` is one libcst
        statement and two ``ast`` ones). Nothing when the counts disagree."""
        rows: dict[int, int] = {}
        classes: dict[int, ast.ClassDef] = {}
        k = 0
        for statement in statements:
            if k >= len(body):
                return
            first = body[k]
            row = first_row(first) - len(statement.leading_lines)
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) and statement.decorators:
                row -= len(statement.decorators[0].leading_lines)
            rows[id(statement)] = row
            if isinstance(first, ast.ClassDef):
                classes[id(statement)] = first
            k += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
        if k == len(body):
            assert self._rows is not None
            self._rows.update(rows)
            self._classes.update(classes)

    def _offsets(self) -> list[int]:
        """The offset in ``text`` of each row's first character (``row_starts``)."""
        if self._line_offsets is None:
            self._line_offsets = row_starts(self.text)
        return self._line_offsets


def row_starts(text: str) -> list[int]:
    """The offset in ``text`` of each row's first character, as libcst counts rows (they end at
    ``\\r\\n``, ``\\r`` or ``\\n``): ``row_starts(text)[r - 1] + c`` is where libcst's row ``r``,
    column ``c`` is."""
    return [0, *(m.end() for m in NEWLINE.finditer(text))]
