"""The code actions: quick fixes and ``noqa`` comments for the diagnostics under the cursor,
and "fix all" (computed at once, or on ``codeAction/resolve`` when the client can resolve
edits, so that the menu opens without waiting for the fixers).

The actions themselves are built in ``actions``; this module answers the two requests.
Notebook cells get diagnostics only, no actions.
"""

from __future__ import annotations

from lsprotocol import types

from scalarlint.lsp import actions
from scalarlint.lsp.actions import FIX_ALL_KIND
from scalarlint.lsp.convert import LineIndex
from scalarlint.lsp.language_server import (
    ScalarlintLanguageServer,
    is_python,
    wire_value,
)


def register_code_actions(server: ScalarlintLanguageServer) -> None:
    """``textDocument/codeAction`` and ``codeAction/resolve``."""

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND], resolve_provider=True),
    )
    async def code_action(ls: ScalarlintLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        document = ls.workspace.get_text_document(params.text_document.uri)
        if not is_python(document) or ls.in_notebook(document.uri):  # notebook cells: diagnostics only
            return None
        snapshot = await ls.current_snapshot(document.uri)
        index = LineIndex(snapshot.text, ls.encoding)
        versioned = ls._client_supports_document_changes()
        only = [wire_value(k) for k in params.context.only] if params.context.only else None
        out: list[types.CodeAction] = []
        if actions.kind_wanted(types.CodeActionKind.QuickFix, only):
            targets = actions.diagnostics_for_request(snapshot, index, params)
            out += actions.quick_fixes(snapshot, index, targets, versioned)
            out += actions.ignore_actions(snapshot, index, targets, versioned)
        if actions.kind_wanted(FIX_ALL_KIND, only) and actions.has_safe_fix(snapshot):
            if ls._client_resolves_edits():
                out.append(actions.fix_all_action(snapshot, None, ls.encoding, versioned))
            else:
                fixed = await ls.fixed_text(snapshot)
                if fixed is not None and fixed != snapshot.text:
                    out.append(actions.fix_all_action(snapshot, fixed, ls.encoding, versioned))
        return out

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve_code_action(ls: ScalarlintLanguageServer, action: types.CodeAction) -> types.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        if action.kind != FIX_ALL_KIND or "uri" not in data or action.edit is not None:
            return action
        snapshot = await ls.current_snapshot(str(data["uri"]))
        fixed = await ls.fixed_text(snapshot)
        if fixed is not None:
            action.edit = actions.fix_all_edit(snapshot, fixed, ls.encoding, ls._client_supports_document_changes())
        return action
