"""Strict JAX: ``disallow_scalar()`` arms JAX's own device-to-host transfer guard.

The guard is JAX's thread-local configuration; these tests read it back
(``jax.config.jax_transfer_guard_device_to_host``) to check that the policy sets it the way
JAX documents, that ``allow_scalar()`` relaxes it, and that everything is restored. They also
pin down what the guard does on the CPU backend: nothing, because a CPU ``jax.Array`` already
lives in host memory (``docs/runtime.md``, "What each backend's mode misses"). Skipped, with
the reason, where JAX is not installed.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import Any, Callable

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="strict JAX needs jax (pip install jax)")
jnp = pytest.importorskip("jax.numpy", reason="strict JAX needs jax (pip install jax)")

from scalarlint.runtime import allow_scalar, disallow_scalar  # noqa: E402


def _guard() -> Any:
    return jax.config.jax_transfer_guard_device_to_host


def test_the_policy_disallows_device_to_host_transfers_while_open() -> None:
    before = _guard()
    with disallow_scalar() as policy:
        assert "jax" in policy.hooks
        assert _guard() == "disallow"
    assert _guard() == before


def test_backends_selects_the_jax_guard_alone() -> None:
    with disallow_scalar(backends=("jax",)) as policy:
        assert policy.hooks == ("jax",)
        assert _guard() == "disallow"
    with disallow_scalar(backends=()) as policy:
        assert policy.hooks == ()
        assert _guard() != "disallow"


def test_allow_scalar_inside_the_policy_allows_transfers_until_it_closes() -> None:
    with disallow_scalar():
        with allow_scalar():
            assert _guard() == "allow"
            with disallow_scalar():  # declared intent nests both ways
                assert _guard() == "disallow"
            assert _guard() == "allow"
        assert _guard() == "disallow"


def test_an_exception_leaves_the_guard_as_it_found_it() -> None:
    before = _guard()
    with pytest.raises(ZeroDivisionError):
        with disallow_scalar():
            with allow_scalar():
                1 / 0  # noqa: B018
    assert _guard() == before


def test_nested_policies_share_the_guard_and_restore_it_in_order() -> None:
    before = _guard()

    @disallow_scalar
    def inner() -> Any:
        return _guard()

    with disallow_scalar():
        assert inner() == "disallow"
        assert _guard() == "disallow"
    assert _guard() == before


def test_the_guard_is_per_thread() -> None:
    seen: list[Any] = []
    with disallow_scalar():
        thread = threading.Thread(target=lambda: seen.append(_guard()))
        thread.start()
        thread.join(10)
    assert seen == [None]  # a thread started inside the policy is not covered (JAX's config is thread-local)


def test_a_policy_in_another_thread_does_not_touch_this_one() -> None:
    opened, release = threading.Event(), threading.Event()

    def other() -> None:
        with disallow_scalar():
            opened.set()
            release.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    opened.wait(10)
    try:
        assert _guard() is None
    finally:
        release.set()
        thread.join(10)


_HOST_USES: dict[str, Callable[[Any], Any]] = {
    "float": float,
    "int": int,
    "item": lambda y: y.item(),
    "bool-in-if": lambda y: 1 if y > 0 else 0,
    "np.asarray": np.asarray,
    "tolist": lambda y: y.tolist(),
}


@pytest.mark.skipif(jax.default_backend() != "cpu", reason="pins down the CPU backend's behaviour")
@pytest.mark.parametrize("use", sorted(_HOST_USES))
def test_on_the_cpu_backend_a_host_use_is_no_transfer_and_passes(use: str) -> None:
    """Documented limit: on the CPU a jax.Array is host memory, so the guard never fires."""
    y = jnp.arange(5.0)[1]
    with disallow_scalar():
        assert _guard() == "disallow"
        _HOST_USES[use](y)  # would raise "Disallowed device-to-host transfer" on a GPU


def test_opening_a_policy_does_not_import_jax() -> None:
    code = (
        "import sys\n"
        "from scalarlint.runtime import disallow_scalar\n"
        "with disallow_scalar() as p:\n"
        "    hooks = p.hooks\n"
        "assert 'jax' not in sys.modules, 'jax imported'\n"
        "print('armed:', hooks)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("armed:") and "jax" not in result.stdout
