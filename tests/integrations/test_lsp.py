"""``scalarlint lsp`` end to end: a real LSP client (pytest-lsp) talking to the server over stdio.

The server runs as ``python -m scalarlint lsp`` in a subprocess, exactly as an editor starts
it. Each test gets a fresh server and a temporary workspace. Edits returned by the server are
applied here by an independent implementation of LSP text edits (UTF-16 positions), and the
result is sent back with ``didChange``: what the user would see is what is asserted.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the LSP extra (pygls) is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

import samples  # tests/integrations is on sys.path (pytest's default import mode)

pytestmark = [pytest.mark.slow]

TIMEOUT = 20.0  # seconds; generous for a loaded CI box, a passing run takes far less

RULE = samples.ONE_WRITE
SCALAR_LINE = 7  # 0-based line of `dx[i] = xp.sign(x[i]) * g`

LOOP_RULE = samples.LOOP

VECTORIZED = '''\
import numpy as np


def abs_pullback(x, g):
    xp = np
    return xp.sign(x) * g
'''

HELPER = '''\
def fill(x):
    for i in range(len(x)):
        x[i] = 0
'''


def fixers_offer_fixes() -> bool:
    """Whether the fixers are in place: the quick-fix and fix-all tests need real fixes."""
    from scalarlint.analysis.sources import SourceFile
    from scalarlint.config import Config
    from scalarlint.engine import check_source

    found = check_source(SourceFile("probe.py", RULE, "utf-8", RULE.encode()), Config())
    return isinstance(found, list) and any(d.fixes for d in found)


# -- client ---------------------------------------------------------------------------------
def _make_client() -> LanguageClient:
    """pytest-lsp's client, plus a record of every publishDiagnostics with its version."""
    client = LanguageClient(converter_factory=default_converter)
    published: list[types.PublishDiagnosticsParams] = []

    def record(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        published.append(params)
        client.diagnostics[params.uri] = params.diagnostics

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    register_lsp_features(client, features)
    client.published = published  # type: ignore[attr-defined]
    return client


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "scalarlint", "lsp"], client_factory=_make_client)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


async def _start(client: LanguageClient, folders: list[Path], options: Any = None, caps: str = "visual-studio-code") -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(caps),
            workspace_folders=[types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders],
            root_uri=folders[0].as_uri() if folders else None,
            initialization_options=options,
        )
    )


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, workspace: Path):  # type: ignore[no-untyped-def]
    await _start(lsp_client, [workspace])
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def bare_client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    """Not initialized: the test chooses folders and options (and may shut down itself)."""
    yield
    server = lsp_client._server
    if server is not None and server.returncode is None:
        await lsp_client.shutdown_session()


# -- helpers --------------------------------------------------------------------------------
async def wait_until(predicate: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def diagnostics_for(client: LanguageClient, uri: str, version: int) -> list[types.Diagnostic]:
    """The diagnostics published for exactly this version of the document."""
    published: list[types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]

    def match() -> types.PublishDiagnosticsParams | None:
        return next((p for p in reversed(published) if p.uri == uri and p.version == version), None)

    await wait_until(lambda: match() is not None, f"diagnostics of {uri} v{version}")
    found = match()
    assert found is not None
    return list(found.diagnostics)


def open_doc(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text))
    )
    return uri


def replace_doc(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def _offset(text: str, pos: types.Position) -> int:
    """Offset of a UTF-16 LSP position (independent of the server's own conversion code)."""
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: pos.line])
    line = lines[pos.line] if pos.line < len(lines) else ""
    units = 0
    for i, ch in enumerate(line):
        if units >= pos.character:
            return start + i
        units += 2 if ord(ch) > 0xFFFF else 1
    return start + len(line.rstrip("\r\n"))


def apply_workspace_edit(text: str, uri: str, edit: types.WorkspaceEdit, version: int) -> str:
    edits: list[types.TextEdit] = []
    for change in edit.document_changes or []:
        assert isinstance(change, types.TextDocumentEdit)
        assert change.text_document.uri == uri and change.text_document.version == version
        edits += [e for e in change.edits if isinstance(e, types.TextEdit)]
    for target, changes in (edit.changes or {}).items():
        assert target == uri
        edits += changes
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: _offset(text, e.range.start)] + e.new_text + text[_offset(text, e.range.end) :]
    return text


async def code_actions(client: LanguageClient, uri: str, rng: types.Range, diags: list[types.Diagnostic], only: list[str] | None = None) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=rng,
            context=types.CodeActionContext(diagnostics=diags, only=only),
        )
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


def text_at(text: str, rng: types.Range) -> str:
    return text[_offset(text, rng.start) : _offset(text, rng.end)]


# -- tests ----------------------------------------------------------------------------------
@pytest.mark.asyncio
async def test_diagnostics_on_open(client: LanguageClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "rule.py", LOOP_RULE)
    diags = await diagnostics_for(client, uri, 1)
    by_code = {d.code: d for d in diags}
    assert set(by_code) == {"SL101", "SL102", "SL104"}
    read = by_code["SL101"]
    assert read.source == "scalarlint"
    assert read.severity == types.DiagnosticSeverity.Error  # inside a loop over data
    assert read.message.startswith("scalar-getindex: ") and "[rule: abs_pullback]" in read.message
    assert read.code_description is not None and read.code_description.href.endswith("/checks/sl101/")
    assert text_at(LOOP_RULE, read.range) == "x[i]"
    assert text_at(LOOP_RULE, by_code["SL102"].range) == "dx[i]"
    assert text_at(LOOP_RULE, by_code["SL104"].range) == "range(len(x))"  # the element loop's header


@pytest.mark.asyncio
async def test_single_access_is_a_warning_with_utf16_ranges(client: LanguageClient, workspace: Path) -> None:
    text = RULE.replace("    dx[i] = xp.sign(x[i]) * g", '    s = "é😀"; dx[i] = xp.sign(x[i]) * g')
    uri = open_doc(client, workspace / "rule.py", text)
    diags = await diagnostics_for(client, uri, 1)
    assert {d.severity for d in diags} == {types.DiagnosticSeverity.Warning}
    read = next(d for d in diags if d.code == "SL101")
    # The emoji is two UTF-16 units: a code-point column would be one short here.
    assert read.range.start.character == text.splitlines()[SCALAR_LINE].index("(x[i])") + 1 + 1
    assert text_at(text, read.range) == "x[i]"


@pytest.mark.asyncio
async def test_utf8_position_encoding(bare_client: LanguageClient, tmp_path: Path) -> None:
    """A client that offers only UTF-8 gets byte offsets (é is 2 bytes, the emoji 4)."""
    caps = client_capabilities("visual-studio-code")
    caps.general = types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf8])
    result = await bare_client.initialize_session(
        types.InitializeParams(capabilities=caps, workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")])
    )
    assert result.capabilities.position_encoding in ("utf-8", types.PositionEncodingKind.Utf8)
    text = RULE.replace("    dx[i] = xp.sign(x[i]) * g", '    s = "é😀"; dx[i] = xp.sign(x[i]) * g')
    uri = open_doc(bare_client, tmp_path / "rule.py", text)
    read = next(d for d in await diagnostics_for(bare_client, uri, 1) if d.code == "SL101")
    line = text.splitlines()[SCALAR_LINE]
    start = line.index("(x[i])") + 1
    assert read.range.start.character == len(line[:start].encode("utf-8")) == start + 1 + 3


@pytest.mark.asyncio
async def test_change_updates_diagnostics_debounced(client: LanguageClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "rule.py", LOOP_RULE)
    assert len(await diagnostics_for(client, uri, 1)) == 3

    # A burst of keystrokes: only the last state is checked and published.
    for version in range(2, 7):
        replace_doc(client, uri, LOOP_RULE if version % 2 else VECTORIZED, version)
        await asyncio.sleep(0.03)
    assert await diagnostics_for(client, uri, 6) == []
    published = [p.version for p in client.published if p.uri == uri]  # type: ignore[attr-defined]
    assert published == [1, 6], published

    # An incremental edit (what editors send) brings a finding back.
    line = VECTORIZED.splitlines().index("    return xp.sign(x) * g")
    column = VECTORIZED.splitlines()[line].index("(x)") + 1
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=7),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=line, character=column), end=types.Position(line=line, character=column + 1)),
                    text="x[len(x) - 1]",
                )
            ],
        )
    )
    diags = await diagnostics_for(client, uri, 7)
    assert [d.code for d in diags] == ["SL101"]
    assert diags[0].range.start == types.Position(line=line, character=column)
    assert diags[0].range.end == types.Position(line=line, character=column + len("x[len(x) - 1]"))


@pytest.mark.asyncio
async def test_ignore_on_this_line(client: LanguageClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "rule.py", RULE)
    diags = await diagnostics_for(client, uri, 1)
    read = next(d for d in diags if d.code == "SL101")

    actions = await code_actions(client, uri, read.range, [read])
    ignore = next(a for a in actions if a.title == "Ignore SL101 on this line")
    assert ignore.kind == types.CodeActionKind.QuickFix and ignore.edit is not None
    text = apply_workspace_edit(RULE, uri, ignore.edit, 1)
    assert text.splitlines()[SCALAR_LINE] == "    dx[i] = xp.sign(x[i]) * g  # noqa: SL101"
    replace_doc(client, uri, text, 2)
    assert [d.code for d in await diagnostics_for(client, uri, 2)] == ["SL102"]

    # Ignoring the other code on the same line extends the comment instead of adding one.
    write = next(d for d in client.diagnostics[uri] if d.code == "SL102")
    actions = await code_actions(client, uri, write.range, [write])
    ignore = next(a for a in actions if a.title == "Ignore SL102 on this line")
    assert ignore.edit is not None
    text = apply_workspace_edit(text, uri, ignore.edit, 2)
    assert text.splitlines()[SCALAR_LINE] == "    dx[i] = xp.sign(x[i]) * g  # noqa: SL101, SL102"
    replace_doc(client, uri, text, 3)
    assert await diagnostics_for(client, uri, 3) == []


@pytest.mark.asyncio
async def test_quick_fix_applies_the_real_fix(client: LanguageClient, workspace: Path) -> None:
    if not fixers_offer_fixes():
        pytest.skip("the fixers (scalarlint.fixers) offer no fix for a scalar write yet")
    undeclared = open_doc(client, workspace / "undeclared.py", RULE)
    write = next(d for d in await diagnostics_for(client, undeclared, 1) if d.code == "SL102")
    actions = await code_actions(client, undeclared, write.range, [write], only=[types.CodeActionKind.QuickFix])
    # without scalarlint among the project's dependencies the allow_scalar fix is shown disabled
    (blocked,) = [a for a in actions if a.disabled is not None]
    assert "allow_scalar" in blocked.title and blocked.edit is None
    assert "does not declare as a dependency" in blocked.disabled.reason

    (workspace / "requirements.txt").write_text("scalarlint\n")
    uri = open_doc(client, workspace / "rule.py", RULE)
    diags = await diagnostics_for(client, uri, 1)
    write = next(d for d in diags if d.code == "SL102")
    actions = await code_actions(client, uri, write.range, [write], only=[types.CodeActionKind.QuickFix])
    assert all(a.kind == types.CodeActionKind.QuickFix for a in actions)
    assert not any(a.disabled for a in actions)
    fixes = [a for a in actions if not a.title.startswith("Ignore ")]
    assert fixes, [a.title for a in actions]

    # The safe size-1 view is the preferred fix; the allow_scalar block needs review.
    (preferred,) = [a for a in fixes if a.is_preferred]
    assert "size-1" in preferred.title and not preferred.title.endswith("(unsafe)")
    assert preferred.diagnostics and preferred.diagnostics[0].code == "SL102"
    unsafe = [a for a in fixes if a.title.endswith("(unsafe)")]
    assert unsafe and not any(a.is_preferred for a in unsafe)

    assert preferred.edit is not None
    text = apply_workspace_edit(RULE, uri, preferred.edit, 1)
    assert text.splitlines()[SCALAR_LINE].replace(" ", "") == "dx[i:i+1]=xp.sign(x[i:i+1])*g"
    replace_doc(client, uri, text, 2)
    assert await diagnostics_for(client, uri, 2) == []

    # An unsafe fix with several edits (an import at the top, a block around the statement).
    block = next(a for a in unsafe if "allow_scalar" in a.title)
    assert block.edit is not None
    text = apply_workspace_edit(RULE, uri, block.edit, 1)
    compile(text, "rule.py", "exec")
    assert "from scalarlint.runtime import allow_scalar" in text and "with allow_scalar():" in text
    replace_doc(client, uri, text, 3)
    assert await diagnostics_for(client, uri, 3) == []


@pytest.mark.asyncio
@pytest.mark.parametrize("resolve", [True, False], ids=["resolved-lazily", "edit-up-front"])
async def test_fix_all_safe(bare_client: LanguageClient, tmp_path: Path, resolve: bool) -> None:
    if not fixers_offer_fixes():
        pytest.skip("the fixers (scalarlint.fixers) offer no fix for a scalar write yet")
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None and caps.text_document.code_action is not None
    if not resolve:
        caps.text_document.code_action.resolve_support = None
    await bare_client.initialize_session(
        types.InitializeParams(capabilities=caps, workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")])
    )
    text = RULE + "\n\n" + RULE.split("\n\n\n", 1)[1].replace("norm_inf_pullback", "other_pullback")
    uri = open_doc(bare_client, tmp_path / "rule.py", text)
    assert len(await diagnostics_for(bare_client, uri, 1)) == 4
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
    (fix_all,) = await code_actions(bare_client, uri, whole, [], only=["source.fixAll"])
    assert fix_all.kind == "source.fixAll.scalarlint" and fix_all.title == "scalarlint: Fix all safe"
    assert (fix_all.edit is None) == resolve
    if resolve:
        fix_all = await bare_client.code_action_resolve_async(fix_all)
    assert fix_all.edit is not None
    fixed = apply_workspace_edit(text, uri, fix_all.edit, 1)
    compile(fixed, "fixed.py", "exec")
    assert fixed.replace(" ", "").count("dx[i:i+1]=xp.sign(x[i:i+1])*g") == 2  # both rules, one action
    assert "allow_scalar" not in fixed  # unsafe fixes are not part of "fix all safe"
    replace_doc(bare_client, uri, fixed, 2)
    assert await diagnostics_for(bare_client, uri, 2) == []
    # Nothing left to fix: the action is no longer offered.
    assert await code_actions(bare_client, uri, whole, [], only=["source.fixAll"]) == []


@pytest.mark.asyncio
async def test_syntax_error_replaces_the_findings_and_logs(client: LanguageClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "rule.py", LOOP_RULE)
    assert len(await diagnostics_for(client, uri, 1)) == 3
    broken = LOOP_RULE.replace("def abs_pullback(x, g):", "def abs_pullback(x, g:")
    replace_doc(client, uri, broken, 2)
    (error,) = await diagnostics_for(client, uri, 2)  # the findings go; the syntax error is shown in place
    assert error.code == "SL001" and error.severity == types.DiagnosticSeverity.Error
    assert error.message == "syntax error: '(' was never closed"
    row = next(n for n, line in enumerate(broken.splitlines()) if "def abs_pullback(x, g:" in line)
    assert error.range.start == types.Position(line=row, character=broken.splitlines()[row].index("("))
    assert error.code_description is not None and error.code_description.href.endswith("/checks/sl001/")
    await wait_until(lambda: any("syntax error" in m.message and "rule.py" in m.message for m in client.log_messages), "a log message")
    # Still alive: code actions on the broken text answer, and fixing the text brings findings back.
    rng = types.Range(start=types.Position(line=7, character=0), end=types.Position(line=7, character=5))
    assert await code_actions(client, uri, rng, []) == []
    replace_doc(client, uri, LOOP_RULE, 3)
    assert len(await diagnostics_for(client, uri, 3)) == 3


@pytest.mark.asyncio
async def test_folders_outside_files_and_options(bare_client: LanguageClient, tmp_path: Path) -> None:
    """Each folder's pyproject applies to its files; a file outside every folder gets the defaults."""
    one, two, outside = tmp_path / "one", tmp_path / "two", tmp_path / "elsewhere"
    for folder in (one, two, outside):
        folder.mkdir()
    (one / "pyproject.toml").write_text('[tool.scalarlint]\nignore = ["SL101"]\n')
    (two / "pyproject.toml").write_text('[tool.scalarlint]\nscope = "all"\n')
    await _start(bare_client, [one, two])

    uri_one = open_doc(bare_client, one / "rule.py", LOOP_RULE)
    uri_two = open_doc(bare_client, two / "helper.py", HELPER)
    uri_out = open_doc(bare_client, outside / "rule.py", LOOP_RULE)
    uri_out_helper = open_doc(bare_client, outside / "helper.py", HELPER)
    assert [d.code for d in await diagnostics_for(bare_client, uri_one, 1)] == ["SL104", "SL102"]
    assert [d.code for d in await diagnostics_for(bare_client, uri_two, 1)] == ["SL104", "SL102"]  # scope = all
    assert {d.code for d in await diagnostics_for(bare_client, uri_out, 1)} == {"SL101", "SL102", "SL104"}
    assert await diagnostics_for(bare_client, uri_out_helper, 1) == []  # not a rule under the defaults


@pytest.mark.asyncio
async def test_initialization_options_override_pyproject(bare_client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.scalarlint]\nselect = ["SL101"]\n')
    await _start(bare_client, [tmp_path], options={"select": ["SL102"], "scope": "all"})
    uri = open_doc(bare_client, tmp_path / "helper.py", HELPER)
    assert [d.code for d in await diagnostics_for(bare_client, uri, 1)] == ["SL102"]


@pytest.mark.asyncio
async def test_bad_initialization_options_are_reported(bare_client: LanguageClient, tmp_path: Path) -> None:
    await _start(bare_client, [tmp_path], options={"select": ["SL999"]})
    await wait_until(lambda: any("SL999" in m.message for m in bare_client.log_messages), "an error about SL999")
    uri = open_doc(bare_client, tmp_path / "rule.py", LOOP_RULE)
    assert {d.code for d in await diagnostics_for(bare_client, uri, 1)} == {"SL101", "SL102", "SL104"}


@pytest.mark.asyncio
async def test_bad_pyproject_is_reported_once_and_defaults_apply(bare_client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.scalarlint]\nselect = ["SL999"]\n')
    await _start(bare_client, [tmp_path])
    uri = open_doc(bare_client, tmp_path / "rule.py", LOOP_RULE)
    assert {d.code for d in await diagnostics_for(bare_client, uri, 1)} == {"SL101", "SL102", "SL104"}
    replace_doc(bare_client, uri, LOOP_RULE + "\n", 2)
    await diagnostics_for(bare_client, uri, 2)
    errors = [m for m in bare_client.log_messages if "SL999" in m.message]
    assert len(errors) == 1 and errors[0].type == types.MessageType.Error


@pytest.mark.asyncio
async def test_close_clears_and_shutdown_is_clean(bare_client: LanguageClient, tmp_path: Path) -> None:
    await _start(bare_client, [tmp_path], caps="neovim")
    uri = open_doc(bare_client, tmp_path / "rule.py", LOOP_RULE)
    assert len(await diagnostics_for(bare_client, uri, 1)) == 3
    bare_client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_until(lambda: list(bare_client.diagnostics.get(uri, [None])) == [], "diagnostics cleared on close")
    await bare_client.shutdown_session()
    server = bare_client._server
    assert server is not None and server.returncode == 0


def test_cli_import_does_not_load_pygls() -> None:
    code = "import sys, scalarlint.cli; print(any(m.split('.')[0] in ('pygls', 'lsprotocol') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_lsp_without_the_extra_says_how_to_install() -> None:
    code = "import sys; sys.modules['pygls'] = None; from scalarlint.cli import main; main(['lsp'])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2
    assert "pip install 'scalarlint[lsp]'" in out.stderr
    assert "Traceback" not in out.stderr
