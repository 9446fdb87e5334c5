"""Notebooks in the editor: check the code cells of a notebook document together, and publish
each cell's diagnostics on the cell's own URI.

A client that syncs notebooks (``notebookDocument/*``, LSP 3.17) sends the cells as text
documents with their own URIs; pygls keeps them in the workspace. The cells are joined the way
``scalarlint check`` joins a ``.ipynb`` file (:func:`scalarlint.notebooks.join_cells`), so a
rule in one cell sees the helpers and imports of the others, and line magics do not break the
parse. Quick fixes are offered for Python files only; a notebook gets its diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from scalarlint.diagnostics import Diagnostic

SYNC_OPTIONS = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(cells=[types.NotebookCellLanguage(language="python")], notebook="*")
    ],
    save=True,
)


@dataclass
class NotebookSnapshot:
    """One state of a notebook's code cells and the diagnostics of each cell."""

    uri: str
    version: int | None
    cells: list[tuple[str, str]]  # (cell URI, text), code cells in notebook order
    path: str | None
    diagnostics: dict[str, list[Diagnostic]] = field(default_factory=dict)
    error: str | None = None


def snapshot_of(workspace: Any, uri: str, path: str | None) -> NotebookSnapshot | None:
    """The notebook's code cells as they are now (``None`` if the notebook is not open)."""
    notebook = workspace.get_notebook_document(notebook_uri=uri)
    if notebook is None:
        return None
    cells: list[tuple[str, str]] = []
    for cell in notebook.cells:
        if cell.kind != types.NotebookCellKind.Code:
            continue
        document = workspace.get_text_document(cell.document)
        if getattr(document, "language_id", None) in (None, "python"):
            cells.append((cell.document, document.source))
    return NotebookSnapshot(uri=uri, version=notebook.version, cells=cells, path=path)


def check_cells(snapshot: NotebookSnapshot, config: Any) -> NotebookSnapshot:
    """Worker thread: check the joined cells and sort the findings by cell URI."""
    from scalarlint.analysis.sources import SourceFile
    from scalarlint.engine import check_source
    from scalarlint.notebooks import join_cells

    text, notebook = join_cells([cell_text for _, cell_text in snapshot.cells])
    name = snapshot.path or snapshot.uri
    source = SourceFile(name, text, "utf-8", text.encode("utf-8", "surrogatepass"), notebook=notebook)
    outcome = check_source(source, config)
    snapshot.diagnostics = {cell_uri: [] for cell_uri, _ in snapshot.cells}
    if not isinstance(outcome, list):  # shown in the cell where the parse fails
        snapshot.error = outcome.message
        outcome = [outcome.as_diagnostic()] if outcome.cell is not None else []
    for diagnostic in outcome:
        if diagnostic.cell is not None and 0 < diagnostic.cell <= len(snapshot.cells):
            snapshot.diagnostics[snapshot.cells[diagnostic.cell - 1][0]].append(diagnostic)
    return snapshot


def cell_text(snapshot: NotebookSnapshot, cell_uri: str) -> str:
    return next((text for uri, text in snapshot.cells if uri == cell_uri), "")
