"""The ``allow_scalar`` helper ``scalarlint vendor`` writes: its text, and what it does with
scalarlint installed, without it (a subprocess that cannot import scalarlint), and with the
backends' own switches (PyTorch on the CPU for real; CUDA's and CuPy's switches faked)."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import importlib.util
import json
import subprocess
import sys
import textwrap
import threading
import types
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scalarlint.runtime import ScalarIndexingError, disallow_scalar, scalar_allowed, strict
from scalarlint.vendored import RELEASED, VERSION, State, digest, inspect_copy, template_text, version_of
from without_scalarlint import BLOCK_SCALARLINT  # tests/ is on the path through its conftest


# Run in the subprocesses: every behaviour of the scope, printed as JSON.
BEHAVIOUR = textwrap.dedent(
    """
    import asyncio, contextvars, json, sys, threading
    before = set(sys.modules)
    from _allow_scalar import allow_scalar, scalar_allowed
    new = {m.split(".")[0] for m in set(sys.modules) - before} - {"_allow_scalar"}
    out = {"imported": sorted(m for m in new if m not in sys.stdlib_module_names)}
    out["outside"] = scalar_allowed()
    with allow_scalar():
        out["inside"] = scalar_allowed()
        with allow_scalar():
            out["nested"] = scalar_allowed()
        out["after_nested"] = scalar_allowed()
        out["new_thread"] = []
        t = threading.Thread(target=lambda: out["new_thread"].append(scalar_allowed()))
        t.start(); t.join()
        out["copied_context"] = []
        t = threading.Thread(target=contextvars.copy_context().run, args=(lambda: out["copied_context"].append(scalar_allowed()),))
        t.start(); t.join()
    out["after"] = scalar_allowed()
    try:
        with allow_scalar():
            raise KeyError("boom")
    except KeyError:
        out["after_exception"] = scalar_allowed()

    @allow_scalar
    def bare():
        return scalar_allowed()

    @allow_scalar()
    def called():
        return scalar_allowed()

    @allow_scalar
    async def coroutine():
        await asyncio.sleep(0)
        return scalar_allowed()

    async def task_sees():
        await asyncio.sleep(0)
        return scalar_allowed()

    async def tasks():
        with allow_scalar():
            inside = asyncio.ensure_future(task_sees())
        outside = asyncio.ensure_future(task_sees())
        return [await inside, await outside]

    out["decorated"] = [bare(), called(), asyncio.run(coroutine()), scalar_allowed()]
    out["tasks"] = asyncio.run(tasks())
    try:
        @allow_scalar
        def generator():
            yield 1
        out["generator"] = "accepted"
    except TypeError:
        out["generator"] = "refused"
    out["backends_imported"] = sorted(m for m in ("torch", "cupy", "cupyx", "numpy", "scalarlint") if m in sys.modules)
    print(json.dumps(out))
    """
)

EXPECTED = {
    "imported": [],
    "outside": False, "inside": True, "nested": True, "after_nested": True,
    "new_thread": [False], "copied_context": [True], "after": False, "after_exception": False,
    "decorated": [True, True, True, False], "tasks": [True, False], "generator": "refused",
    "backends_imported": [],
}


@pytest.fixture
def helper_folder(tmp_path: Path) -> Path:
    """A folder holding the helper as a project would: ``_allow_scalar.py``."""
    (tmp_path / "_allow_scalar.py").write_text(template_text(), encoding="utf-8")
    return tmp_path


def _load(path: Path, name: str) -> types.ModuleType:
    """A fresh copy of the helper module (its own state), not entered in ``sys.modules``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def helper(helper_folder: Path) -> types.ModuleType:
    return _load(helper_folder / "_allow_scalar.py", "vendored_helper_under_test")


@pytest.fixture
def fallback(helper: types.ModuleType) -> types.ModuleType:
    """The helper as it runs where scalarlint is not installed: the backends' switches only."""
    helper._runtime = None
    return helper


# --- the text ------------------------------------------------------------------------------


def test_the_template_is_the_released_text_of_its_version() -> None:
    """Changing the template without a new version (and a new ``RELEASED`` entry) fails here:
    copies in projects are recognised by these digests."""
    text = template_text()
    assert text.splitlines()[0] == f"# scalarlint-vendored: allow_scalar v{VERSION}"
    assert version_of(text) == VERSION
    assert RELEASED[VERSION] == digest(text)
    assert sorted(RELEASED) == list(range(1, VERSION + 1))


def test_the_template_imports_only_the_standard_library_and_parses_on_python_3_7() -> None:
    tree = ast.parse(template_text(), feature_version=(3, 7))
    top = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            top |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module is not None
            top.add(node.module.split(".")[0])
    assert top <= set(sys.stdlib_module_names) | {"__future__"}, top
    # scalarlint comes through importlib at the first scope, never as an import statement
    assert "scalarlint" not in top


def test_a_copy_with_crlf_line_endings_is_still_current(tmp_path: Path) -> None:
    path = tmp_path / "_allow_scalar.py"
    path.write_bytes(template_text().replace("\n", "\r\n").encode())
    found = inspect_copy(path)
    assert found is not None and found.state is State.CURRENT and found.version == VERSION


# --- without scalarlint ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("way", ["import blocked", "isolated interpreter"])
def test_without_scalarlint_it_is_a_scope_that_changes_nothing(helper_folder: Path, way: str) -> None:
    """Where scalarlint cannot be imported: the scope nests, restores on exceptions, is per
    thread and per task, decorates, and imports nothing but the standard library (and neither
    scalarlint nor any array library, installed or not)."""
    if way == "import blocked":  # site-packages (numpy, torch, scalarlint) there, scalarlint blocked
        command = [sys.executable, "-c", BLOCK_SCALARLINT + BEHAVIOUR]
    else:  # -I -S: no site-packages at all, and only the helper's folder added to the path
        script = f"import sys\nsys.path.insert(0, {str(helper_folder)!r})\n" + BEHAVIOUR
        (helper_folder / "behaviour.py").write_text(script)
        command = [sys.executable, "-I", "-S", str(helper_folder / "behaviour.py")]
    result = subprocess.run(command, cwd=helper_folder, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == EXPECTED


# --- with scalarlint ------------------------------------------------------------------------


def test_with_scalarlint_the_strict_array_raises_outside_and_passes_inside(helper: types.ModuleType) -> None:
    x = strict(np.arange(4.0))
    with pytest.raises(ScalarIndexingError):
        x[1]
    with helper.allow_scalar():
        assert float(x[1]) == 1.0
        assert scalar_allowed() and helper.scalar_allowed()
    with pytest.raises(ScalarIndexingError):
        x[1]

    @helper.allow_scalar
    def read(i: int) -> float:
        return float(x[i])

    assert read(2) == 2.0 and not scalar_allowed()
    assert helper._runtime is sys.modules["scalarlint.runtime"]


def test_with_scalarlint_it_relaxes_a_disallow_scalar_policy_and_restores_it(helper: types.ModuleType) -> None:
    x = strict(np.arange(3.0))
    with disallow_scalar(backends=()):
        with helper.allow_scalar():
            assert float(x[0]) == 0.0
        with pytest.raises(ScalarIndexingError):
            x[0]
        with pytest.raises(ScalarIndexingError):
            with helper.allow_scalar():
                with disallow_scalar(backends=()):  # the innermost scope wins
                    x[0]


def test_with_scalarlint_async_tasks_do_not_share_the_scope(helper: types.ModuleType) -> None:
    x = strict(np.arange(3.0))

    @helper.allow_scalar
    async def inside() -> float:
        await asyncio.sleep(0)
        return float(x[2])

    async def outside() -> bool:
        await asyncio.sleep(0)
        return scalar_allowed()

    async def both() -> list[Any]:
        return list(await asyncio.gather(inside(), outside()))

    assert asyncio.run(both()) == [2.0, False]


# --- the backends' own switches, without scalarlint -------------------------------------------


def test_on_a_cpu_build_of_pytorch_cuda_is_never_touched(fallback: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """PyTorch's ``set_sync_debug_mode`` raises "Torch not compiled with CUDA enabled" on a CPU
    build, and would initialise CUDA on a GPU machine that has not used it: the helper calls
    neither it nor ``get_sync_debug_mode`` until CUDA is initialised."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    assert not torch.cuda.is_initialized()
    calls: list[str] = []
    monkeypatch.setattr(torch.cuda, "set_sync_debug_mode", lambda mode: calls.append(f"set {mode}"))
    monkeypatch.setattr(torch.cuda, "get_sync_debug_mode", lambda: calls.append("get") or 0)
    t = torch.arange(3.0)
    with fallback.allow_scalar():
        assert t[1].item() == 1.0 and fallback.scalar_allowed()
    assert calls == [] and not torch.cuda.is_initialized()


def test_on_a_cpu_build_of_pytorch_the_real_switch_would_have_raised() -> None:
    """Why the helper must not call it: on a CPU build the switch itself raises."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    if torch.cuda.is_available():
        pytest.skip("a CUDA build with a GPU: the switch works here")
    with pytest.raises((AssertionError, RuntimeError)):
        torch.cuda.set_sync_debug_mode(0)


def test_with_scalarlint_and_pytorch_strict_cpu_tensors_pass_inside_only(helper: types.ModuleType) -> None:
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    t = torch.arange(3.0)
    with disallow_scalar(backends=("torch-cpu",)):
        with pytest.raises(ScalarIndexingError):
            t[1].item()
        with helper.allow_scalar():
            assert t[1].item() == 1.0


class _FakeCuda:
    """``torch.cuda`` of a GPU build whose CUDA is initialised: the sync debug mode only."""

    def __init__(self, mode: int) -> None:
        self.mode = mode
        self.calls: list[int] = []

    def is_initialized(self) -> bool:
        return True

    def get_sync_debug_mode(self) -> int:
        return self.mode

    def set_sync_debug_mode(self, mode: int) -> None:
        self.calls.append(mode)
        self.mode = mode


@pytest.fixture
def fake_cuda(monkeypatch: pytest.MonkeyPatch) -> Iterator[_FakeCuda]:
    cuda = _FakeCuda(mode=2)  # "error", as a user's test set-up would arm it
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(cuda=cuda))
    yield cuda


def test_an_armed_cuda_sync_check_is_relaxed_inside_and_restored_after(fallback: types.ModuleType, fake_cuda: _FakeCuda) -> None:
    with fallback.allow_scalar():
        assert fake_cuda.mode == 0
        with fallback.allow_scalar():
            assert fake_cuda.mode == 0
        assert fake_cuda.mode == 0
    assert fake_cuda.mode == 2 and fake_cuda.calls == [0, 2]


def test_the_process_global_cuda_mode_is_restored_by_the_last_scope_of_any_thread(fallback: types.ModuleType, fake_cuda: _FakeCuda) -> None:
    entered, release = threading.Event(), threading.Event()

    def other_thread() -> None:
        with fallback.allow_scalar():
            entered.set()
            release.wait(5)

    worker = threading.Thread(target=other_thread)
    worker.start()
    assert entered.wait(5)
    with fallback.allow_scalar():
        assert fake_cuda.mode == 0
    assert fake_cuda.mode == 0  # the other thread's scope is still open
    release.set()
    worker.join(5)
    assert fake_cuda.mode == 2 and fake_cuda.calls == [0, 2]


def test_an_unarmed_cuda_mode_is_left_alone(fallback: types.ModuleType, fake_cuda: _FakeCuda) -> None:
    fake_cuda.mode = 0
    with fallback.allow_scalar():
        pass
    assert fake_cuda.calls == []


def _fake_cupyx() -> types.SimpleNamespace:
    """``cupyx.allow_synchronize`` as CuPy has it: a per-thread flag restored on exit, and a
    deprecation warning on entry."""
    local = threading.local()

    @contextlib.contextmanager
    def allow_synchronize(allow: bool) -> Iterator[None]:
        warnings.warn("cupyx.allow_synchronize will be removed in future releases", DeprecationWarning, stacklevel=3)
        old = getattr(local, "allowed", True)
        local.allowed = allow
        try:
            yield
        finally:
            local.allowed = old

    return types.SimpleNamespace(allow_synchronize=allow_synchronize, allowed=lambda: getattr(local, "allowed", True))


def test_cupy_synchronize_is_allowed_inside_without_its_warning(fallback: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    cupyx = _fake_cupyx()
    monkeypatch.setitem(sys.modules, "cupyx", cupyx)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        policy = cupyx.allow_synchronize(False)
        policy.__enter__()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with fallback.allow_scalar():
                assert cupyx.allowed()
        assert not cupyx.allowed()
    finally:
        policy.__exit__(None, None, None)


def test_interleaved_tasks_keep_cupy_relaxed_until_the_last_scope_closes(fallback: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """CuPy's switch restores the value it found; two tasks of one thread whose scopes
    interleave would otherwise leave the second one unprotected."""
    cupyx = _fake_cupyx()
    monkeypatch.setitem(sys.modules, "cupyx", cupyx)
    seen: list[bool] = []

    async def first(step: asyncio.Event, done: asyncio.Event) -> None:
        with fallback.allow_scalar():
            step.set()
            await done.wait()

    async def second(step: asyncio.Event, done: asyncio.Event) -> None:
        await step.wait()
        with fallback.allow_scalar():
            done.set()
            await asyncio.sleep(0)
            await asyncio.sleep(0)  # the first task has closed its scope by now
            seen.append(cupyx.allowed())  # a naive nesting of CuPy's switch says False here

    async def main() -> None:
        step, done = asyncio.Event(), asyncio.Event()
        await asyncio.gather(first(step, done), second(step, done))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with cupyx.allow_synchronize(False):
            asyncio.run(main())
            assert not cupyx.allowed()
    assert seen == [True]


# --- to_host: one host copy, so a loop reads elements without a sync each -----------------


def test_to_host_without_scalarlint_returns_a_numpy_array_as_it_is(fallback: types.ModuleType) -> None:
    x = np.arange(4.0)
    assert fallback.to_host(x) is x


def test_to_host_without_scalarlint_copies_a_torch_tensor_to_numpy(fallback: types.ModuleType) -> None:
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    t = torch.arange(3.0, requires_grad=True)
    host = fallback.to_host(t)
    assert isinstance(host, np.ndarray) and host.tolist() == [0.0, 1.0, 2.0]


def test_to_host_without_scalarlint_asks_cupy_for_its_copy_by_name(fallback: types.ModuleType) -> None:
    """CuPy refuses ``numpy.asarray``: the helper calls ``get()``, as ``cupy.asnumpy`` does."""
    fake = type("ndarray", (), {"__module__": "cupy._core.core", "get": lambda self: np.array([7.0])})()
    assert fallback.to_host(fake).tolist() == [7.0]


def test_to_host_without_scalarlint_reads_anything_else_through_numpy(fallback: types.ModuleType) -> None:
    class Wrapped:
        def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
            return np.array([1, 2])

    assert fallback.to_host(Wrapped()).tolist() == [1, 2]


def test_to_host_with_scalarlint_reads_the_strict_array_without_a_scope(helper: types.ModuleType) -> None:
    x = strict(np.arange(4.0))
    with disallow_scalar():
        host = helper.to_host(x)
        assert isinstance(host, np.ndarray) and float(host[3]) == 3.0
    with pytest.raises(ScalarIndexingError):
        x[3]


def test_to_host_imports_nothing_outside_the_standard_library_without_scalarlint(helper_folder: Path) -> None:
    script = BLOCK_SCALARLINT + textwrap.dedent(
        """
        import sys
        from _allow_scalar import to_host
        print(sorted(m for m in ("numpy", "torch", "cupy", "scalarlint") if m in sys.modules))
        """
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=helper_folder, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
