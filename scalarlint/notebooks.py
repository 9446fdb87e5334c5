"""Jupyter notebooks as Python source: the code cells joined into one module, and back.

The checker and the fixers work on Python text. A notebook becomes one module made of its code
cells, each preceded by a marker comment (``# scalarlint: cell 3``), so that the analysis sees
the names one cell defines and another uses, as the kernel does. IPython syntax is not Python:
a cell that starts with a cell magic (``%%bash``) is left out, and a line magic or shell escape
(``%timeit f(x)``, ``!pip install``, ``x = !ls``, ``f?``) becomes a ``pass`` placeholder that is
put back when the notebook is written.

Writing back touches only the ``source`` value of the cells whose code changed, in the style
the file already uses (a list of lines or one string, the same indentation and separators, the
same escaping); outputs, metadata, key order and every other byte stay as they were. If a fix
moved code across a cell boundary the notebook is not written (:class:`NotebookError`).

Locations: a finding in a notebook names the cell (1-based position among all cells, as
``cells[n - 1]`` in the JSON) and the row within it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from json.decoder import scanstring
from typing import Any

from scalarlint.diagnostics import Location

CELL_MARK = "# scalarlint: cell {n}"
MAGIC_MARK = "pass  # scalarlint: magic {k}"
_CELL_LINE = re.compile(r"# scalarlint: cell (\d+)")
_MAGIC_LINE = re.compile(r"([ \t]*)pass  # scalarlint: magic (\d+)")
_ASSIGNED_MAGIC = re.compile(r"[ \t]*[\w.,\[\]() \t]+=[ \t]*[%!]")
_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class NotebookError(ValueError):
    """The notebook cannot be read as one, or a fixed text cannot be split back into its cells."""


@dataclass(frozen=True)
class CodeCell:
    number: int  # 1-based position among all cells
    text: str  # the cell's source as in the notebook
    span: tuple[int, int]  # of its ``source`` value in the JSON text
    item_spans: tuple[tuple[int, int], ...]  # of the list items, when ``source`` is a list
    is_list: bool


@dataclass(frozen=True)
class Notebook:
    """A notebook's JSON text and how its code cells map onto the joined Python text."""

    json_text: str
    cells: tuple[CodeCell, ...]
    rows: tuple[tuple[int, int] | None, ...]  # joined row - 1 -> (cell number, row in cell)
    magics: tuple[str, ...]  # the lines the placeholders stand for

    def locate(self, location: Location) -> tuple[int | None, Location]:
        """The cell and the cell-relative location of a location in the joined text."""
        index = location.row - 1
        if 0 <= index < len(self.rows) and self.rows[index] is not None:
            cell, row = self.rows[index]  # type: ignore[misc]
            return cell, Location(row, location.column)
        return None, location

    def render(self, python: str) -> str:
        """The notebook's JSON text with the code cells of ``python`` (a joined text, fixed)."""
        bodies = _split_cells(python, [c.number for c in self.cells])
        used: set[int] = set()
        out: list[str] = []
        cursor = 0
        for cell in self.cells:
            text = _restore_magics(bodies[cell.number], self.magics, used)
            if text == cell.text:
                continue
            start, end = cell.span
            out.append(self.json_text[cursor:start])
            out.append(_source_value(text, cell, self.json_text))
            cursor = end
        if used != set(range(len(self.magics))):
            raise NotebookError("a fix removed an IPython magic line; not written")
        out.append(self.json_text[cursor:])
        return "".join(out)


def read_notebook(json_text: str) -> tuple[str, Notebook]:
    """The joined Python text of a notebook's code cells, and the notebook."""
    spans: dict[tuple[Any, ...], tuple[int, int]] = {}
    try:
        data, end = _value(json_text, 0, (), spans)
    except (ValueError, IndexError, RecursionError) as exc:
        raise NotebookError(f"not a notebook: invalid JSON ({exc})") from None
    if _WS.match(json_text, end).end() != len(json_text):
        raise NotebookError("not a notebook: text after the JSON document")
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotebookError("not a notebook: no 'cells' list (nbformat 4 is supported)")
    cells: list[CodeCell] = []
    for index, cell in enumerate(data["cells"]):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code" or ("cells", index, "source") not in spans:
            continue
        source = cell.get("source", "")
        is_list = isinstance(source, list)
        text = "".join(source) if is_list else str(source)
        items = tuple(spans[("cells", index, "source", k)] for k in range(len(source))) if is_list else ()
        cells.append(CodeCell(index + 1, text, spans[("cells", index, "source")], items, is_list))
    return _join(cells, json_text)


def join_cells(texts: list[str]) -> tuple[str, Notebook]:
    """The joined Python text of code cells given as texts (an editor's notebook), numbered
    1, 2, ... in order; the notebook has no JSON to render back into."""
    return _join([CodeCell(k + 1, text, (0, 0), (), False) for k, text in enumerate(texts)], "")


def _join(cells: list[CodeCell], json_text: str) -> tuple[str, Notebook]:
    lines: list[str] = []
    rows: list[tuple[int, int] | None] = []
    magics: list[str] = []
    kept: list[CodeCell] = []
    for cell in cells:
        if _has_cell_magic(cell.text):
            continue
        kept.append(cell)
        lines.append(CELL_MARK.format(n=cell.number))
        rows.append(None)
        for row, line in enumerate(_cell_lines(cell.text), 1):
            if _is_magic(line):
                magics.append(line)
                indent = line[: len(line) - len(line.lstrip(" \t"))]
                line = indent + MAGIC_MARK.format(k=len(magics) - 1)
            lines.append(line)
            rows.append((cell.number, row))
    notebook = Notebook(json_text, tuple(kept), tuple(rows), tuple(magics))
    return "\n".join(lines) + "\n", notebook


# -- cells and magics --------------------------------------------------------------------------
def _cell_lines(text: str) -> list[str]:
    """The cell's lines (split on ``\\n`` only: a form feed is not a line end); a final
    newline does not make an extra line."""
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def _has_cell_magic(text: str) -> bool:
    for line in text.split("\n"):
        if line.strip():
            return line.lstrip().startswith("%%")
    return False


def _is_magic(line: str) -> bool:
    stripped = line.strip()
    if stripped.startswith(("%", "!", "?")) or _ASSIGNED_MAGIC.match(line):
        return True
    return stripped.endswith("?") and "#" not in stripped and not stripped.startswith(("'", '"'))


def _split_cells(python: str, numbers: list[int]) -> dict[int, str]:
    bodies: dict[int, list[str]] = {}
    preamble: list[str] = []
    current: list[str] | None = None
    lines = python.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the joined text ends with one newline
    for line in lines:
        match = _CELL_LINE.fullmatch(line)
        if match:
            number = int(match.group(1))
            if number in bodies:
                raise NotebookError(f"cell {number} appears twice after fixing; not written")
            current = bodies[number] = []
        elif current is None:
            preamble.append(line)  # an import a fix put above the first cell
        else:
            current.append(line)
    if sorted(bodies) != sorted(numbers):
        raise NotebookError("a fix moved code across cells; not written")
    if preamble and numbers:
        bodies[numbers[0]][:0] = preamble
    return {n: "\n".join(body) for n, body in bodies.items()}


def _restore_magics(text: str, magics: tuple[str, ...], used: set[int]) -> str:
    def put_back(match: re.Match[str]) -> str:
        k = int(match.group(2))
        if k >= len(magics) or k in used:
            raise NotebookError("an IPython magic line was duplicated by a fix; not written")
        used.add(k)
        return magics[k]

    return re.sub(r"(?m)^" + _MAGIC_LINE.pattern + "$", put_back, text)


# -- JSON with positions -----------------------------------------------------------------------
def _value(text: str, i: int, path: tuple[Any, ...], spans: dict[tuple[Any, ...], tuple[int, int]]) -> tuple[Any, int]:
    """Decode the JSON value at ``i``, recording where cell sources and their items lie."""
    i = _WS.match(text, i).end()
    start = i
    opener = text[i : i + 1]
    if opener == "{":
        result: Any = {}
        i = _WS.match(text, i + 1).end()
        while text[i : i + 1] != "}":
            if text[i : i + 1] != '"':
                raise ValueError(f"expected a key at offset {i}")
            key, i = scanstring(text, i + 1)
            i = _WS.match(text, i).end()
            if text[i : i + 1] != ":":
                raise ValueError(f"expected ':' at offset {i}")
            result[key], i = _value(text, i + 1, (*path, key), spans)
            i = _separator(text, i, "}")
        i += 1
    elif opener == "[":
        result = []
        i = _WS.match(text, i + 1).end()
        while text[i : i + 1] != "]":
            item, i = _value(text, i, (*path, len(result)), spans)
            result.append(item)
            i = _separator(text, i, "]")
        i += 1
    else:
        result, i = _DECODER.raw_decode(text, i)
    if _records(path):
        spans[path] = (start, i)
    return result, i


def _separator(text: str, i: int, closer: str) -> int:
    i = _WS.match(text, i).end()
    if text[i : i + 1] == ",":
        return _WS.match(text, i + 1).end()
    if text[i : i + 1] != closer:
        raise ValueError(f"expected ',' or {closer!r} at offset {i}")
    return i


def _records(path: tuple[Any, ...]) -> bool:
    return len(path) in (3, 4) and path[0] == "cells" and path[2] == "source"


def _source_value(text: str, cell: CodeCell, json_text: str) -> str:
    """``text`` as a JSON ``source`` value laid out like the one it replaces."""
    start, end = cell.span
    ascii_only = "\\u" in json_text[start:end] and json_text[start:end].isascii()

    def dump(value: str) -> str:
        return json.dumps(value, ensure_ascii=ascii_only)

    if not cell.is_list:
        return dump(text)
    items = text.splitlines(keepends=True) if text else []
    if not items:
        return "[]"
    spans = cell.item_spans
    if spans:
        opening = json_text[start + 1 : spans[0][0]]
        closing = json_text[spans[-1][1] : end - 1]
        separator = json_text[spans[0][1] : spans[1][0]] if len(spans) > 1 else "," + opening
    else:  # was empty: indent one step deeper than the line holding "source"
        line_start = json_text.rfind("\n", 0, start) + 1
        indent = json_text[line_start : line_start + len(json_text[line_start:start]) - len(json_text[line_start:start].lstrip())]
        opening, closing = "\n" + indent + " ", "\n" + indent
        separator = "," + opening
    return "[" + opening + separator.join(dump(item) for item in items) + closing + "]"
