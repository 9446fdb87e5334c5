"""The second pass's worker scheduling: results in order, a memory budget kept, the largest
files alone in this process."""

from __future__ import annotations

import os

from scalarlint.workers import PARALLEL_THRESHOLD, Workers, map_by_weight, map_in_workers, next_to_start


def _pid_and_value(value: int) -> tuple[int, int]:
    return os.getpid(), value * 10


def test_results_come_back_in_item_order_with_workers() -> None:
    items = list(range(PARALLEL_THRESHOLD + 10))
    sizes = [(n * 37) % 100 for n in items]  # large ones scattered: they start first
    out = map_by_weight(_pid_and_value, items, sizes, jobs=2, budget=150, large=60)
    assert [value for _, value in out] == [n * 10 for n in items]
    assert any(pid != os.getpid() for pid, _ in out)  # the pool did the work


def test_items_over_the_budget_run_in_this_process_after_the_workers() -> None:
    items = list(range(PARALLEL_THRESHOLD + 2))
    sizes = [10] * len(items)
    sizes[3] = 500
    out = map_by_weight(_pid_and_value, items, sizes, jobs=2, budget=100, large=50)
    assert out[3] == (os.getpid(), 30)
    assert all(pid != os.getpid() for n, (pid, _) in enumerate(out) if n != 3)


def test_one_worker_runs_everything_here_in_order() -> None:
    out = map_by_weight(_pid_and_value, [1, 2, 3], [5, 500, 5], jobs=1, budget=100, large=50)
    assert out == [(os.getpid(), 10), (os.getpid(), 20), (os.getpid(), 30)]


def test_next_to_start_takes_the_first_in_line_when_it_fits() -> None:
    assert next_to_start([80, 10], room=100, budget=100) == 0


def test_next_to_start_lets_a_small_item_pass_only_if_it_leaves_room_for_the_first() -> None:
    # 90 waits for a running task; 30 would fit now but not beside 90 later; 10 does both
    assert next_to_start([90, 30, 10], room=40, budget=100) == 2
    assert next_to_start([90, 30], room=40, budget=100) is None
    assert next_to_start([], room=100, budget=100) is None


def test_maps_on_one_workers_share_its_processes_until_it_closes() -> None:
    items = list(range(PARALLEL_THRESHOLD + 4))
    with Workers(2) as workers:
        first = {pid for pid, _ in map_in_workers(_pid_and_value, items, workers)}
        pool = workers.pool()
        second = {pid for pid, _ in map_by_weight(_pid_and_value, items, [1] * len(items), workers, budget=100, large=50)}
        assert os.getpid() not in first | second
        # the same processes: no second pool was forked (which of the two workers takes the
        # items of one map is the scheduler's choice, so the maps' pids need not be equal)
        assert workers.pool() is pool and len(first | second) <= workers.count
        workers.close()
        third = {pid for pid, _ in map_in_workers(_pid_and_value, items, workers)}
    assert not third & first  # a closed pool starts anew on next use


def test_an_item_over_the_budget_stops_the_shared_workers_before_it_runs_here() -> None:
    items = list(range(PARALLEL_THRESHOLD + 2))
    sizes = [10] * len(items)
    sizes[0] = 500
    with Workers(2) as workers:
        out = map_by_weight(_pid_and_value, items, sizes, workers, budget=100, large=50)
        assert not workers.started
    assert out[0] == (os.getpid(), 0)
