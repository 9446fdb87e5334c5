"""The scalarlint language server (``scalarlint lsp``, stdio, pygls 2): built with every
feature registered, and served.

Each topic registers its own handlers, so this module reads as the list of what the server
answers: the session (initialize, configuration, shutdown and exit, here), the diagnostics
of documents and notebooks (``document_sync``) and the code actions
(``code_action_handlers``). The state they share, and the design choices behind the
checking, are in ``language_server``.
"""

from __future__ import annotations

import logging
import sys

from lsprotocol import types

from scalarlint.lsp.code_action_handlers import register_code_actions
from scalarlint.lsp.document_sync import register_notebooks, register_text_documents
from scalarlint.lsp.language_server import DEBOUNCE_S, ScalarlintLanguageServer


def create_server(debounce: float = DEBOUNCE_S) -> ScalarlintLanguageServer:
    """A server with every feature registered (separate from ``start`` so it can be embedded)."""
    server = ScalarlintLanguageServer(debounce=debounce)
    register_session(server)
    register_text_documents(server)
    register_notebooks(server)
    register_code_actions(server)
    return server


def register_session(server: ScalarlintLanguageServer) -> None:
    """The session's lifecycle: editor-side options, the warm-up, shutdown and exit."""

    @server.feature(types.INITIALIZE)
    def initialize(ls: ScalarlintLanguageServer, params: types.InitializeParams) -> None:
        if params.initialization_options is not None:
            ls.set_overrides(params.initialization_options, "initializationOptions")

    @server.feature(types.INITIALIZED)
    def initialized(ls: ScalarlintLanguageServer, params: types.InitializedParams) -> None:
        ls.warm_up()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: ScalarlintLanguageServer, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and isinstance(settings.get("scalarlint"), dict):
            ls.set_overrides(settings["scalarlint"], "workspace settings")
            for uri in list(ls.snapshots):
                ls.schedule(uri, 0)

    @server.feature(types.EXIT)
    def exit_(ls: ScalarlintLanguageServer, params: None) -> None:
        # LSP: exit code 0 after a shutdown request, 1 without one. pygls computes it and then
        # swallows the SystemExit, so ``start`` applies it.
        ls.exit_code = 0 if ls.protocol._shutdown else 1

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: ScalarlintLanguageServer, params: None) -> None:
        for uri in list(ls._pending):
            ls.forget(uri)
        ls.stop_checker()


def start() -> None:
    """Serve on stdin/stdout until the client sends ``exit`` (or closes the pipe)."""
    logging.basicConfig(level=logging.WARNING, format="scalarlint-lsp %(levelname)s %(name)s: %(message)s")
    server = create_server()
    server.start_io()
    # After ``exit`` (or the client closing the connection without one: exit code 1).
    sys.exit(server.exit_code if server.exit_code is not None else (0 if server.protocol._shutdown else 1))
