"""The editor server under abuse: broken JSON-RPC, unknown methods, out-of-order versions,
documents closed mid-check, bursts of edits, hostile documents and vanishing clients.

The server must answer with the LSP errors the protocol prescribes, never crash, and exit
cleanly on ``exit``. Raw bytes go over the server's stdio (``lsp_wire.Wire``), as a broken
client would send them.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the LSP extra (pygls) is not installed")

from lsp_wire import Wire  # noqa: E402  (tests/integrations is on sys.path)

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform != "linux", reason="reads /proc for memory")]

BAD = '''\
import numpy as np


def rrule_first(x):
    def first_pullback(dy):
        dx = np.zeros_like(x)
        k = int(np.argmax(x))
        dx[k] = dy
        return (dx,)

    return x, first_pullback
'''
CLEAN = BAD.replace("        dx[k] = dy\n", "")


@pytest.fixture
def wire(tmp_path: Path):  # type: ignore[no-untyped-def]
    connection = Wire(tmp_path)
    connection.initialize(tmp_path)
    yield connection
    connection.close()


def _open(wire: Wire, uri: str, text: str, version: int = 1) -> None:
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}})


def _change(wire: Wire, uri: str, text: str, version: int) -> None:
    wire.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})


def _codes(params: dict) -> list[str]:  # type: ignore[type-arg]
    return [d["code"] for d in params["diagnostics"]]


def _alive(wire: Wire) -> None:
    """The server still answers requests."""
    answer = wire.response(wire.request("workspace/executeCommand", {"command": "scalarlint.none"}))
    assert "error" in answer or "result" in answer
    assert wire.process.poll() is None


def test_malformed_json_gets_a_parse_error_and_the_server_goes_on(wire: Wire) -> None:
    wire.send_raw(b'{"jsonrpc": "2.0", "id": 99, "method": ')
    error = wire.wait_for(lambda m: "error" in m and m["error"]["code"] == -32700)
    assert "id" in error and error["id"] is None  # JSON-RPC: id null when it could not be read
    wire.send_raw(b'{"jsonrpc": "2.0", "id": 7}')  # valid JSON, not a request
    wire.send_raw(b"[1, 2, 3]")
    _alive(wire)


def test_unknown_methods(wire: Wire) -> None:
    answer = wire.response(wire.request("scalarlint/noSuchThing", {}))
    assert answer["error"]["code"] == -32601  # MethodNotFound
    wire.notify("scalarlint/noSuchNotification", {})  # notifications get no answer, and no crash
    wire.notify("$/cancelRequest", {"id": 12345})
    _alive(wire)


def test_invalid_params_get_an_error_not_a_crash(wire: Wire, tmp_path: Path) -> None:
    answer = wire.response(wire.request("textDocument/codeAction", {"textDocument": "not an object"}))
    assert answer["error"]["code"] == -32602  # InvalidParams, answering that request's id
    wire.notify("textDocument/didChange", {"textDocument": {"uri": (tmp_path / "never_opened.py").as_uri(), "version": 2}, "contentChanges": [{"text": "x = 1"}]})
    _alive(wire)


def test_out_of_order_versions_end_on_the_latest_text(wire: Wire, tmp_path: Path) -> None:
    uri = (tmp_path / "order.py").as_uri()
    _open(wire, uri, BAD)
    _change(wire, uri, CLEAN, 3)
    _change(wire, uri, BAD, 2)  # late and out of order: the client's bug, not a crash
    _change(wire, uri, CLEAN, 4)
    published = wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 4)
    assert _codes(published["params"]) == []
    _alive(wire)


def test_a_document_closed_while_being_checked_is_cleared_and_stays_clear(wire: Wire, tmp_path: Path) -> None:
    uri = (tmp_path / "closing.py").as_uri()
    big = BAD + "".join(f"\n\ndef helper_{k}(x):\n    return x * {k}\n" for k in range(1500))
    _open(wire, uri, big)
    time.sleep(0.05)  # the check has started
    wire.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri and not m["params"]["diagnostics"])
    wire.drain(2.0)
    after_close = wire.publishes(uri)
    assert after_close[-1]["diagnostics"] == []  # nothing stale published after the clearing
    _alive(wire)


def test_a_thousand_rapid_edits_publish_the_last_state_once_or_so(wire: Wire, tmp_path: Path) -> None:
    uri = (tmp_path / "burst.py").as_uri()
    _open(wire, uri, CLEAN)
    wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
    for version in range(2, 1002):
        _change(wire, uri, BAD if version % 2 == 0 else CLEAN, version)
    final = wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 1000 + 1, timeout=60)
    assert _codes(final["params"]) == []  # version 1001 is CLEAN
    wire.drain(1.0)
    assert len(wire.publishes(uri)) < 20  # debounced: not one check per keystroke
    _alive(wire)


def test_hostile_documents_do_not_take_the_server_down(wire: Wire, tmp_path: Path) -> None:
    texts = {
        "nul.py": "x = 1\x00\n" + BAD,
        "deep.py": "x = " + "(" * 1000 + "1" + ")" * 1000 + "\n",
        "long.py": "x = " + " + ".join(["1"] * 100_000) + "\n",
        "syntax.py": "def rrule(x:\n",
        "surrogate.py": "s = '\udcff'\n" + BAD,
    }
    for name, text in texts.items():
        _open(wire, (tmp_path / name).as_uri(), text)
    wire.drain(3.0)
    _alive(wire)
    uri = (tmp_path / "after.py").as_uri()
    _open(wire, uri, BAD)
    found = wire.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri, timeout=60)
    assert _codes(found["params"]) == ["SL102"]


def test_exit_after_shutdown_is_clean(wire: Wire) -> None:
    assert "result" in wire.response(wire.request("shutdown"))
    wire.notify("exit")
    assert wire.process.wait(timeout=10) == 0


def test_exit_without_shutdown_exits_with_1(wire: Wire) -> None:
    wire.notify("exit")
    assert wire.process.wait(timeout=10) == 1


def test_a_client_that_disappears_ends_the_server(wire: Wire, tmp_path: Path) -> None:
    _open(wire, (tmp_path / "orphan.py").as_uri(), BAD)
    assert wire.process.stdin is not None
    wire.process.stdin.close()  # the editor crashed: end of input
    assert wire.process.wait(timeout=15) is not None
