"""disallow_scalar() and its backend hooks, with fake torch/cupy modules."""

from __future__ import annotations

import contextlib
import sys
import threading
import types
import warnings
from typing import Any, Iterator

import numpy as np
import pytest

from scalarlint.runtime import ScalarIndexingError, allow_scalar, disallow_scalar, scalar_allowed, strict

_MODES = {"default": 0, "warn": 1, "error": 2}


class FakeTorchCuda:
    """Records ``set_sync_debug_mode`` calls like torch.cuda would apply them."""

    def __init__(self, available: bool = True, mode: int = 0) -> None:
        self.available = available
        self.mode = mode
        self.calls: list[Any] = []

    def is_available(self) -> bool:
        return self.available

    def get_sync_debug_mode(self) -> int:
        return self.mode

    def set_sync_debug_mode(self, mode: Any) -> None:
        self.calls.append(mode)
        self.mode = _MODES.get(mode, mode)


@pytest.fixture(autouse=True)
def _no_jax(monkeypatch: pytest.MonkeyPatch) -> None:
    """JAX imported by another test would be armed by default too: these tests are about torch and CuPy."""
    monkeypatch.delitem(sys.modules, "jax", raising=False)


@pytest.fixture
def fake_torch(monkeypatch: pytest.MonkeyPatch) -> FakeTorchCuda:
    cuda = FakeTorchCuda(mode=1)  # "warn": a non-default mode to restore
    module = types.ModuleType("torch")
    module.cuda = cuda  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", module)
    return cuda


class FakeCupyx(types.ModuleType):
    """``cupyx.allow_synchronize``: thread-local, warns on entry like CuPy >= 10."""

    def __init__(self) -> None:
        super().__init__("cupyx")
        self.local = threading.local()
        self.entries = 0

    def allowed(self) -> bool:
        return getattr(self.local, "allowed", True)

    def allow_synchronize(self, allow: bool) -> Any:
        @contextlib.contextmanager
        def manager() -> Iterator[None]:
            warnings.warn(
                "cupyx.allow_synchronize will be removed in future releases as it is not "
                "possible to reliably detect synchronizations."
            )
            self.entries += 1
            old = self.allowed()
            self.local.allowed = allow
            try:
                yield
            finally:
                self.local.allowed = old

        return manager()


@pytest.fixture
def fake_cupyx(monkeypatch: pytest.MonkeyPatch) -> FakeCupyx:
    cupyx = FakeCupyx()
    monkeypatch.setitem(sys.modules, "cupy", types.ModuleType("cupy"))
    monkeypatch.setitem(sys.modules, "cupyx", cupyx)
    return cupyx


@pytest.fixture
def no_backends(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make torch/cupy unimportable and record import attempts."""
    attempts: list[str] = []

    class Recorder:
        def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
            if name.split(".")[0] in ("torch", "cupy", "cupyx"):
                attempts.append(name)
                raise ImportError(f"no {name} here")
            return None

    for name in ("torch", "cupy", "cupyx"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setattr(sys, "meta_path", [Recorder(), *sys.meta_path])
    return attempts


# -- the scope itself ----------------------------------------------------------------


def test_disallow_overrides_an_enclosing_allow() -> None:
    x = strict(np.arange(3.0))
    with allow_scalar():
        x[0]
        with disallow_scalar(backends=()):
            with pytest.raises(ScalarIndexingError):
                x[0]
            with allow_scalar():  # declared intent wins again, as @allowscalar
                x[0]
        x[0]


def test_unknown_backend_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown backend"):
        disallow_scalar(backends=("mxnet",))


def test_absent_libraries_are_neither_imported_nor_required(no_backends: list[str]) -> None:
    with disallow_scalar() as policy:
        assert policy.hooks == ()
        assert not scalar_allowed()
    assert no_backends == []  # not imported: they were not in sys.modules
    with disallow_scalar(backends=("torch", "cupy")) as policy:
        assert policy.hooks == ()  # explicitly asked for, missing: a no-op
    assert "torch" in no_backends and "cupy" in no_backends


# -- torch: process-global sync debug mode -------------------------------------------


def test_torch_hook_arms_and_restores_the_previous_mode(fake_torch: FakeTorchCuda) -> None:
    with disallow_scalar() as policy:  # torch is in sys.modules: armed by default
        assert policy.hooks == ("torch",)
        assert fake_torch.mode == 2
    assert fake_torch.mode == 1
    assert fake_torch.calls == ["error", 1]


def test_torch_hook_not_armed_when_not_requested(fake_torch: FakeTorchCuda) -> None:
    with disallow_scalar(backends=()) as policy, disallow_scalar(backends=("cupy",)):
        assert policy.hooks == ()
        assert fake_torch.mode == 1
    assert fake_torch.calls == []


def test_torch_hook_restores_on_exception(fake_torch: FakeTorchCuda) -> None:
    with pytest.raises(RuntimeError):
        with disallow_scalar(backends=("torch",)):
            raise RuntimeError("called a synchronizing CUDA operation")
    assert fake_torch.mode == 1


def test_nested_torch_policies_share_one_setting(fake_torch: FakeTorchCuda) -> None:
    with disallow_scalar():
        with disallow_scalar():
            assert fake_torch.mode == 2
        assert fake_torch.mode == 2  # the inner exit must not restore early
    assert fake_torch.mode == 1
    assert fake_torch.calls == ["error", 1]


def test_allow_scalar_relaxes_torch_inside_a_policy(fake_torch: FakeTorchCuda) -> None:
    with disallow_scalar():
        with allow_scalar():
            assert fake_torch.mode == 1
            with disallow_scalar():
                assert fake_torch.mode == 2
            assert fake_torch.mode == 1
        assert fake_torch.mode == 2
    assert fake_torch.mode == 1


def test_policy_opened_inside_allow_scalar(fake_torch: FakeTorchCuda) -> None:
    with allow_scalar():
        with disallow_scalar():
            assert fake_torch.mode == 2
        assert fake_torch.mode == 1
    assert fake_torch.mode == 1


def test_allow_scalar_outside_a_policy_does_not_touch_torch(fake_torch: FakeTorchCuda) -> None:
    with allow_scalar():
        pass
    assert fake_torch.calls == []


def test_concurrent_policies_in_two_threads(fake_torch: FakeTorchCuda) -> None:
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    modes: dict[str, int] = {}

    def a() -> None:
        with disallow_scalar():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def b() -> None:
        a_in.wait(5)
        with disallow_scalar():
            b_in.set()
            a_out.wait(5)
            modes["after_a_left"] = fake_torch.mode

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert modes == {"after_a_left": 2}
    assert fake_torch.mode == 1


@pytest.mark.parametrize("variant", ["no-cuda", "old-torch"])
def test_torch_hook_no_ops_without_cuda_or_the_api(fake_torch: FakeTorchCuda, variant: str) -> None:
    if variant == "no-cuda":
        fake_torch.available = False
    else:
        sys.modules["torch"].cuda = types.SimpleNamespace(is_available=lambda: True)  # type: ignore[attr-defined]
    with disallow_scalar(backends=("torch",)) as policy:
        assert policy.hooks == ()
    assert fake_torch.calls == []


# -- cupy: thread-local, deprecated, warns ---------------------------------------------


def test_cupy_hook_disallows_and_filters_the_warning(fake_cupyx: FakeCupyx) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with disallow_scalar() as policy:
            # strict CPU tensors join in when the real torch is imported (another test did)
            assert [hook for hook in policy.hooks if hook != "torch-cpu"] == ["cupy"]
            assert fake_cupyx.allowed() is False
        assert fake_cupyx.allowed() is True
    assert fake_cupyx.entries == 1
    assert not [w for w in caught if "allow_synchronize" in str(w.message)]


def test_cupy_hook_is_relaxed_by_allow_scalar(fake_cupyx: FakeCupyx) -> None:
    with disallow_scalar():
        with allow_scalar():
            assert fake_cupyx.allowed() is True
            with disallow_scalar():
                assert fake_cupyx.allowed() is False
            assert fake_cupyx.allowed() is True
        assert fake_cupyx.allowed() is False
    assert fake_cupyx.allowed() is True


def test_cupy_hook_is_thread_local(fake_cupyx: FakeCupyx) -> None:
    seen: list[bool] = []
    with disallow_scalar():
        thread = threading.Thread(target=lambda: seen.append(fake_cupyx.allowed()))
        thread.start()
        thread.join()
        assert fake_cupyx.allowed() is False
    assert seen == [True]


def test_cupy_hook_restores_on_exception(fake_cupyx: FakeCupyx) -> None:
    with pytest.raises(ZeroDivisionError):
        with disallow_scalar():
            1 / 0  # noqa: B018
    assert fake_cupyx.allowed() is True


def test_cupy_without_allow_synchronize_is_a_no_op(fake_cupyx: FakeCupyx, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cupyx", types.ModuleType("cupyx"))
    with disallow_scalar(backends=("cupy",)) as policy:
        assert policy.hooks == ()


def test_both_backends_together(fake_torch: FakeTorchCuda, fake_cupyx: FakeCupyx) -> None:
    @disallow_scalar
    def rule_body() -> tuple[int, bool]:
        return fake_torch.mode, fake_cupyx.allowed()

    assert rule_body() == (2, False)
    assert (fake_torch.mode, fake_cupyx.allowed()) == (1, True)
