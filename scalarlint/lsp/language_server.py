"""The language server's state and its checking: ``ScalarlintLanguageServer``.

What the server answers is registered elsewhere (``server``, ``document_sync``,
``code_action_handlers``); this module holds what those handlers share: the documents' last
checks, the worker thread that runs the checker, the configuration per document and the
messages back to the client.

Design choices, and why:

- **One worker thread for the checker.** Checking is CPU-bound Python; the event loop must
  stay free to read the client's messages (so a newer edit can make a running check stale).
  One thread, not several: the checker's libraries keep module-level caches that are not
  documented as thread-safe, and a second thread would not run faster under the GIL anyway.
- **Debounced changes, immediate open/save.** Typing sends a change per keystroke; a check
  starts only after ``DEBOUNCE_S`` without a newer change. Every scheduled check has a
  generation number; a newer one cancels the older task, a queued check that is already
  stale does not start, and a result that arrives stale is dropped instead of published.
- **Configuration per document**: the nearest ``.scalarlint.toml``, ``scalarlint.toml`` or ``pyproject.toml`` with ``[tool.scalarlint]``
  above the file (``load_config``), so multi-folder workspaces and files outside any folder
  each get their own, then ``initializationOptions`` (and ``workspace/didChangeConfiguration``
  settings) on top, in the same kebab-case keys as ``[tool.scalarlint]``.
- **Import-light start**: only pygls/lsprotocol load before ``initialize`` is answered; the
  checker (libcst, astroid) is imported in the worker thread after ``initialized``, so the
  editor sees a started server at once and the first check does not pay for imports.
"""

from __future__ import annotations

import asyncio
import enum
import gc
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from scalarlint import __version__
from scalarlint.config import Config, ConfigError, config_from_table, load_config
from scalarlint.lsp import notebook_cells
from scalarlint.lsp.actions import Snapshot
from scalarlint.lsp.convert import LineIndex, to_lsp_diagnostic
from scalarlint.lsp.notebook_cells import NotebookSnapshot
from scalarlint.lsp.wire_errors import ErrorReportingProtocol, error_response

DEBOUNCE_S = 0.3
PYTHON_SUFFIXES = (".py", ".pyi")

logger = logging.getLogger("scalarlint.lsp")


def normalize_options(options: Any) -> dict[str, Any]:
    """Accept ``{"select": [...]}`` or ``{"scalarlint": {...}}``; snake_case keys become kebab-case."""
    if not isinstance(options, dict):
        return {}
    if isinstance(options.get("scalarlint"), dict):
        options = options["scalarlint"]
    return {str(k).replace("_", "-"): v for k, v in options.items() if v is not None}


class ScalarlintLanguageServer(LanguageServer):
    """pygls server plus the per-document state: pending checks and the last snapshot."""

    def __init__(self, debounce: float = DEBOUNCE_S) -> None:
        super().__init__(
            "scalarlint",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=notebook_cells.SYNC_OPTIONS,
            protocol_cls=ErrorReportingProtocol,
        )
        self.exit_code: int | None = None  # set by the ``exit`` notification
        self.debounce = debounce
        self.overrides: dict[str, Any] = {}
        self.snapshots: dict[str, Snapshot] = {}
        self._pending: dict[str, asyncio.Task[None]] = {}
        self._generation: dict[str, int] = {}
        self._checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scalarlint-check")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._config_problems: set[str] = set()  # reported once each, not on every keystroke
        self._cells_published: dict[str, set[str]] = {}  # notebook URI -> cell URIs with diagnostics
        self._incremental: Any = None  # scalarlint.incremental.IncrementalChecker, made in the worker thread

    # -- messages to the client ---------------------------------------------------------
    def report_server_error(self, error: Exception, source: Any) -> None:
        """A message that cannot be read gets the JSON-RPC error the specification prescribes
        (``id: null``): -32700 for bytes that are not JSON, -32600 for JSON that is not a
        message. pygls would only show a pop-up; a client waiting for an answer would hang."""
        if source is JsonRpcException:  # raised while reading a message, not in a handler
            response = error_response(error)
            if response is not None:
                self.protocol._send_data(response)
            self.log(f"scalarlint: a message could not be read: {error!r}", types.MessageType.Error)
            return
        super().report_server_error(error, source)

    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        """``window/logMessage``; from the worker thread it is handed to the event loop."""
        loop = self._loop
        if loop is not None and _off_loop(loop):
            loop.call_soon_threadsafe(self.log, message, kind)
            return
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    @property
    def encoding(self) -> str:
        """The negotiated position encoding, as its wire value (``utf-16``, ``utf-8``, ``utf-32``)."""
        return wire_value(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)

    def _client_supports_document_changes(self) -> bool:
        ws = self.client_capabilities.workspace
        return bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes)

    def _client_resolves_edits(self) -> bool:
        doc = self.client_capabilities.text_document
        support = doc and doc.code_action and doc.code_action.resolve_support
        return bool(support and "edit" in support.properties)

    # -- configuration ------------------------------------------------------------------
    def set_overrides(self, options: Any, origin: str) -> None:
        """Validate editor-side options once, so a typo is reported where it was made."""
        overrides = normalize_options(options)
        try:
            config_from_table(overrides, ".")
        except ConfigError as exc:
            self.log(f"scalarlint: ignoring {origin}: {exc}", types.MessageType.Error)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=f"scalarlint: {exc}"))
            return
        self.overrides = overrides

    def _fallback_root(self) -> Path:
        for folder in self.workspace.folders.values():
            path = _fs_path(folder.uri)
            if path:
                return Path(path)
        return Path(self.workspace.root_path) if self.workspace.root_path else Path.cwd()

    def config_for(self, path: str | None) -> Config:
        """Nearest pyproject above the file (or the first workspace folder), then the overrides."""
        start = Path(path).parent if path else self._fallback_root()
        try:
            config = load_config(start)
        except ConfigError as exc:
            problem = f"scalarlint: bad configuration for {path or start}: {exc}; using the defaults"
            if problem not in self._config_problems:
                self._config_problems.add(problem)
                self.log(problem, types.MessageType.Error)
            config = Config(root=str(start))
        if self.overrides:
            config = config_from_table(self.overrides, config.root, base=config)
        return config

    # -- checking -----------------------------------------------------------------------
    def schedule(self, uri: str, delay: float) -> None:
        """Check ``uri`` after ``delay`` seconds unless a newer request supersedes this one."""
        self._loop = asyncio.get_running_loop()
        generation = self._generation.get(uri, 0) + 1
        self._generation[uri] = generation
        old = self._pending.pop(uri, None)
        if old is not None:
            old.cancel()
        task = asyncio.get_running_loop().create_task(self._check_later(uri, generation, delay))
        self._pending[uri] = task
        task.add_done_callback(lambda t: self._pending.pop(uri, None) if self._pending.get(uri) is t else None)

    async def _check_later(self, uri: str, generation: int, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            snapshot = self._snapshot_of(uri)
            if snapshot is None:
                return  # a notebook closed meanwhile
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self._checker, self._run_check, snapshot, generation)
            if result is None or self._generation.get(uri) != generation:
                return  # superseded while it ran: a newer check will publish
            if isinstance(result, NotebookSnapshot):
                self.publish_cells(result)
            else:
                self.snapshots[uri] = result
                self.publish(result)
            # the check's cyclic garbage (scope graphs) goes now, off the path to the
            # diagnostics (engine.quiet_gc makes automatic passes rare)
            self._checker.submit(gc.collect)
        except asyncio.CancelledError:
            raise
        except RuntimeError as exc:  # the checker was shut down (shutdown request)
            logger.debug("check of %s dropped: %s", uri, exc)
        except Exception:
            logger.exception("check of %s failed", uri)

    def _snapshot_of(self, uri: str) -> Snapshot | NotebookSnapshot | None:
        if uri in self.workspace.notebook_documents:
            return notebook_cells.snapshot_of(self.workspace, uri, _fs_path(uri))
        document = self.workspace.get_text_document(uri)
        return Snapshot(uri=uri, version=document.version, text=document.source, path=_fs_path(uri))

    def _is_current(self, uri: str, generation: int | None) -> bool:
        return generation is None or self._generation.get(uri) == generation

    def _run_check(self, snapshot: Any, generation: int | None) -> Any:
        """Worker thread: check one snapshot (``None`` if it went stale before it started)."""
        if not self._is_current(snapshot.uri, generation):
            return None
        if isinstance(snapshot, NotebookSnapshot):
            try:
                return notebook_cells.check_cells(snapshot, self.config_for(snapshot.path))
            except Exception as exc:  # never let one notebook take the server down
                logger.exception("checking %s failed", snapshot.uri)
                snapshot.error = f"internal error while checking: {exc!r}"
                return snapshot
        try:
            from scalarlint.analysis.sources import SourceFile
            from scalarlint.incremental import IncrementalChecker

            config = self.config_for(snapshot.path)
            source = SourceFile(snapshot.path or snapshot.uri, snapshot.text, "utf-8", snapshot.text.encode("utf-8", "surrogatepass"))
            if self._incremental is None:
                self._incremental = IncrementalChecker()
            # after an edit, only what it can change is analysed again (scalarlint.incremental)
            outcome = self._incremental.check(source, config)
        except Exception as exc:  # never let one document take the server down
            logger.exception("checking %s failed", snapshot.uri)
            snapshot.error = f"internal error while checking: {exc!r}"
            return snapshot
        if isinstance(outcome, list):
            snapshot.diagnostics = outcome
        else:  # a file that does not parse (or cannot be analysed) is shown where it fails
            snapshot.diagnostics = [outcome.as_diagnostic()]
            snapshot.error = outcome.message
        return snapshot

    def publish(self, snapshot: Snapshot) -> None:
        if snapshot.error is not None:
            self.log(f"scalarlint: {snapshot.path or snapshot.uri}: not checked: {snapshot.error}", types.MessageType.Info)
        index = LineIndex(snapshot.text, self.encoding)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=snapshot.uri,
                version=snapshot.version,
                diagnostics=[to_lsp_diagnostic(d, index) for d in snapshot.diagnostics],
            )
        )

    def publish_cells(self, snapshot: NotebookSnapshot) -> None:
        """Each code cell's diagnostics on its own URI; cells that went away are cleared."""
        if snapshot.error is not None:
            self.log(f"scalarlint: {snapshot.path or snapshot.uri}: not checked: {snapshot.error}", types.MessageType.Info)
        stale = self._cells_published.get(snapshot.uri, set()) - {uri for uri, _ in snapshot.cells}
        for cell_uri in sorted(stale):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell_uri, diagnostics=[]))
        for cell_uri, found in snapshot.diagnostics.items():
            index = LineIndex(notebook_cells.cell_text(snapshot, cell_uri), self.encoding)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=cell_uri, diagnostics=[to_lsp_diagnostic(d, index) for d in found])
            )
        self._cells_published[snapshot.uri] = set(snapshot.diagnostics)

    def forget_notebook(self, uri: str) -> None:
        """A closed notebook: no pending check, and its cells' diagnostics cleared."""
        self.forget(uri)
        for cell_uri in sorted(self._cells_published.pop(uri, set())):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell_uri, diagnostics=[]))

    def in_notebook(self, uri: str) -> bool:
        return self.workspace.get_notebook_document(cell_uri=uri) is not None

    async def current_snapshot(self, uri: str) -> Snapshot:
        """The snapshot of the document as it is now: cached if up to date, else checked now."""
        self._loop = asyncio.get_running_loop()
        document = self.workspace.get_text_document(uri)
        cached = self.snapshots.get(uri)
        if cached is not None and cached.version == document.version and cached.text == document.source:
            return cached
        snapshot = self._snapshot_of(uri)
        result = await asyncio.get_running_loop().run_in_executor(self._checker, self._run_check, snapshot, None)
        assert result is not None
        return result

    async def fixed_text(self, snapshot: Snapshot) -> str | None:
        """The text after every safe fix (the fixers' loop), or ``None`` when it cannot be had."""
        if snapshot.error is not None:
            return None
        return await asyncio.get_running_loop().run_in_executor(self._checker, self._fix_all, snapshot)

    def _fix_all(self, snapshot: Snapshot) -> str | None:
        try:
            from scalarlint.fixers.engine import fix_source
        except ImportError as exc:
            self.log(f"scalarlint: fix-all is unavailable: {exc}", types.MessageType.Warning)
            return None
        from scalarlint.analysis.sources import SourceFile

        source = SourceFile(snapshot.path or snapshot.uri, snapshot.text, "utf-8", snapshot.text.encode("utf-8", "surrogatepass"))
        try:
            return fix_source(source, self.config_for(snapshot.path), False).text
        except Exception as exc:
            logger.exception("fix-all of %s failed", snapshot.uri)
            self.log(f"scalarlint: fix-all failed: {exc!r}", types.MessageType.Error)
            return None

    def warm_up(self) -> None:
        """Import the checker in the worker thread while the editor is still busy starting."""

        def _load() -> None:
            try:
                from scalarlint.analysis.sources import SourceFile
                from scalarlint.engine import check_source, quiet_gc

                text = "def pullback(x, g):\n    return g * x[0]\n"
                check_source(SourceFile("<warm-up>", text, "utf-8", text.encode()), Config())
                quiet_gc(collect_after_file=False)
            except Exception:  # a broken install shows up on the first real check instead
                logger.exception("warm-up failed")

        self._checker.submit(_load)

    def forget(self, uri: str) -> None:
        self._generation[uri] = self._generation.get(uri, 0) + 1
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        snapshot = self.snapshots.pop(uri, None)
        if snapshot is not None and self._incremental is not None:
            try:
                self._checker.submit(self._incremental.forget, snapshot.path or snapshot.uri)
            except RuntimeError:  # the checker already stopped (shutdown)
                pass

    def stop_checker(self) -> None:
        self._checker.shutdown(wait=False, cancel_futures=True)


def wire_value(value: Any) -> str:
    """lsprotocol's string enums print as ``Kind.Member``; the protocol means their value."""
    return str(value.value) if isinstance(value, enum.Enum) else str(value)


def _off_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is not loop
    except RuntimeError:
        return True


def _fs_path(uri: str) -> str | None:
    from pygls.uris import to_fs_path

    return to_fs_path(uri) if uri.startswith("file:") else None


def is_python(document: Any) -> bool:
    language = getattr(document, "language_id", None)
    if language:
        return language == "python"
    return str(document.uri).endswith(PYTHON_SUFFIXES)
