"""The parallel search's workers (kamicp.search.workers): which task states they check, when
they exit, and the tallies they share with the parent's status line.
"""

from __future__ import annotations

import os
import time
from unittest import mock

import pytest

from kamicp.bounds import contract
from kamicp.game.regions import from_edges
from kamicp.search import ida as ida_module
from kamicp.search import parallel
from kamicp.search import workers as workers_module
from kamicp.search.astar import INF
from kamicp.search.bfs import bfs
from kamicp.search.checks import AUTO, CHECK_RATIO
from kamicp.search.ida import Ida, IdaOptions
from kamicp.search.rental import rent_time


def soon(seconds: float = 60) -> float:
    """A deadline far above what these boards need: a bug shows as a failure, not a hang."""
    return time.monotonic() + seconds


class _Flag:
    value = False  # no worker waits (tasks never give way), the search is not over


@pytest.mark.parametrize("nodes_limit, checks", [(1_000, 1), (0, 0)])
def test_a_tasks_state_is_checked_first_only_where_checks_are_cheap(
    monkeypatch, nodes_limit, checks
):
    # a task two moves deep whose parent's depth was checked gets the tripod check first on
    # boards of at most FORCED_NODES regions; above, the worker's own rule decides, which
    # needs MIN_SAMPLES unchecked states of a depth before it checks there (Threegrid5)
    monkeypatch.setattr(ida_module, "FORCED_NODES", nodes_limit)
    g = from_edges([0, 1, 2, 0, 1, 2, 0, 1], [(i, i + 1) for i in range(7)])
    w = workers_module.Worker(g, None, None, soon())
    w.tripod_after, w.threshold, w.parent = 0.0, -1, os.getppid()
    w.forced_depth = 0  # as start_worker sets it: the parallel search's own rule
    monkeypatch.setattr(workers_module.SHARED, "search", [w])
    monkeypatch.setattr(workers_module.SHARED, "idle", [_Flag()])
    monkeypatch.setattr(workers_module.SHARED, "stopping", [_Flag()])
    cur = contract(g)
    budget, threshold = 5, 7  # the task's state is 7 - 5 = 2 moves deep
    job = (b"", cur, 0, budget, None, 2, threshold, INF, 1, False)
    value, _, _, _ = workers_module.search_task(job)
    assert w.cuts.get(2, [0, 0])[0] == checks  # the task's state is the only one that deep
    assert (value <= budget) == (len(bfs(g).moves) <= budget)


@pytest.mark.parametrize("below", [True, False])
def test_a_task_below_a_miss_is_checked_first_and_its_split_says_it_missed(monkeypatch, below):
    # with AUTO, a task two moves deep split from a task whose state's check missed (below)
    # gets its own check before its first child; otherwise it is rented, and checked only
    # when it gives way. Either way the check misses, and the split's answer says so, so
    # that the tasks it is split into are below a miss in turn.
    g = from_edges([i % 3 for i in range(8)], [(i, i + 1) for i in range(7)], k=3)
    w = workers_module.Worker(g, None, None, soon())
    w.configure(IdaOptions(tripod_after=0.0, check_ratio=CHECK_RATIO, tetrapod_depth=AUTO))
    monkeypatch.setattr(workers_module.SHARED, "search", [w])
    asked, seen = [], []
    monkeypatch.setattr(Ida, "tetrapod_check", lambda self, c, k, b: asked.append(b) or 0)
    monkeypatch.setattr(Ida, "rent_after", lambda self: 1e9)

    def tick(self):  # the task gives way at its first child, as to an idle worker
        seen.append(len(asked))
        if len(seen) == 2:
            self.settle_task_state()
            raise workers_module.GiveWay

    monkeypatch.setattr(workers_module.Worker, "tick", tick)
    budget, threshold = 6, 8  # the task's state is 2 moves deep
    job = (b"", contract(g), 0, budget, None, 2, threshold, INF, 1, below)
    value, path, _, _ = workers_module.search_task(job)
    assert value == "split" and path is True
    assert seen == [0, 1 if below else 0] and asked == [budget]


def test_a_worker_whose_parent_is_gone_exits(monkeypatch):
    # a portfolio stops a backend with SIGKILL, which leaves its pool's workers orphaned:
    # every tick of a worker (not only one that gives way) ends it when its parent is gone
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    w = workers_module.Worker(g, None, None, soon())
    w.began = time.monotonic()
    monkeypatch.setattr(workers_module.SHARED, "idle", [_Flag()])
    monkeypatch.setattr(workers_module.SHARED, "stopping", [_Flag()])
    exits = []
    monkeypatch.setattr(workers_module.os, "_exit", exits.append)
    w.parent = os.getppid()
    w.tick()
    assert exits == []
    w.parent = os.getppid() + 1  # not this process's parent
    w.tick()
    assert exits == [0]


def _watched(g):
    """A parallel search whose status line is read (its iteration begun now, as with AUTO)
    and a worker beside it, in this process: the tallies they share are the fork's."""
    ida = parallel.SplitIda(g, None, None, soon())
    ida.configure(IdaOptions(tripod_after=0.0, check_ratio=CHECK_RATIO, tetrapod_depth=AUTO))
    ida.iteration_began = time.monotonic()
    return ida, workers_module.Worker(g, None, None, soon())


def test_the_status_counts_the_workers_tetrapod_checks_as_they_are_made(monkeypatch):
    # a worker's checks reach the shared tally as it makes them, and the parent's status
    # line adds them to its own at once, not when their task answers (on deep boards a
    # task runs for minutes)
    g = from_edges([0, 1, 2, 0, 1, 2, 0, 1, 2], [(i, i + 1) for i in range(8)])
    monkeypatch.setattr(workers_module.SHARED, "rents", [])
    ida, worker = _watched(g)
    ida.tetrapod_checks = [2, 1, 3.0]  # this process's own
    workers_module.new_tally(workers_module.SHARED.rents)  # as when the pool starts
    worker.kept_tetrapods(b"a", 5, 7, 4.0)  # a check that cuts (7 > 5)
    assert "tetrapod checks 2 (1 cut, 3 s)" in ida.status()  # no pool: not yet counted
    ida.pool = mock.Mock()
    assert "tetrapod checks 3 (2 cut, 7 s)" in ida.status()
    worker.kept_tetrapods(b"b", 5, 5, 1.0)  # one that does not
    assert "tetrapod checks 4 (2 cut, 8 s)" in ida.status()
    assert ida.rent_statistics() == (4, 2, 8.0)
    assert worker.rent_statistics() == (2, 1, 5.0)  # the workers time from theirs


def test_the_status_counts_the_workers_tripod_checks_of_the_iteration(monkeypatch):
    # the same for the tripod checks, which the line counts per iteration, the workers'
    # included
    g = from_edges([0, 1, 2, 0, 1, 2, 0, 1, 2], [(i, i + 1) for i in range(8)])
    monkeypatch.setattr(workers_module.SHARED, "tripods", [])
    ida, worker = _watched(g)
    ida.checked(b"p", 4, 5, 0.1, 1)  # the parent's own, which cuts
    workers_module.new_tally(workers_module.SHARED.tripods, 2)  # as when the pool starts
    worker.checked(b"a", 4, 3, 0.1, 2)
    worker.checked(b"b", 4, 6, 0.1, 2)
    assert "tripod checks 1 (1 cut)" in ida.status()  # no pool: not yet counted
    ida.pool = mock.Mock()
    assert "tripod checks 3 (2 cut)" in ida.status()
    workers_module.new_tally(workers_module.SHARED.tripods, 2)  # the next iteration (split) starts
    assert "tripod checks 1 (1 cut)" in ida.status()


def test_the_status_counts_the_workers_states_as_they_go(monkeypatch):
    # a worker sends its states every NODES_SENT and when its task answers; the line adds
    # them to the parent's own at once, and a task's states are counted once, not again
    # when its answer brings them
    g = from_edges([0, 1, 2, 0, 1, 2, 0, 1, 2], [(i, i + 1) for i in range(8)])
    monkeypatch.setattr(workers_module.SHARED, "nodes", [])
    monkeypatch.setattr(workers_module, "NODES_SENT", 10)
    monkeypatch.setattr(workers_module.SHARED, "stopping", [mock.Mock(value=0)])
    monkeypatch.setattr(workers_module.SHARED, "idle", [mock.Mock(value=0)])
    ida, worker = _watched(g)
    ida.nodes = 5  # the parent's own
    workers_module.new_tally(workers_module.SHARED.nodes, 1)  # as when the pool starts
    ida.pool = mock.Mock()
    worker.parent = os.getppid()
    for _ in range(25):
        worker.tick()
    assert "; 25 states;" in ida.status()  # 5 + 20 sent, 5 not yet
    worker.send_nodes()  # as when the task answers
    ida.nodes += 25  # the answer's count
    ida.task_nodes += 25
    assert "; 30 states;" in ida.status()


def test_workers_time_their_rentals_from_every_workers_checks(monkeypatch):
    # a worker whose first task is long must not time its rentals from that task's few
    # checks: each worker adds its checks to a tally shared through the fork, and its rents
    # are timed from the tally (rent_time of it)
    monkeypatch.setattr(workers_module.SHARED, "rents", [])
    workers_module.new_tally(workers_module.SHARED.rents)
    g = from_edges([0, 1, 0], [(0, 1), (1, 2)])
    first, second = (workers_module.Worker(g, None, None, None) for _ in range(2))
    for _ in range(9):
        first.kept_tetrapods(b"k", 5, 7, 0.5)  # nine checks of 0.5 s, each a cut
    second.kept_tetrapods(b"k", 5, 3, 4.0)  # one of 4 s that cuts nothing
    assert second.tetrapod_checks == [1, 0, 4.0]  # its own, for the status
    assert second.rent_statistics() == first.rent_statistics() == (10, 9, 8.5)
    assert second.rent_after() == pytest.approx(rent_time(10, 9, 8.5))
    assert second.rent_after() < rent_time(1, 0, 4.0) / 10
    workers_module.new_tally(workers_module.SHARED.rents)  # a new pool starts from nothing
    assert first.rent_statistics() == (0, 0, 0)
