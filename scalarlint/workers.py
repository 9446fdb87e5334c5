"""Running one function over many files in worker processes, with memory in mind.

A whole-tree run spends nearly all its time in two maps over files (the first pass and the
second), and on a 2-core machine the second pass's wall time is its CPU time halved only if
both workers stay busy to the end. What stops them is memory: ``map_by_weight`` keeps at most
a budget of source bytes in the workers at once, largest files first, so two large files never
run side by side while a large one runs beside small ones; only a file over the whole budget
waits for the workers to exit and runs alone in this process.

On a large tree both passes share one pool (``Workers``), started for the first pass before
this process holds the run's indexes: a forked worker starts with every page of its parent
mapped, so a pool forked for the second pass would start each worker at the parent's size
(about 85 MB on numpy's tree, counted again in each worker's RSS) instead of at the size it had
before the first pass (about 40 MB); the workers then import the second pass themselves, on
their first file. A smaller tree leaves the parent small: there the engine stops the first
pool and forks the second from the parent, which imported the second pass while the first ran,
so no worker pays for that import (about 0.2 s of a run on chainer's tree).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

PARALLEL_THRESHOLD = 24  # items; below this a process pool costs more than it saves


def worker_count(jobs: int | None) -> int:
    return jobs if jobs is not None else (os.cpu_count() or 1)


class Workers:
    """The worker processes of one run, started when a map first needs them (a one-file run
    never pays for a pool) and kept for the next map; ``with Workers(jobs) as w:`` stops them."""

    def __init__(self, jobs: int | None) -> None:
        self.count = worker_count(jobs)
        self._pool: Any = None

    def pool(self) -> Any:
        if self._pool is None:
            from concurrent.futures import ProcessPoolExecutor  # here: a one-file run never pays for it

            self._pool = ProcessPoolExecutor(max_workers=self.count)
        return self._pool

    @property
    def started(self) -> bool:
        return self._pool is not None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def map_in_workers(
    func: Callable[[T], R], items: Sequence[T], jobs: int | None | Workers, chunksize: int | None = None, meanwhile: Callable[[], None] | None = None
) -> list[R]:
    """``func`` over ``items`` in worker processes when there are enough; ``meanwhile`` runs in
    this process while the workers work (only then). ``jobs``: a worker count, or the run's
    ``Workers`` to use (and leave running)."""
    with _workers(jobs) as workers:
        if workers.count <= 1 or len(items) < PARALLEL_THRESHOLD:
            return [func(item) for item in items]
        results = workers.pool().map(func, items, chunksize=chunksize or max(1, len(items) // (workers.count * 4)))  # all submitted
        if meanwhile is not None:
            meanwhile()
        return list(results)


@contextmanager
def _workers(jobs: int | None | Workers) -> Iterator[Workers]:
    """The run's ``Workers`` as given, or a pool of ``jobs`` workers for this map alone."""
    if isinstance(jobs, Workers):
        yield jobs
    else:
        with Workers(jobs) as own:
            yield own


def map_by_weight(func: Callable[[T], R], items: Sequence[T], sizes: Sequence[int], jobs: int | None | Workers, budget: int, large: int) -> list[R]:
    """``func`` over ``items`` (results in ``items`` order), one item per task, with at most
    ``budget`` bytes of source in the workers at once (an item waits until it fits). Items over
    ``budget`` run after the workers have exited, one at a time in this process. Items over
    ``large`` bytes go first, largest first (a long task started late would end the run with
    the other worker idle); the rest follow in path order (not largest first: that would start
    every worker on a large file at once)."""
    out: list[Any] = [None] * len(items)
    alone = [n for n, size in enumerate(sizes) if size > budget]
    first = sorted((n for n, size in enumerate(sizes) if large < size <= budget), key=lambda n: -sizes[n])
    rest = [n for n, size in enumerate(sizes) if size <= large]
    order = [*first, *rest]
    with _workers(jobs) as workers:
        if workers.count <= 1 or len(order) < PARALLEL_THRESHOLD:
            for n in order:
                out[n] = func(items[n])
        else:
            for n, result in _within_budget(func, items, order, sizes, workers, budget):
                out[n] = result
        if alone:
            workers.close()  # the workers' memory is handed back before an item that needs it all
    for n in alone:
        out[n] = func(items[n])
    return out


def _within_budget(func: Callable[[T], R], items: Sequence[T], order: list[int], sizes: Sequence[int], workers: Workers, budget: int) -> list[tuple[int, R]]:
    """Keep up to two tasks per worker in flight (one running, one queued, so a worker never
    waits for this process between tasks) whose sizes add up to at most ``budget``
    (``next_to_start`` picks each; a queued task counts as running, so the budget holds)."""
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    waiting = list(order)
    running: dict[Future[R], int] = {}
    done: list[tuple[int, R]] = []
    pool = workers.pool()
    while waiting or running:
        room = budget - sum(sizes[n] for n in running.values())
        while waiting and len(running) < 2 * workers.count:  # one queued per worker: no wait between tasks
            fits = next_to_start([sizes[n] for n in waiting], room, budget)
            if fits is None:
                break
            n = waiting.pop(fits)
            running[pool.submit(func, items[n])] = n
            room -= sizes[n]
        finished, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in finished:
            n = running.pop(future)
            done.append((n, future.result()))
    return done


def next_to_start(waiting: Sequence[int], room: int, budget: int) -> int | None:
    """Which of the waiting items (their sizes, in line) starts next with ``room`` bytes left:
    the first in line when it fits, else the first that fits now and beside the first in line
    too (so a large item is not pushed to the end by a stream of small ones); None to wait."""
    if not waiting:
        return None
    head = waiting[0]
    if head <= room:
        return 0
    return next((k for k, size in enumerate(waiting) if size <= room and size + head <= budget), None)


def map_with_ended_children(
    func: Callable[[T], R],
    items: Sequence[T],
    sizes: Sequence[int],
    seconds: float | None,
    mapped: Callable[[list[T]], list[R]],
    ended: Callable[[T, BaseException], R],
) -> list[R]:
    """``func`` over ``items`` (results in ``items`` order) under a per-item limit of ``seconds``:
    an item large enough to outlast the limit inside a parser, where no signal stops it
    (``time_limit.may_outlast``), runs in a child process of its own that is ended at the limit
    (``time_limit.run_ended_at``; ``ended(item, why)`` stands for its result then); the rest go
    to ``mapped`` (a map over the workers or this process, where the alarm holds the limit)."""
    from scalarlint.time_limit import may_outlast, run_ended_at

    alone = {n for n, size in enumerate(sizes) if may_outlast(size, seconds)}
    if not alone:
        return mapped(list(items))
    rest = [n for n in range(len(items)) if n not in alone]
    out: list[Any] = [None] * len(items)
    for n, result in zip(rest, mapped([items[n] for n in rest])):
        out[n] = result
    for n in sorted(alone):
        found = run_ended_at(func, items[n], seconds)  # type: ignore[arg-type]
        out[n] = ended(items[n], found) if isinstance(found, BaseException) else found
    return out
