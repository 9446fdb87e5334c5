"""``scalarlint lsp`` and notebook documents (LSP 3.17 ``notebookDocument/*``), end to end.

The client opens a notebook whose cells are text documents with their own URIs, as VS Code
does; the server checks the code cells together and publishes each cell's diagnostics on the
cell's URI, with positions inside the cell.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the LSP extra (pygls) is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from lsprotocol import types  # noqa: E402
from pytest_lsp import LanguageClient  # noqa: E402

from test_lsp import SERVER, TIMEOUT, _start, code_actions, wait_until  # noqa: E402  (same folder)

pytestmark = [pytest.mark.slow]

IMPORTS = "%matplotlib inline\nimport numpy as np"
RULE = '''def rrule_first(x):
    def first_pullback(dy):
        dx = np.zeros_like(x)
        k = int(np.argmax(x))
        dx[k] = dy
        return (dx,)

    return x, first_pullback'''
VECTORIZED = '''def rrule_first(x):
    def first_pullback(dy):
        return (np.where(np.arange(x.shape[0]) == np.argmax(x), dy, 0),)

    return x, first_pullback'''


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    await _start(lsp_client, [tmp_path])
    yield
    await lsp_client.shutdown_session()


def _cells(notebook: str, texts: list[tuple[types.NotebookCellKind, str]]) -> tuple[list[types.NotebookCell], list[types.TextDocumentItem]]:
    cells, documents = [], []
    for k, (kind, text) in enumerate(texts):
        uri = f"vscode-notebook-cell:{notebook}#cell{k}"
        cells.append(types.NotebookCell(kind=kind, document=uri))
        language = "python" if kind == types.NotebookCellKind.Code else "markdown"
        documents.append(types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text))
    return cells, documents


def _latest(client: LanguageClient, uri: str, after: int) -> list[types.Diagnostic] | None:
    published = client.published[after:]  # type: ignore[attr-defined]
    found = [p for p in published if p.uri == uri]
    return list(found[-1].diagnostics) if found else None


@pytest.mark.asyncio(loop_scope="function")
async def test_notebook_cells_get_their_own_diagnostics(client: LanguageClient, tmp_path: Path) -> None:
    notebook = "/" + str(tmp_path / "rules.ipynb").lstrip("/")
    uri = (tmp_path / "rules.ipynb").as_uri()
    code, markdown = types.NotebookCellKind.Code, types.NotebookCellKind.Markup
    cells, documents = _cells(notebook, [(code, IMPORTS), (markdown, "x[0] is prose"), (code, RULE)])
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(uri=uri, notebook_type="jupyter-notebook", version=1, cells=cells),
            cell_text_documents=documents,
        )
    )
    rule_cell, import_cell = documents[2].uri, documents[0].uri
    await wait_until(lambda: _latest(client, rule_cell, 0) is not None, "diagnostics of the rule cell", TIMEOUT)
    found = _latest(client, rule_cell, 0)
    assert found is not None and [d.code for d in found] == ["SL102"]
    assert found[0].range.start == types.Position(line=4, character=8)  # `dx[k]` in the cell
    assert _latest(client, import_cell, 0) == []
    assert _latest(client, documents[1].uri, 0) is None  # markdown is not checked

    # quick fixes are for Python files; a cell gets none
    assert await code_actions(client, rule_cell, found[0].range, found) == []

    mark = len(client.published)  # type: ignore[attr-defined]
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=uri, version=2),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(uri=rule_cell, version=2),
                            changes=[types.TextDocumentContentChangeWholeDocument(text=VECTORIZED)],
                        )
                    ]
                )
            ),
        )
    )
    await wait_until(lambda: _latest(client, rule_cell, mark) is not None, "diagnostics after the edit", TIMEOUT)
    assert _latest(client, rule_cell, mark) == []

    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=uri, version=3),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(uri=rule_cell, version=3),
                            changes=[types.TextDocumentContentChangeWholeDocument(text=RULE)],
                        )
                    ]
                )
            ),
        )
    )
    mark = len(client.published)  # type: ignore[attr-defined]
    await wait_until(lambda: bool(_latest(client, rule_cell, mark)), "the finding again", TIMEOUT)
    mark = len(client.published)  # type: ignore[attr-defined]
    client.notebook_document_did_close(
        types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=uri),
            cell_text_documents=[types.TextDocumentIdentifier(uri=d.uri) for d in documents],
        )
    )
    await wait_until(lambda: _latest(client, rule_cell, mark) == [], "diagnostics cleared on close", TIMEOUT)
