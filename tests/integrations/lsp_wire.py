"""A raw LSP connection over a subprocess's stdio: bytes in, parsed messages out.

pytest-lsp's client only sends well-formed messages; the abuse tests and the memory benchmark
need to send broken ones, and to watch the process itself (its exit code, its memory).
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any


class Wire:
    """``python -m scalarlint lsp`` with a reader thread that parses what it writes."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scalarlint", "lsp"], cwd=cwd,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            headers: dict[str, str] = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                key, _, value = line.decode("ascii").partition(":")
                headers[key.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    # -- sending ---------------------------------------------------------------------------
    def send_raw(self, body: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: Any = None) -> None:
        self.send_raw(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode())

    def request(self, method: str, params: Any = None) -> int:
        self._next_id += 1
        self.send_raw(json.dumps({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params}).encode())
        return self._next_id

    # -- receiving -------------------------------------------------------------------------
    def wait_for(self, predicate: Any, timeout: float = 20.0) -> dict[str, Any]:
        for message in self.seen:
            if predicate(message):
                return message
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no matching message within {timeout} s; seen: {self.seen[-5:]}")
            try:
                message = self.messages.get(timeout=remaining)
            except queue.Empty:
                continue
            self.seen.append(message)
            if predicate(message):
                return message

    def response(self, request_id: int, timeout: float = 20.0) -> dict[str, Any]:
        return self.wait_for(lambda m: m.get("id") == request_id and "method" not in m, timeout)

    def drain(self, seconds: float) -> None:
        """Collect what arrives within ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self.seen.append(self.messages.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                break

    def publishes(self, uri: str) -> list[dict[str, Any]]:
        return [m["params"] for m in self.seen if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]

    def initialize(self, root: Path) -> None:
        answer = self.response(self.request("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}))
        assert "result" in answer, answer
        self.notify("initialized", {})

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
