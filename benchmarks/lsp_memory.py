"""Memory of ``scalarlint lsp`` over 10,000 edits of one document: it must not grow without bound.

The server is started as an editor starts it (``python -m scalarlint lsp`` over stdio). It
opens the 2,000-line module of ``benchmarks/lsp_latency.py`` and receives ``--edits``
incremental ``didChange`` notifications, each typing or deleting one character in a rule body
(a version per keystroke). Every ``--settle`` edits the client waits for the diagnostics of
that version, so the checker runs on the way (a typist pausing) rather than only once at the
end. The resident set size (``VmRSS`` from ``/proc``) is sampled after each thousand edits.

Usage::

    python benchmarks/lsp_memory.py --edits 10000 --out benchmarks/results/lsp_memory.md
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "integrations"))

from lsp_latency import generate  # noqa: E402
from lsp_wire import Wire  # noqa: E402


COMMENT = "  # t"


def measure(edits: int, settle: int, lines: int) -> list[tuple[int, int, float]]:
    """(edits so far, RSS in KiB, seconds so far) after opening and every 1,000 edits."""
    samples: list[tuple[int, int, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        wire = Wire(root)
        try:
            wire.initialize(root)
            uri = (root / "rules.py").as_uri()
            text = generate(lines)
            anchor = next(i for i, line in enumerate(text.split("\n")) if line.strip().startswith("dx = "))
            column = len(text.split("\n")[anchor])
            wire.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
            _wait_version(wire, uri, 1)
            started = time.monotonic()
            samples.append((0, wire.rss_kib(), 0.0))
            for k in range(1, edits + 1):
                typing = k % 2 == 1  # type a comment, then delete it: two valid states in turn
                start = {"line": anchor, "character": column}
                end = {"line": anchor, "character": column if typing else column + len(COMMENT)}
                change = {"range": {"start": start, "end": end}, "text": COMMENT if typing else ""}
                wire.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": k + 1}, "contentChanges": [change]})
                if k % settle == 0:
                    _wait_version(wire, uri, k + 1)
                    wire.seen.clear()  # the client keeps nothing either
                if k % 1000 == 0:
                    samples.append((k, wire.rss_kib(), time.monotonic() - started))
            wire.response(wire.request("shutdown"))
            wire.notify("exit")
            wire.process.wait(timeout=30)
        finally:
            wire.close()
    return samples


def _wait_version(wire: Wire, uri: str, version: int) -> None:
    wire.wait_for(
        lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri and m["params"].get("version") == version,
        timeout=120,
    )


def report(samples: list[tuple[int, int, float]], args: argparse.Namespace) -> str:
    first_k = next((rss for k, rss, _ in samples if k == 1000), samples[0][1])
    last = samples[-1][1]
    lines = [
        "# Editor server memory over many edits",
        "",
        f"Command: `python benchmarks/lsp_memory.py --edits {args.edits} --settle {args.settle} --lines {args.lines}`",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}.",
        f"One {args.lines}-line rule module, {args.edits} incremental edits (one character each way), the client "
        f"waiting for diagnostics every {args.settle} edits.",
        "",
        "| edits | RSS (MiB) | elapsed (s) |",
        "|---|---|---|",
    ]
    lines += [f"| {k} | {rss / 1024:.1f} | {seconds:.0f} |" for k, rss, seconds in samples]
    lines += [
        "",
        f"Growth from 1,000 to {samples[-1][0]:,} edits: {(last - first_k) / 1024:+.1f} MiB.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=10_000)
    parser.add_argument("--settle", type=int, default=50, help="wait for diagnostics every N edits")
    parser.add_argument("--lines", type=int, default=2_000)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    table = report(measure(args.edits, args.settle, args.lines), args)
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
