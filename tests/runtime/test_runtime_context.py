"""allow_scalar / disallow_scalar scopes: nesting, exceptions, decorators, threads, tasks."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from scalarlint.runtime import ScalarIndexingError, allow_scalar, disallow_scalar, scalar_allowed, strict


def test_default_is_disallowed() -> None:
    assert scalar_allowed() is False
    with pytest.raises(ScalarIndexingError):
        strict(np.arange(3.0))[0]


def test_nesting_restores_each_level() -> None:
    with allow_scalar():
        assert scalar_allowed()
        with allow_scalar():
            assert scalar_allowed()
        assert scalar_allowed()
        with disallow_scalar(backends=()):
            assert not scalar_allowed()
            with allow_scalar():
                assert scalar_allowed()
            assert not scalar_allowed()
        assert scalar_allowed()
    assert not scalar_allowed()


def test_exception_restores_state() -> None:
    with pytest.raises(ValueError):
        with allow_scalar():
            raise ValueError("boom")
    assert not scalar_allowed()
    with allow_scalar():
        with pytest.raises(KeyError):
            with disallow_scalar(backends=()):
                raise KeyError("boom")
        assert scalar_allowed()


def test_scope_does_not_swallow_exceptions() -> None:
    with pytest.raises(ScalarIndexingError):
        with disallow_scalar(backends=()):
            strict(np.arange(3.0))[1]


def test_reused_instance_nests() -> None:
    scope = allow_scalar()
    with scope:
        with scope:
            assert scalar_allowed()
        assert scalar_allowed()
    assert not scalar_allowed()


def test_decorator_with_and_without_parentheses() -> None:
    @allow_scalar
    def bare() -> bool:
        return scalar_allowed()

    @allow_scalar()
    def called() -> bool:
        return scalar_allowed()

    @disallow_scalar(backends=())
    def strict_again() -> bool:
        return scalar_allowed()

    assert bare() is True and called() is True
    assert not scalar_allowed()
    with allow_scalar():
        assert strict_again() is False
        assert scalar_allowed()
    assert bare.__name__ == "bare"


def test_decorator_restores_on_exception() -> None:
    @allow_scalar
    def fails() -> None:
        raise RuntimeError("inside")

    with pytest.raises(RuntimeError):
        fails()
    assert not scalar_allowed()


def test_decorated_function_allows_element_access() -> None:
    x = strict(np.array([1.0, 2.0, 3.0]))

    @allow_scalar
    def second(a):  # type: ignore[no-untyped-def]
        return float(a[1])

    assert second(x) == 2.0


def test_async_decorator_covers_the_awaits() -> None:
    @allow_scalar
    async def work() -> tuple[bool, bool]:
        before = scalar_allowed()
        await asyncio.sleep(0)
        return before, scalar_allowed()

    assert asyncio.run(work()) == (True, True)
    assert not scalar_allowed()


def test_generator_functions_are_refused() -> None:
    def gen():  # type: ignore[no-untyped-def]
        yield scalar_allowed()

    with pytest.raises(TypeError, match="generator"):
        allow_scalar(gen)


def test_positional_non_callable_is_refused() -> None:
    with pytest.raises(TypeError):
        allow_scalar(3)  # type: ignore[arg-type]


def _in_thread(target):  # type: ignore[no-untyped-def]
    box: dict[str, object] = {}

    def run() -> None:
        box["value"] = target()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return box["value"]


def test_new_thread_starts_disallowed() -> None:
    x = strict(np.arange(3.0))

    def probe() -> tuple[bool, str]:
        try:
            x[0]
        except ScalarIndexingError:
            return scalar_allowed(), "raised"
        return scalar_allowed(), "allowed"

    with allow_scalar():
        assert _in_thread(probe) == (False, "raised")


def test_copy_context_carries_the_scope_into_a_thread() -> None:
    x = strict(np.arange(3.0))
    results: list[float] = []

    def work() -> None:
        results.append(float(x[2]))

    with allow_scalar():
        ctx = contextvars.copy_context()
    thread = threading.Thread(target=ctx.run, args=(work,))
    thread.start()
    thread.join()
    assert results == [2.0]


def test_copy_context_with_an_executor() -> None:
    with allow_scalar(), ThreadPoolExecutor(max_workers=1) as pool:
        carried = pool.submit(contextvars.copy_context().run, scalar_allowed).result()
        plain = pool.submit(scalar_allowed).result()
    assert carried is True
    assert plain is False


def test_thread_scopes_do_not_leak_into_each_other() -> None:
    entered = threading.Event()
    release = threading.Event()
    seen: dict[str, bool] = {}

    def holder() -> None:
        with allow_scalar():
            entered.set()
            release.wait(5)
            seen["holder"] = scalar_allowed()

    thread = threading.Thread(target=holder)
    thread.start()
    assert entered.wait(5)
    seen["main"] = scalar_allowed()
    release.set()
    thread.join()
    assert seen == {"holder": True, "main": False}


def test_asyncio_tasks_are_isolated() -> None:
    async def main() -> tuple[bool, bool, bool]:
        entered = asyncio.Event()
        release = asyncio.Event()

        async def a() -> bool:
            with allow_scalar():
                entered.set()
                await release.wait()
                return scalar_allowed()

        async def b() -> bool:
            await entered.wait()
            seen = scalar_allowed()  # while task a sits inside allow_scalar
            release.set()
            return seen

        ra, rb = await asyncio.gather(a(), b())
        return ra, rb, scalar_allowed()

    assert asyncio.run(main()) == (True, False, False)


def test_asyncio_task_inherits_creator_and_does_not_leak_back() -> None:
    async def child() -> bool:
        inherited = scalar_allowed()
        with disallow_scalar(backends=()):
            await asyncio.sleep(0)
        return inherited

    async def leaky() -> None:
        allow_scalar().__enter__()  # never exited: must stay inside the task

    async def main() -> tuple[bool, bool, bool]:
        with allow_scalar():
            inherited = await asyncio.create_task(child())
            still = scalar_allowed()
        await asyncio.create_task(leaky())
        return inherited, still, scalar_allowed()

    assert asyncio.run(main()) == (True, True, False)
