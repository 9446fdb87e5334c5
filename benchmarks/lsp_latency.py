"""How fast ``scalarlint lsp`` answers: startup (``initialize``) and diagnostics latency.

Usage::

    python benchmarks/lsp_latency.py                      # 7 runs, 2,000-line file, writes the table
    python benchmarks/lsp_latency.py --runs 3 --no-write  # quick look, prints only

It drives the server the way an editor does, with a minimal hand-written JSON-RPC client over
the server's stdin/stdout (no test framework in the measured path):

- *startup*: spawn ``scalarlint lsp`` (the console script) and ``python -m scalarlint lsp``,
  send ``initialize``, stop the clock at the response. A fresh process per run.
- *open*: ``didOpen`` of a generated 2,000-line module of realistic AD rules (array-API
  pullbacks, ``torch.autograd.Function``, ``defvjp`` lambdas, JAX bwd functions, chainer
  ``FunctionNode``; a few with scalar indexing) until its ``publishDiagnostics``. The first
  open of a server (right after ``initialized``: it may wait for the checker's warm-up) is
  reported apart from later opens (each a new URI, so nothing is cached).
- *change*: a full-text ``didChange`` until the new version's diagnostics; includes the
  server's debounce (0.3 s), which is there on purpose.
- *cached open*: the same module saved as a file that ``scalarlint check`` has just analysed:
  the server reads the findings from the cache (each server otherwise starts with an empty
  cache folder).
- *edits*: in one session, 20 successive one-line edits, each adding a statement to a
  different function, each timed from ``didChange`` to that version's diagnostics minus the
  debounce: what the incremental re-check (``scalarlint.incremental``) costs after a pause.

Results are medians over the runs; the table goes to ``benchmarks/results/lsp_latency.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEBOUNCE = 0.3  # scalarlint.lsp.server.DEBOUNCE_S
RESULTS = ROOT / "benchmarks" / "results" / "lsp_latency.md"

HEADER = '''\
"""Generated for benchmarks/lsp_latency.py: a module of AD rules in the styles scalarlint meets."""

import numpy as np
import torch
import chainer
import autograd.numpy as anp
import jax.numpy as jnp
from autograd.extend import defvjp
from array_api_compat import array_namespace

'''

TEMPLATES = [
    '''
def rrule_sum_{n}(x, axis=None):
    """Sum over an axis; the cotangent is broadcast back."""
    xp = array_namespace(x)
    y = xp.sum(x, axis=axis)

    def sum_pullback_{n}(dy):
        if axis is None:
            return (xp.broadcast_to(dy, x.shape),)
        return (xp.broadcast_to(xp.expand_dims(dy, axis=axis), x.shape),)

    return y, sum_pullback_{n}
''',
    '''
def rrule_norm_inf_{n}(x):
    """Infinity norm; the cotangent goes to the last index reaching the maximum."""
    xp = array_namespace(x)
    a = xp.abs(x)
    y = xp.max(a)

    def pullback(dy):
        dx = xp.zeros_like(x)
        i = len(x) - 1
        while i >= 0 and a[i] != y:
            i -= 1
        dx[i] = xp.sign(x[i]) * dy
        return (dx,)

    return y, pullback
''',
    '''
class Clamp{n}(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        mask = (x >= ctx.lo) & (x <= ctx.hi)
        grad_x = grad_out * mask if ctx.needs_input_grad[0] else None
        return grad_x, None, None
''',
    '''
def logsumexp_{n}(x):
    m = anp.max(x)
    return m + anp.log(anp.sum(anp.exp(x - m)))


defvjp(logsumexp_{n}, lambda ans, x: lambda g: g * anp.exp(x - ans))
''',
    '''
def cumprod_pullback_{n}(x, y, dy):
    """Reverse-mode cumprod written the slow way: one element at a time."""
    xp = array_namespace(x)
    dx = xp.zeros_like(x)
    for i in range(len(x)):
        acc = 0.0
        for j in range(i, len(x)):
            acc += dy[j] * y[j]
        dx[i] = acc / x[i]
    return dx
''',
    '''
def softmax_bwd_{n}(res, g):
    (y,) = res
    return (y * (g - jnp.sum(g * y, axis=-1, keepdims=True)),)


def layer_norm_vjp_{n}(x, gamma, eps, g):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.var(x, axis=-1, keepdims=True)
    xhat = (x - mu) / jnp.sqrt(var + eps)
    n = x.shape[-1]
    gx = g * gamma
    dx = (n * gx - jnp.sum(gx, axis=-1, keepdims=True) - xhat * jnp.sum(gx * xhat, axis=-1, keepdims=True))
    return dx / (n * jnp.sqrt(var + eps)), jnp.sum(g * xhat, axis=0)
''',
    '''
class Scale{n}(chainer.FunctionNode):
    def forward(self, inputs):
        x, w = inputs
        self.retain_inputs((0, 1))
        return (x * w,)

    def backward(self, indexes, grad_outputs):
        x, w = self.get_retained_inputs()
        (gy,) = grad_outputs
        ret = []
        for i in indexes:
            ret.append(gy * w if i == 0 else chainer.functions.sum(gy * x))
        return ret
''',
    '''
def rrule_getindex_{n}(x, idx):
    """Gather; the pullback scatters with repeated indices accumulated."""
    xp = array_namespace(x)
    y = x[idx]

    def getindex_pullback(dy):
        dx = xp.zeros_like(x)
        np.add.at(dx, idx, dy)
        return (dx, None)

    return y, getindex_pullback
''',
    '''
def rrule_max_{n}(x):
    xp = array_namespace(x)
    k = xp.argmax(x)
    y = x[k]

    def max_pullback(dy):
        dx = xp.zeros_like(x)
        dx[k] = dy
        if float(xp.sum(dx)) == 0.0:
            return (dx,)
        return (dx,)

    return y, max_pullback
''',
]


def generate(lines: int) -> str:
    """At least ``lines`` lines, whole rules only, cycling through the templates."""
    parts = [HEADER]
    count = HEADER.count("\n")
    n = 0
    while count < lines:
        block = "\n" + TEMPLATES[n % len(TEMPLATES)].format(n=n)
        parts.append(block)
        count += block.count("\n")
        n += 1
    return "".join(parts)


class Client:
    """Just enough LSP: framed JSON-RPC over pipes, a reader thread, waits with timestamps."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        self.t_spawn = time.perf_counter()
        self.proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.inbox: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                key, _, value = line.decode("ascii").partition(":")
                if key.strip().lower() == "content-length":
                    length = int(value.strip())
            body = stream.read(length)
            self.inbox.put((time.perf_counter(), json.loads(body)))

    def send(self, message: dict[str, Any]) -> float:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        t = time.perf_counter()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return t

    def request(self, method: str, params: Any) -> tuple[float, int]:
        self._next_id += 1
        return self.send({"id": self._next_id, "method": method, "params": params}), self._next_id

    def notify(self, method: str, params: Any) -> float:
        return self.send({"method": method, "params": params})

    def wait(self, match: Any, timeout: float = 120.0) -> tuple[float, dict[str, Any]]:
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no matching message from the server")
            t, msg = self.inbox.get(timeout=left)
            if match(msg):
                return t, msg

    def initialize(self, root: Path) -> float:
        """Seconds from spawning the process to the ``initialize`` response."""
        _, rid = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
            },
        )
        t, _ = self.wait(lambda m: m.get("id") == rid)
        self.notify("initialized", {})
        return t - self.t_spawn

    def open_and_wait(self, uri: str, text: str) -> tuple[float, int]:
        t0 = self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        t, msg = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        return t - t0, len(msg["params"]["diagnostics"])

    def change_and_wait(self, uri: str, text: str, version: int) -> float:
        t0 = self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
        )
        t, _ = self.wait(
            lambda m: m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri
            and m["params"].get("version") == version
        )
        return t - t0

    def close(self) -> int:
        _, rid = self.request("shutdown", None)
        self.wait(lambda m: m.get("id") == rid)
        self.notify("exit", None)
        return self.proc.wait(timeout=30)


def console_script() -> list[str]:
    script = Path(sys.executable).with_name("scalarlint")
    if script.is_file():
        return [str(script), "lsp"]
    found = shutil.which("scalarlint")
    return [found, "lsp"] if found else [sys.executable, "-m", "scalarlint", "lsp"]


def edit_texts(text: str, count: int) -> list[str]:
    """``count`` successive one-line edits, each a new statement in a different function body
    (spread over the file), each text building on the last."""
    import ast

    texts = []
    for k in range(count):
        lines = text.splitlines(keepends=True)
        starts = sorted(
            {n.lineno for f in ast.walk(ast.parse(text)) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in f.body[1:2]}
        )
        row = starts[(k * 7919) % len(starts)]
        line = lines[row - 1]
        indent = line[: len(line) - len(line.lstrip())]
        lines.insert(row - 1, f"{indent}_edit_{k} = x\n")
        text = "".join(lines)
        texts.append(text)
    return texts


def edit_latencies(root: Path, text: str, count: int) -> list[float]:
    """One server, one open document, ``count`` edits: each from ``didChange`` to the new
    version's diagnostics, minus the debounce (the time the server waits on purpose)."""
    path = root / "edited.py"
    path.write_text(text, encoding="utf-8")
    client = Client(console_script(), root)
    client.initialize(root)
    client.open_and_wait(path.as_uri(), text)
    latencies = [client.change_and_wait(path.as_uri(), edited, version) - DEBOUNCE for version, edited in enumerate(edit_texts(text, count), start=2)]
    assert client.close() == 0, "the server did not exit cleanly"
    return latencies


def measure(runs: int, lines: int, edits: int = 20) -> dict[str, Any]:
    text = generate(lines)
    n_lines = text.count("\n")
    out: dict[str, Any] = {"lines": n_lines, "runs": runs}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        path = root / "rules_big.py"
        path.write_text(text, encoding="utf-8")

        for label, command in (("console script", console_script()), ("python -m", [sys.executable, "-m", "scalarlint", "lsp"])):
            starts = []
            for _ in range(runs):
                client = Client(command, root)
                starts.append(client.initialize(root))
                client.close()
            out[f"init {label}"] = (statistics.median(starts), max(starts), " ".join(Path(c).name if i == 0 else c for i, c in enumerate(command)))

        first_opens, opens, changes, cached_opens = [], [], [], []
        findings = 0
        for run in range(runs):
            os.environ["XDG_CACHE_HOME"] = str(root / f"cache-{run}")  # each server starts with no cache
            client = Client(console_script(), root)
            client.initialize(root)
            latency, findings = client.open_and_wait(path.as_uri(), text)
            first_opens.append(latency)
            for k in range(3):
                uri = (root / f"copy_{run}_{k}.py").as_uri()
                opens.append(client.open_and_wait(uri, text)[0])
            edited = text.replace("i = len(x) - 1", "i = x.shape[0] - 1", 1)
            changes.append(client.change_and_wait(path.as_uri(), edited, 2))
            assert client.close() == 0, "the server did not exit cleanly"
        for run in range(runs):  # a file `scalarlint check` has analysed: the open reads the cache
            os.environ["XDG_CACHE_HOME"] = str(root / f"cache-checked-{run}")
            checked = root / f"checked_{run}.py"
            checked.write_text(text, encoding="utf-8")
            subprocess.run([sys.executable, "-m", "scalarlint", "check", "--exit-zero", str(checked)], capture_output=True, check=True)
            client = Client(console_script(), root)
            client.initialize(root)
            client.open_and_wait(path.as_uri(), text)  # the first open may wait for the warm-up
            cached_opens.append(client.open_and_wait(checked.as_uri(), text)[0])
            assert client.close() == 0, "the server did not exit cleanly"
        out["cached open"] = (statistics.median(cached_opens), max(cached_opens))
        os.environ["XDG_CACHE_HOME"] = str(root / "cache-edits")
        out["edits"] = edit_latencies(root, text, edits)
        out["first open"] = (statistics.median(first_opens), max(first_opens))
        out["in-process"] = check_in_process(path, runs)
        out["open"] = (statistics.median(opens), max(opens))
        out["change"] = (statistics.median(changes), max(changes))
        out["findings"] = findings
    return out


def check_in_process(path: Path, runs: int) -> tuple[float, float]:
    """``check_source`` on the same file without any LSP: the floor the server cannot beat."""
    from scalarlint.analysis.sources import read_source
    from scalarlint.config import load_config
    from scalarlint.engine import check_source

    source = read_source(path)
    config = load_config(path.parent)
    assert not isinstance(source, Exception)
    check_source(source, config)  # imports and caches, as the server's warm-up does
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        check_source(source, config)  # type: ignore[arg-type]
        times.append(time.perf_counter() - t0)
    return statistics.median(times), max(times)


def machine() -> dict[str, str]:
    def version(dist: str) -> str:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as v

        try:
            return v(dist)
        except PackageNotFoundError:
            return "absent"

    return {
        "nproc": str(os.cpu_count()),
        "uname -m": platform.machine(),
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
        "pygls": version("pygls"),
        "lsprotocol": version("lsprotocol"),
        "libcst": version("libcst"),
    }


def report(result: dict[str, Any], info: dict[str, str], command: str) -> str:
    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.0f} ms"

    lines = [
        "# LSP latency",
        "",
        f"Measured with `{command}` (script: `benchmarks/lsp_latency.py`).",
        "",
        "Machine: " + ", ".join(f"{k} `{v}`" for k, v in info.items()) + ".",
        "",
        (
            f"File: a generated module of {result['lines']} lines of AD rules in several styles "
            f"({result['findings']} findings). Median and maximum over {result['runs']} runs."
        ),
        "",
        "| measurement | median | max |",
        "|---|---|---|",
    ]
    for label in ("console script", "python -m"):
        median, worst, cmd = result[f"init {label}"]
        lines.append(f"| start `{cmd}` -> `initialize` answered | {ms(median)} | {ms(worst)} |")
    lines += [
        f"| `didOpen` -> `publishDiagnostics`, first file after start | {ms(result['first open'][0])} | {ms(result['first open'][1])} |",
        f"| `didOpen` -> `publishDiagnostics`, {result['lines']}-line file | {ms(result['open'][0])} | {ms(result['open'][1])} |",
        f"| `didOpen` -> `publishDiagnostics`, the same file after `scalarlint check` analysed it (cache) | {ms(result['cached open'][0])} | {ms(result['cached open'][1])} |",
        f"| `didChange` -> `publishDiagnostics` (includes the 300 ms debounce) | {ms(result['change'][0])} | {ms(result['change'][1])} |",
        f"| one-line edit -> `publishDiagnostics`, after the debounce ends ({len(result['edits'])} successive edits in different functions) | {ms(statistics.median(result['edits']))} | {ms(max(result['edits']))} |",
        f"| baseline: `check_source` of the same file in-process, no LSP | {ms(result['in-process'][0])} | {ms(result['in-process'][1])} |",
        "",
        "The open latency is the checker's own time on the whole file (compare the baseline row),",
        "unless `scalarlint check` already analysed the same text: then it is a cache read. After",
        "an edit only the top-level definitions the edit can change are analysed again, in a copy",
        "of the file with the rest cut (`scalarlint/incremental.py`); the other findings move with",
        "their lines. The check runs in a worker thread, so the server keeps reading messages",
        "meanwhile (a newer edit makes a running check stale; its result is dropped, not published).",
        "",
        "Startup is answered before the checker is imported (libcst and the checks load in the",
        "worker thread after `initialized`), so `initialize` costs the interpreter, click and",
        "pygls/lsprotocol imports only; the first open can include the end of that warm-up.",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args()
    command = "python benchmarks/lsp_latency.py" + ("" if args.runs == 7 else f" --runs {args.runs}") + ("" if args.lines == 2000 else f" --lines {args.lines}")
    result = measure(args.runs, args.lines, args.edits)
    table = report(result, machine(), command)
    print(table)
    if not args.no_write:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(table, encoding="utf-8")
    init = result["init console script"][0]
    return 0 if init < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
