"""What keeps the diagnostics current: the text documents' and notebooks' open, change, save
and close notifications, each scheduling a check (or clearing what was published).

Kept apart from the code actions (``code_action_handlers``), which only read the checks these
notifications schedule; the checking itself is ``ScalarlintLanguageServer.schedule``.
"""

from __future__ import annotations

from lsprotocol import types

from scalarlint.config import CONFIG_FILE_NAMES
from scalarlint.lsp.language_server import ScalarlintLanguageServer, is_python


def register_text_documents(server: ScalarlintLanguageServer) -> None:
    """A Python document is checked when it opens or is saved, and after a pause in typing."""

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: ScalarlintLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        if is_python(params.text_document):
            ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: ScalarlintLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        document = ls.workspace.get_text_document(params.text_document.uri)
        if is_python(document):
            ls.schedule(document.uri, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: ScalarlintLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.endswith(CONFIG_FILE_NAMES):
            # The configuration may have changed: every open Python document is re-checked.
            for other in list(ls.snapshots):
                ls.schedule(other, 0)
            return
        if is_python(ls.workspace.get_text_document(uri)):
            ls.schedule(uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: ScalarlintLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        had = uri in ls.snapshots or uri in ls._pending
        ls.forget(uri)
        if had:
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def register_notebooks(server: ScalarlintLanguageServer) -> None:
    """A notebook is checked as a whole (its code cells together), its diagnostics per cell."""

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_did_open(ls: ScalarlintLanguageServer, params: types.DidOpenNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, 0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_did_change(ls: ScalarlintLanguageServer, params: types.DidChangeNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, ls.debounce)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_did_save(ls: ScalarlintLanguageServer, params: types.DidSaveNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, 0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_did_close(ls: ScalarlintLanguageServer, params: types.DidCloseNotebookDocumentParams) -> None:
        ls.forget_notebook(params.notebook_document.uri)
