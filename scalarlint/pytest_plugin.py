"""scalarlint's pytest plugin: test AD rules on every array backend, under a strict scalar policy.

Installed with scalarlint (entry point ``pytest11``), so it loads in every pytest run of a
project that has scalarlint installed. It therefore imports nothing but pytest and the standard
library until a test asks for one of its fixtures or its strict policy: the backends, NumPy and
:mod:`scalarlint.runtime` are imported then, and the checker (libcst, astroid, click) never.

* ``xp``: the array namespace of one backend; a test that takes it runs once per backend
  (ids ``[numpy]``, ``[strict]``, ``[cupy]``, ``[torch]``, ``[torch-strict]``, ``[jax]``;
  ``torch-strict`` is PyTorch on the CPU with the test inside ``disallow_scalar()``, so scalar
  access to its tensors fails the test as on the strict array). A backend that is not
  installed, or has no GPU, is *skipped with the reason*, never dropped silently;
  ``--scalarlint-backends`` selects (``numpy,strict``, ``available``, ``all``), the report
  header says which backends are installed and the summary which ones ran.
* ``scalarlint_backend``: the :class:`scalarlint.backends.Backend` behind ``xp`` (name,
  description, conversions).
* ``check_rule``: :func:`scalarlint.testing.check_rule` for the backend in use (and, on
  NumPy, :func:`~scalarlint.testing.check_rule_fd`: the derivative against finite differences).
* ``@pytest.mark.scalar_strict`` and ``--scalarlint-strict``: the test body runs inside
  :func:`scalarlint.runtime.disallow_scalar`, which makes CPU tensors strict (PyTorch imported)
  and arms PyTorch's and CuPy's own sync detectors; a failure caused by scalar access names the
  offending line of the code under test.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any, Generator

import pytest

BACKENDS = ("numpy", "strict", "cupy", "torch", "torch-strict", "jax")
_LIBRARIES = {"numpy": "numpy", "strict": "numpy", "cupy": "cupy", "torch": "torch", "torch-strict": "torch", "jax": "jax"}
_RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"

_SELECTED = pytest.StashKey[tuple[str, ...]]()
_LOADED = pytest.StashKey[dict[str, Any]]()  # backend name -> Backend, or the reason it is absent
_OUTCOMES = pytest.StashKey[dict[str, dict[str, int]]]()  # backend -> outcome -> count
_ITEM_BACKEND = pytest.StashKey[str]()
_RECORDER = pytest.StashKey[Any]()  # scalarlint.runtime_record.Recorder of a --scalarlint-record run


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("scalarlint", "scalarlint: AD rules on array backends")
    group.addoption(
        "--scalarlint-backends",
        metavar="NAMES",
        default=None,
        help="backends of the xp fixture: comma-separated names from "
        f"{','.join(BACKENDS)}; 'all' (default: absent ones are skipped with the reason) "
        "or 'available' (only those installed)",
    )
    group.addoption(
        "--scalarlint-strict",
        action="store_true",
        default=False,
        help="run every test inside scalarlint.runtime.disallow_scalar(): scalar access fails the test",
    )
    group.addoption(
        "--scalarlint-record",
        metavar="FILE",
        default=None,
        help="run every test strictly but record scalar accesses instead of failing, and write them "
        "(path, line, operation, check code, count, test ids) to FILE as JSON, for "
        "`scalarlint check --runtime FILE`",
    )
    group.addoption(
        "--scalarlint-record-no-lines",
        action="store_true",
        default=False,
        help="with --scalarlint-record, do not trace which lines ran (faster; check --runtime then "
        "cannot tell 'ran clean' from 'not run')",
    )
    parser.addini("scalarlint_backends", "default for --scalarlint-backends", default="all")


def _installed(name: str) -> bool:
    """Whether the backend's library can be imported, found without importing it."""
    try:
        return importlib.util.find_spec(_LIBRARIES[name]) is not None
    except (ImportError, ValueError):
        return False


def selected_backends(value: str) -> tuple[str, ...]:
    """The backends a ``--scalarlint-backends`` value names, in the canonical order."""
    words = [w.strip().lower() for w in value.split(",") if w.strip()]
    if words in (["all"], []):
        return BACKENDS
    if words == ["available"]:
        return tuple(name for name in BACKENDS if _installed(name))
    unknown = [w for w in words if w not in BACKENDS]
    if unknown:
        raise pytest.UsageError(
            f"--scalarlint-backends: unknown backend(s) {', '.join(unknown)}; "
            f"known: {', '.join(BACKENDS)}, or 'all' / 'available'"
        )
    return tuple(name for name in BACKENDS if name in words)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "scalar_strict: run the test inside scalarlint.runtime.disallow_scalar() "
        "(scalar access on strict arrays, PyTorch CPU and CUDA tensors and CuPy arrays fails the test)",
    )
    value = config.getoption("--scalarlint-backends") or config.getini("scalarlint_backends")
    config.stash[_SELECTED] = selected_backends(str(value))
    config.stash[_LOADED] = {}
    config.stash[_OUTCOMES] = {}
    if config.getoption("--scalarlint-record"):
        from scalarlint.runtime_record import Recorder

        config.stash[_RECORDER] = Recorder(config.rootpath, trace_lines=not config.getoption("--scalarlint-record-no-lines"))


def pytest_unconfigure(config: pytest.Config) -> None:
    recorder = config.stash.get(_RECORDER, None)
    if recorder is not None:
        recorder.write(Path(config.getoption("--scalarlint-record")))

def pytest_report_header(config: pytest.Config) -> list[str]:
    parts = []
    for name in BACKENDS:
        if name not in config.stash[_SELECTED]:
            parts.append(f"{name} (not selected)")
        elif name in ("numpy", "strict") or _installed(name):
            parts.append(name)
        else:
            parts.append(f"{name} (not installed: its tests are skipped)")
    if config.getoption("--scalarlint-record"):
        policy = f"every test, recording to {config.getoption('--scalarlint-record')} (--scalarlint-record)"
    elif config.getoption("--scalarlint-strict"):
        policy = "every test (--scalarlint-strict)"
    else:
        policy = "tests marked scalar_strict"
    return [f"scalarlint: xp backends: {', '.join(parts)}", f"scalarlint: disallow_scalar() around {policy}"]


# -- the xp fixture ------------------------------------------------------------------------------
def _ours(metafunc: pytest.Metafunc) -> bool:
    """Whether the ``xp`` a test gets is this plugin's (a conftest or module may define its own)."""
    definitions = getattr(metafunc, "_arg2fixturedefs", {}).get("xp")
    if not definitions:
        return False
    function = getattr(definitions[-1], "func", None)
    return getattr(function, "__module__", None) == __name__


def _parametrized_directly(metafunc: pytest.Metafunc) -> bool:
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0] if mark.args else mark.kwargs.get("argnames", "")
        if "xp" in ([n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)):
            return True
    return False


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "xp" in metafunc.fixturenames and _ours(metafunc) and not _parametrized_directly(metafunc):
        chosen = list(metafunc.config.stash[_SELECTED])
        metafunc.parametrize("xp", chosen, ids=chosen, indirect=True)


def _backend(config: pytest.Config, name: str) -> Any:
    """The loaded backend, or a skip naming why it cannot run here (loaded once per session)."""
    loaded = config.stash[_LOADED]
    if name not in loaded:
        from scalarlint.backends import BackendUnavailable, load_backend

        try:
            loaded[name] = load_backend(name)
        except BackendUnavailable as exc:
            loaded[name] = str(exc)
    backend = loaded[name]
    if isinstance(backend, str):
        pytest.skip(f"scalarlint backend {name!r} unavailable: {backend}")
    return backend


@pytest.fixture
def scalarlint_backend(request: pytest.FixtureRequest, xp: Any) -> Any:
    """The :class:`scalarlint.backends.Backend` behind this test's ``xp``."""
    return _backend(request.config, request.node.stash.get(_ITEM_BACKEND, "strict"))


@pytest.fixture
def xp(request: pytest.FixtureRequest) -> Generator[Any, None, None]:
    """The array namespace of one backend: ``numpy``, the strict array's namespace, ``cupy``,
    ``array_api_compat.torch`` (creating on CUDA when PyTorch has a GPU; on the CPU under a
    strict policy for ``torch-strict``) or ``jax.numpy``."""
    name = getattr(request, "param", "strict")
    request.node.stash[_ITEM_BACKEND] = name
    backend = _backend(request.config, name)
    if name != "torch-strict":
        yield backend.namespace
        return
    from scalarlint.runtime import disallow_scalar

    with disallow_scalar(backends=backend.policy):
        yield backend.namespace


class RuleCheck:
    """``check_rule(rrule, *args, **kwargs)`` for the backend of the running test.

    On ``numpy`` it runs the rule on NumPy (the pullback returns one cotangent per argument)
    and compares the pullback with central finite differences (``fd=False`` turns that off);
    on the other backends it runs :func:`scalarlint.testing.check_rule`: the same results as
    NumPy, device arrays back, and no scalar access. Failures name the rule, the backend and
    the cotangent that differs, with the largest error and where it is.
    """

    def __init__(self, backend: Any) -> None:
        self.backend = backend

    def __call__(self, rrule: Any, *args: Any, fd: bool = True, **kwargs: Any) -> None:
        from scalarlint import testing

        name = self.backend.name
        if name == "numpy":
            testing.check_rule(rrule, *args, backends=(), **kwargs)
            if fd:
                options = {k: kwargs.pop(k) for k in ("rtol", "atol") if k in kwargs}
                kwargs.pop("cotangent", None)
                testing.check_rule_fd(rrule, *args, **options, **kwargs)
            return
        if name == "jax":
            pytest.skip("check_rule compares with NumPy in float64, and JAX computes in float32 by default")
        testing.check_rule(rrule, *args, backends=(name,), **kwargs)

    def fd(self, rrule: Any, *args: Any, **kwargs: Any) -> None:
        """Only the finite-difference check (on NumPy, whatever the backend)."""
        from scalarlint import testing

        testing.check_rule_fd(rrule, *args, **kwargs)


@pytest.fixture
def check_rule(scalarlint_backend: Any) -> RuleCheck:
    """:class:`RuleCheck` for this test's backend: ``check_rule(rrule, *args)``."""
    return RuleCheck(scalarlint_backend)


# -- the strict policy -------------------------------------------------------------------------
def _strict(item: pytest.Item) -> bool:
    config = item.config
    return bool(config.getoption("--scalarlint-strict") or config.getoption("--scalarlint-record")
                or item.get_closest_marker("scalar_strict"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, None]:
    if not _strict(item):
        yield
        return
    from scalarlint.runtime import disallow_scalar

    recorder = item.config.stash.get(_RECORDER, None)
    if recorder is None:
        with disallow_scalar():
            yield
        return
    from scalarlint.runtime._report import set_recorder

    previous = set_recorder(recorder.site)
    recorder.start_test(item.nodeid)
    try:
        with disallow_scalar():
            yield
    finally:
        recorder.end_test()
        set_recorder(previous)


def _scalar_error(excinfo: Any) -> BaseException | None:
    """The ScalarIndexingError behind a failure (``check_rule`` re-raises with a cause)."""
    runtime = sys.modules.get("scalarlint.runtime")
    if runtime is None or excinfo is None:
        return None
    error: BaseException | None = excinfo.value
    found = None
    while error is not None:
        if isinstance(error, runtime.ScalarIndexingError):
            found = error
        error = error.__cause__
    return found


def offending_line(error: BaseException) -> str | None:
    """``path:line in function: code`` of the line the runtime found (the innermost frame
    outside scalarlint's runtime and the array libraries), else of the innermost traceback
    frame outside the runtime."""
    import linecache
    import traceback

    location = getattr(error, "location", None)
    frames = [f for f in traceback.extract_tb(error.__traceback__) if not _in_runtime(f.filename)]
    if location is not None:
        path, line = location
        name = next((f.name for f in reversed(frames) if f.filename == path and f.lineno == line), "?")
        return f"{path}:{line} in {name}: {linecache.getline(path, line).strip()}"
    if not frames:
        return None
    frame = frames[-1]
    code = (frame.line or linecache.getline(frame.filename, frame.lineno or 0)).strip()
    return f"{frame.filename}:{frame.lineno} in {frame.name}: {code}"


def _in_runtime(filename: str) -> bool:
    try:
        return Path(filename).resolve().is_relative_to(_RUNTIME_DIR)
    except OSError:
        return False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    error = _scalar_error(call.excinfo) if report.failed else None
    where = offending_line(error) if error is not None else None
    if where:
        report.sections.append(("scalarlint", f"scalar access at {where}"))
    name = item.stash.get(_ITEM_BACKEND, None)
    if name is not None and (report.when == "call" or not report.passed):
        counts = item.config.stash[_OUTCOMES].setdefault(name, {})
        counts[report.outcome] = counts.get(report.outcome, 0) + 1


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    outcomes = config.stash[_OUTCOMES]
    if not outcomes:
        return
    terminalreporter.section("scalarlint backends")
    loaded = config.stash[_LOADED]
    for name in BACKENDS:
        if name not in outcomes:
            continue
        backend = loaded.get(name)
        what = backend if isinstance(backend, str) else getattr(backend, "description", name)
        counts = ", ".join(f"{n} {o}" for o, n in sorted(outcomes[name].items()))
        terminalreporter.write_line(f"{name}: {counts} [{what}]")
