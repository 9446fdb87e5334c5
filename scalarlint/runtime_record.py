"""Record mode: every scalar access a test run makes in the project's own files, as JSON.

``pytest --scalarlint-record FILE`` runs every test inside ``disallow_scalar()`` with a
:class:`Recorder` installed in place of the exception (``scalarlint.runtime._report``): each
access the strict array or strict PyTorch would refuse is counted at the caller's line and
the test goes on. The lines of the project's files that ran inside the tests are kept too, so
that ``scalarlint check --runtime FILE`` can tell a finding on a line that ran without any
scalar access from one on a line no test reached.

Only the standard library is imported here (the pytest plugin loads it in every record run).
The format (``version`` 1)::

    {"version": 1, "root": "/abs/project", "tests": 12, "lines_traced": true,
     "sites": [{"path": "pkg/ops.py", "line": 41, "function": "Loop.backward",
                "function_line": 36, "operation": "getindex x[0]", "code": "SL101",
                "count": 30, "tests": ["tests/test_ops.py::test_grad", ...]}],
     "lines_run": {"pkg/ops.py": [36, 37, 41]}}

Paths are relative to ``root`` (POSIX separators).
"""

from __future__ import annotations

import json
import os
import re
import sys
import sysconfig
import threading
from pathlib import Path
from types import FrameType
from typing import Any, Callable

__all__ = ["Recorder", "FIRST_TESTS"]

FIRST_TESTS = 5  # test ids kept per site
_INDICES = re.compile(r"x\[[^\]]*\]")  # "getindex x[3, 0]": one site for every index value


def _library_dirs() -> tuple[str, ...]:
    """Where installed packages live: never the project's own files."""
    found = {sysconfig.get_paths()[k] for k in ("purelib", "platlib", "stdlib", "platstdlib")}
    found |= {sys.prefix, sys.base_prefix, sys.exec_prefix}
    return tuple(os.path.join(os.path.realpath(d), "") for d in found if d)


class Recorder:
    """Collects the sites of one test run; ``site(...)`` is the runtime's record hook."""

    def __init__(self, root: Path, trace_lines: bool = True) -> None:
        self.root = os.path.join(os.path.realpath(root), "")
        self._libraries = _library_dirs()
        self._own: dict[str, str | None] = {}  # filename -> relative path, None: not the project's
        self._sites: dict[tuple[str, int, str, str | None], dict[str, Any]] = {}
        self._lines: dict[str, set[int]] = {}
        self._lock = threading.Lock()
        self._test: str | None = None
        self.tests = 0
        self.trace_lines = trace_lines and sys.gettrace() is None  # a debugger or coverage wins
        self._tracing = False

    # -- the project's files -------------------------------------------------------------------
    def relative(self, filename: str) -> str | None:
        """``filename`` relative to the root when it is one of the project's own files."""
        if filename not in self._own:
            real = os.path.realpath(filename) if not filename.startswith("<") else ""
            own = real.startswith(self.root) and not real.startswith(self._libraries) and os.path.isfile(real)
            self._own[filename] = Path(real[len(self.root):]).as_posix() if own else None
        return self._own[filename]

    # -- the runtime's hook ----------------------------------------------------------------------
    def site(self, site: Any) -> None:
        """Count one access (a ``scalarlint.runtime._report.Site``)."""
        path = self.relative(site.path)
        if path is None:
            return
        operation = _INDICES.sub("x[...]", site.operation)
        key = (path, site.line, operation, site.code)
        with self._lock:
            entry = self._sites.get(key)
            if entry is None:
                entry = self._sites[key] = {
                    "path": path, "line": site.line, "function": site.function,
                    "function_line": site.function_line, "operation": operation,
                    "code": site.code, "count": 0, "tests": [],
                }
            entry["count"] += 1
            if self._test and self._test not in entry["tests"] and len(entry["tests"]) < FIRST_TESTS:
                entry["tests"].append(self._test)

    # -- one test --------------------------------------------------------------------------------
    def start_test(self, test_id: str) -> None:
        self._test = test_id
        self.tests += 1
        if self.trace_lines:
            self._tracing = True
            threading.settrace(self._trace_call)
            sys.settrace(self._trace_call)

    def end_test(self) -> None:
        if self._tracing:
            sys.settrace(None)
            threading.settrace(None)  # type: ignore[arg-type]
            self._tracing = False
        self._test = None

    def _trace_call(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        """Trace lines of the project's own code objects only (other calls cost one lookup)."""
        path = self.relative(frame.f_code.co_filename)
        if path is None:
            return None
        lines = self._lines.setdefault(path, set())
        lines.add(frame.f_lineno)

        def trace_line(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "line":
                lines.add(frame.f_lineno)
            return trace_line

        return trace_line

    # -- the result ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        sites = sorted(self._sites.values(), key=lambda s: (s["path"], s["line"], s["operation"]))
        return {
            "version": 1,
            "root": self.root.rstrip(os.sep),
            "tests": self.tests,
            "lines_traced": self.trace_lines,
            "sites": sites,
            "lines_run": {path: sorted(lines) for path, lines in sorted(self._lines.items())},
        }

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
