"""Code actions: quick fixes from the fixers, "ignore on this line", and "fix all safe".

Everything here is a pure function of a checked snapshot of a document (its text, version
and diagnostics), so it can be tested without a client and never races with edits: the
edits are computed on exactly the text the diagnostics came from, and carry its version, so
a client drops them rather than applying them to a newer text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lsprotocol import types

from scalarlint.add_noqa import CommentRows
from scalarlint.diagnostics import Applicability, Diagnostic, Edit, Location
from scalarlint.error_codes import ERROR_CODES
from scalarlint.lsp.convert import (
    LineIndex,
    minimal_edit,
    to_lsp_diagnostic,
    to_text_edit,
)
from scalarlint.suppression import NOQA, noqa_codes

FIX_ALL_KIND = "source.fixAll.scalarlint"
FIX_ALL_TITLE = "scalarlint: Fix all safe"


@dataclass
class Snapshot:
    """One document state and what the checker said about it (``error`` when it could not)."""

    uri: str
    version: int | None
    text: str
    path: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None


def kind_wanted(kind: str, only: list[str] | None) -> bool:
    """LSP kinds are hierarchical: asking for ``source.fixAll`` includes ``source.fixAll.scalarlint``."""
    if not only:
        return True
    return any(kind == want or kind.startswith(want + ".") for want in only)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def diagnostics_for_request(snapshot: Snapshot, index: LineIndex, params: types.CodeActionParams) -> list[tuple[Diagnostic, types.Diagnostic]]:
    """Our diagnostics the request is about: those the client lists, and those under the range."""
    listed = {
        (str(d.code), d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
        for d in params.context.diagnostics
        if d.source == "scalarlint"
    }
    out: list[tuple[Diagnostic, types.Diagnostic]] = []
    for d in snapshot.diagnostics:
        lsp = to_lsp_diagnostic(d, index)
        key = (d.code, lsp.range.start.line, lsp.range.start.character, lsp.range.end.line, lsp.range.end.character)
        if key in listed or _overlaps(lsp.range, params.range):
            out.append((d, lsp))
    return out


def workspace_edit(uri: str, version: int | None, edits: list[types.TextEdit], document_changes: bool) -> types.WorkspaceEdit:
    """A versioned edit where the client supports it, so a stale action is refused, not misapplied."""
    if document_changes:
        doc = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=doc, edits=edits)])
    return types.WorkspaceEdit(changes={uri: edits})


def quick_fixes(
    snapshot: Snapshot, index: LineIndex, targets: list[tuple[Diagnostic, types.Diagnostic]], document_changes: bool
) -> list[types.CodeAction]:
    """Each fix of each diagnostic as a quick fix; unsafe ones say so in the title."""
    actions: list[types.CodeAction] = []
    for d, lsp in targets:
        preferred = d.preferred_fix
        for fix in (f for f in d.fixes if f.applicable):
            unsafe = fix.applicability is Applicability.UNSAFE
            actions.append(
                types.CodeAction(
                    title=f"{fix.message} ({d.code})" + (" (unsafe)" if unsafe else ""),
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[lsp],
                    is_preferred=fix is preferred and not unsafe,
                    edit=workspace_edit(snapshot.uri, snapshot.version, [to_text_edit(e, index) for e in fix.edits], document_changes),
                )
            )
        for fix in (f for f in d.fixes if not f.applicable):  # shown greyed out, with the reason
            title, _, reason = fix.message.partition("; ")
            actions.append(
                types.CodeAction(
                    title=f"{title} ({d.code})",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[lsp],
                    disabled=types.CodeActionDisabled(reason=reason or fix.message),
                )
            )
    return actions


def noqa_edit(text: str, d: Diagnostic) -> Edit | None:
    """The edit that suppresses ``d.code`` on the diagnostic's line with a ``# noqa`` comment.

    Extends an existing ``# noqa: ...`` list; otherwise appends ``  # noqa: CODE`` at the end
    of the line (after any comment already there). The row is the one ``--add-noqa`` picks
    (``add_noqa.CommentRows.target``: the first row the suppression reads, else its last, never
    one that ends inside a string or after a backslash). ``None`` when neither can take a
    comment (or the file cannot be tokenized).
    """
    rows = CommentRows.of(text)
    row = rows.target(d.location.row, d.end_location.row) if rows is not None else None
    if rows is None or row is None:
        return None
    comment = rows.comments.get(row)
    if comment is not None:
        match = NOQA.search(comment.string)
        if match and not match.group("codes"):
            return None  # a bare noqa (no codes) already silences everything on the line
        if match:
            if d.code.upper() in noqa_codes(match.group("codes")):
                return None
            column = comment.start[1] + match.end("codes") + 1
            at = Location(row, column)
            return Edit(f", {d.code}", at, at)
    line = rows.lines[row - 1].rstrip("\r\n")
    body = line.rstrip()
    return Edit(f"  # noqa: {d.code}", Location(row, len(body) + 1), Location(row, len(line) + 1))


def ignore_actions(
    snapshot: Snapshot, index: LineIndex, targets: list[tuple[Diagnostic, types.Diagnostic]], document_changes: bool
) -> list[types.CodeAction]:
    """One "Ignore SLxxx on this line" per code and line among the targeted diagnostics."""
    actions: list[types.CodeAction] = []
    seen: set[tuple[str, int]] = set()
    for d, lsp in targets:
        if (d.code, d.location.row) in seen or d.code in ERROR_CODES:  # a syntax error is not silenced
            continue
        seen.add((d.code, d.location.row))
        edit = noqa_edit(snapshot.text, d)
        if edit is None:
            continue
        actions.append(
            types.CodeAction(
                title=f"Ignore {d.code} on this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp for other, lsp in targets if other.code == d.code and other.location.row == d.location.row],
                edit=workspace_edit(snapshot.uri, snapshot.version, [to_text_edit(edit, index)], document_changes),
            )
        )
    return actions


def has_safe_fix(snapshot: Snapshot) -> bool:
    return any(f.applicability is Applicability.SAFE for d in snapshot.diagnostics for f in d.fixes)


def fix_all_action(snapshot: Snapshot, new_text: str | None, encoding: str | None, document_changes: bool) -> types.CodeAction:
    """The ``source.fixAll.scalarlint`` action; without ``new_text`` it is left for resolve."""
    action = types.CodeAction(
        title=FIX_ALL_TITLE,
        kind=FIX_ALL_KIND,
        data={"uri": snapshot.uri, "version": snapshot.version},
    )
    if new_text is not None:
        action.edit = fix_all_edit(snapshot, new_text, encoding, document_changes)
    return action


def fix_all_edit(snapshot: Snapshot, new_text: str, encoding: str | None, document_changes: bool) -> types.WorkspaceEdit:
    edit = minimal_edit(snapshot.text, new_text)
    index = LineIndex(snapshot.text, encoding)
    edits = [to_text_edit(edit, index)] if edit is not None else []
    return workspace_edit(snapshot.uri, snapshot.version, edits, document_changes)
