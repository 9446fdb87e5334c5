"""Running one function over many files in worker processes, with memory in mind.

A whole-tree run spends nearly all its time in two maps over files (the first pass and the
second), and on a 2-core machine the second pass's wall time is its CPU time halved only if
both workers stay busy to the end. What stops them is memory: a file's libcst tree and its
analysis take about 1 MB per 1,000 bytes of source, so two of the largest files side by side
would add up past what a run may hold. ``map_by_weight`` therefore sorts files into three
classes by size: *light* files run freely; at most one *heavy* file is in the workers at a time
(beside light ones, so the other worker keeps working); a *solo* file runs in this process
after the workers have exited, alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

PARALLEL_THRESHOLD = 24  # items; below this a process pool costs more than it saves


def worker_count(jobs: int | None) -> int:
    return jobs if jobs is not None else (os.cpu_count() or 1)


def map_in_workers(
    func: Callable[[T], R], items: Sequence[T], jobs: int | None, chunksize: int | None = None, meanwhile: Callable[[], None] | None = None
) -> list[R]:
    """``func`` over ``items`` in worker processes when there are enough; ``meanwhile`` runs in
    this process while the workers work (only then)."""
    workers = worker_count(jobs)
    if workers <= 1 or len(items) < PARALLEL_THRESHOLD:
        return [func(item) for item in items]
    from concurrent.futures import ProcessPoolExecutor  # here: a one-file run never pays for it

    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = pool.map(func, items, chunksize=chunksize or max(1, len(items) // (workers * 4)))  # all submitted
        if meanwhile is not None:
            meanwhile()
        return list(results)


def map_by_weight(func: Callable[[T], R], items: Sequence[T], sizes: Sequence[int], jobs: int | None, budget: int, large: int) -> list[R]:
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
    workers = worker_count(jobs)
    if workers <= 1 or len(order) < PARALLEL_THRESHOLD:
        for n in order:
            out[n] = func(items[n])
    else:
        for n, result in _within_budget(func, items, order, sizes, workers, budget):
            out[n] = result
    for n in alone:
        out[n] = func(items[n])
    return out


def _within_budget(func: Callable[[T], R], items: Sequence[T], order: list[int], sizes: Sequence[int], workers: int, budget: int) -> list[tuple[int, R]]:
    """Keep up to two tasks per worker in flight (one running, one queued, so a worker never
    waits for this process between tasks) whose sizes add up to at most ``budget``
    (``next_to_start`` picks each; a queued task counts as running, so the budget holds)."""
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    waiting = list(order)
    running: dict[Future[R], int] = {}
    done: list[tuple[int, R]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        while waiting or running:
            room = budget - sum(sizes[n] for n in running.values())
            while waiting and len(running) < 2 * workers:  # one queued per worker: no wait between tasks
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
