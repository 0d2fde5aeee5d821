"""IDA* on several cores (kamicp.search.parallel) against the BFS oracle.

Every iteration is split from the first moment (``split_after=0``), so the frontier, the
workers' answers and pass 2 are exercised even on small boards; one property also makes
every task give way at once, so that tasks are split again and again below the frontier.
Same optimum as BFS, every solution replays, one move fewer is refuted.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import re
import signal
import threading
import time
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import from_edges
from kamicp.procs.pool import Throttle, start_pool, stop_pool
from kamicp.search import checks as checks_module
from kamicp.search import ida as ida_module
from kamicp.search import idastar as idastar_module
from kamicp.search import parallel
from kamicp.search import workers as workers_module
from kamicp.search.bfs import bfs
from kamicp.search.checks import AUTO
from kamicp.search.ida import Ida, IdaOptions
from kamicp.search.parallel import PARALLEL, parallel_idastar
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve
from tests.search.test_checks import NINE
from tests.strategies import oracle, region_graphs

FINALS = st.none() | st.integers(0, 7)


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def soon(seconds: float = 60) -> float:
    """A deadline far above what these boards need: a bug shows as a failure, not a hang."""
    return time.monotonic() + seconds


def check_against_bfs(g, final, seconds: float = 60, **options):
    ref = oracle(g, final)
    deadline = soon(seconds)
    out = parallel_idastar(
        g,
        final_colour=final,
        deadline=deadline,
        options=replace(PARALLEL, split_after=0.0, **options),
    )
    assert out.complete
    if ref.moves is None:
        assert out.moves is None
        return
    opt = len(ref.moves)
    assert len(out.moves) == opt == out.lower_bound
    rules.verify_solution(g, out.moves, final)
    if opt:
        below = parallel_idastar(
            g,
            final_colour=final,
            max_moves=opt - 1,
            deadline=soon(),
            options=replace(PARALLEL, split_after=0.0, **options),
        )
        assert below.complete and below.moves is None and below.lower_bound >= opt


@PROPERTY
@given(region_graphs(max_cells=20, max_colours=4), FINALS)
def test_same_optimum_as_bfs(g, choice):
    check_against_bfs(g, None if choice is None else choice % g.k)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=20, max_colours=4, rules=("free",)), FINALS)
def test_same_optimum_with_tetrapod_checks(g, choice):
    # the parent's levels and the workers' tasks (three moves deep or more) get them
    check_against_bfs(g, None if choice is None else choice % g.k, tetrapod_depth=4)


def test_the_workers_ask_the_tetrapods_of_the_starts_children(monkeypatch):
    # the 9-region board of test_search: the tetrapod check cuts children of the start
    # that the tripod check leaves; with workers, they ask both checks of those children
    colour = [1, 3, 1, 2, 3, 0, 2, 0, 0]
    edges = [(0, 1), (0, 7), (1, 2), (1, 7), (2, 3), (3, 4), (4, 5), (4, 8), (5, 6), (6, 7)]
    g = from_edges(colour, edges, k=4)
    kept = []
    real = parallel.SplitIda.kept_tetrapods

    def spy(self, key, budget, value, seconds):
        kept.append(value > budget)
        return real(self, key, budget, value, seconds)

    here = []  # tetrapod levels computed in this process (the workers' calls are theirs)
    computed = checks_module.tetrapods_bound

    def counted(*args, **kwargs):
        if not kwargs.get("cached_only"):
            here.append(args)
        return computed(*args, **kwargs)

    monkeypatch.setattr(parallel.SplitIda, "kept_tetrapods", spy)
    monkeypatch.setattr(checks_module, "tetrapods_bound", counted)
    monkeypatch.setattr(ida_module, "tetrapods_bound", counted)
    bounds.forget_cached_bounds()  # the start's tetrapods not cached: threshold 4, not 5
    out = parallel_idastar(
        g, deadline=soon(), options=replace(PARALLEL, split_after=0.0, tetrapod_depth=1)
    )
    assert out.complete and len(out.moves) == len(bfs(g).moves) == 5
    rules.verify_solution(g, out.moves)
    assert any(kept) and not here  # the workers' values, some of them cuts


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=20, max_colours=4, rules=("free",)), FINALS)
def test_same_optimum_with_checks_rented_in_the_workers(g, choice):
    # AUTO: the tasks are the start's children, and every rental in the workers (forked
    # after the patch) falls due at once, so that cuts unwind the workers' searches
    with mock.patch.object(Ida, "rent_after", lambda self: 0.0):
        check_against_bfs(g, None if choice is None else choice % g.k, tetrapod_depth=AUTO)


def settle_and_give_way(self):
    """A worker's tick that has every task give way at once, its rented state checked first
    (as when a worker is idle)."""
    self.settle_task_state()
    raise workers_module.GiveWay


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=20, max_colours=4, rules=("free",)), FINALS)
def test_same_optimum_when_rented_tasks_give_way(monkeypatch, g, choice):
    # every task gives way at its first state, so the parent expands every state through the
    # pool (about half a millisecond each): a 12-region board can take over a minute, so the
    # hang guard is 300 s here
    monkeypatch.setattr(workers_module.Worker, "tick", settle_and_give_way)
    final = None if choice is None else choice % g.k
    check_against_bfs(g, final, seconds=300, tetrapod_depth=AUTO)


def test_with_auto_the_workers_rent_the_checks_of_the_starts_children(monkeypatch):
    # NINE (tests/search/test_checks.py): with AUTO the tasks are the start's children, no check is
    # asked up front, and the workers' rented checks (all due at once) cut some of them; the
    # parent counts them; a depth given up front asks its checks here, before the split
    g = from_edges(*NINE, k=4)
    depths = []
    collect = parallel.SplitIda.collect

    def spy(self, task, depth):
        tasks = collect(self, task, depth)
        if not task[0] and tasks:
            depths.append((depth, self.rents_in_workers(tasks, depth)))
        return tasks

    monkeypatch.setattr(parallel.SplitIda, "collect", spy)
    monkeypatch.setattr(Ida, "rent_after", lambda self: 0.0)
    runs = {}
    for depth in (AUTO, 0):
        bounds.forget_cached_bounds()
        ida = parallel.SplitIda(g, None, None, soon())
        ida.configure(IdaOptions(tripod_after=0.0, check_ratio=0.0, tetrapod_depth=depth))
        ida.split_after = 0.0
        try:
            out = ida.run(None)
        finally:
            # as parallel_idastar does: the workers drop their jobs first (quiet); without
            # it, terminate can hang for good, its task handler waiting for the result
            # queue's lock, held by a worker killed while it answered
            ida.quiet()
            stop_pool(ida.pool, ida.worker_processes)
        assert len(out.moves) == len(bfs(g).moves) == 5
        rules.verify_solution(g, out.moves)
        runs[depth] = (list(depths), ida.tetrapod_tally())
        depths.clear()
    rented, checks = runs[AUTO]
    assert rented and all(entry == (1, True) for entry in rented)
    assert checks[0] > checks[1] > 0
    plain, none = runs[0]
    assert plain and all(not rents for _, rents in plain) and none[0] == 0


def always_give_way(self):
    """A worker's tick that splits every task it reaches (the workers are forked after the
    patch, so they run it): the whole search is then the parent's passes."""
    raise workers_module.GiveWay


@pytest.fixture
def splits(monkeypatch):
    """Every task gives way at once; counts the tasks split again."""
    monkeypatch.setattr(workers_module.Worker, "tick", always_give_way)
    count = []
    collect = parallel.SplitIda.collect

    def counted(self, task, depth):
        if task[0]:  # a task's state, not the start
            count.append(task)
        return collect(self, task, depth)

    monkeypatch.setattr(parallel.SplitIda, "collect", counted)
    return count


def test_tasks_split_below_the_frontier(splits):
    # a path of 9 nodes in 3 colours: optimum 4, deep enough for tasks below the frontier
    g = from_edges([0, 1, 2, 0, 1, 2, 0, 1, 2], [(i, i + 1) for i in range(8)])
    ref = bfs(g)
    out = parallel_idastar(g, deadline=soon(), options=replace(PARALLEL, split_after=0.0))
    assert out.complete and len(out.moves) == len(ref.moves)
    rules.verify_solution(g, out.moves)
    assert splits  # the give-way path ran


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(region_graphs(max_cells=20, max_colours=4, rules=("free",)), FINALS)
def test_same_optimum_when_tasks_split_again(monkeypatch, g, choice):
    monkeypatch.setattr(workers_module.Worker, "tick", always_give_way)
    check_against_bfs(g, None if choice is None else choice % g.k)


def test_limits_claim_only_what_is_proved():
    g = from_edges([0, 1, 2, 0, 1, 2, 0, 1, 2, 0], [(i, i + 1) for i in range(9)])
    opt = len(bfs(g).moves)
    for out in (
        parallel_idastar(
            g, deadline=time.monotonic() - 1, options=replace(PARALLEL, split_after=0.0)
        ),
        parallel_idastar(g, node_limit=3, options=replace(PARALLEL, split_after=0.0)),
    ):
        assert out.lower_bound <= opt
        if out.moves is not None:
            rules.verify_solution(g, out.moves)
            assert not out.complete or len(out.moves) == opt


def test_solve_passes_workers_to_idastar(monkeypatch):
    g = from_edges([0, 1, 2, 1, 0, 2, 1, 0], [(i, i + 1) for i in range(7)])
    seen = []
    real = idastar_module.parallel_idastar

    def spy(*args, **kwargs):
        seen.append((kwargs["options"].workers, kwargs["options"].tetrapod_depth))
        return real(*args, **kwargs)

    monkeypatch.setattr(idastar_module, "parallel_idastar", spy)
    r = solve(g, "idastar", SolveOptions(workers=2, tetrapod_depth=1))
    one = solve(g, "idastar")
    assert r.status == one.status == "optimal" and r.moves == one.moves
    assert seen == [(2, 1)]


def _until_stopped(seconds: float) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if workers_module.SHARED.stopping[0].value:
            return "stopped"
        time.sleep(0.01)
    return "ran out"


_STARTED: list = []  # [a shared count of the jobs begun]
_BUSY: list = []  # [the process id of the last worker to begin a job]


def _sleep_deaf(seconds: float) -> None:
    """A job deaf to the stop flag."""
    with _STARTED[0].get_lock():
        _STARTED[0].value += 1
        if _BUSY:
            _BUSY[0].value = os.getpid()
    time.sleep(seconds)


def _fed_search(pool, workers, limit: int, function, jobs: list):
    """A bare search whose throttle has handed ``function(job)`` for each job to the pool
    (at most ``limit`` at a time), each tagged with its index."""
    search = parallel.SplitIda.__new__(parallel.SplitIda)
    search.jobs = Throttle(pool, limit, workers)
    for i, job in enumerate(jobs):
        search.jobs.submit(function, job, i)
    search.jobs.feed()
    return search


def test_quiet_stops_waiting_for_the_jobs_of_a_worker_that_died(monkeypatch):
    # a SIGTERM to the whole process group (``timeout``, a batch system) kills the workers
    # at once: their jobs never answer, and quieting must not wait QUIET_SECONDS for them
    monkeypatch.setattr(parallel, "QUIET_SECONDS", 30.0)
    workers_module.new_flag(workers_module.SHARED.stopping)
    _STARTED[:] = [mp.get_context("fork").Value("i", 0)]  # before the fork: shared
    pool, workers = start_pool(2)
    assert len(workers) == 2
    try:
        search = _fed_search(pool, workers, 2, _sleep_deaf, [60.0, 60.0])
        while _STARTED[0].value < 2:
            time.sleep(0.01)
        for worker in workers:
            os.kill(worker.pid, signal.SIGKILL)
        began = time.monotonic()
        search.quiet()
        assert time.monotonic() - began < 30.0
        with pytest.raises(parallel.WorkerLost, match="SIGKILL: killed from outside"):
            search.jobs.next(feed=False)
    finally:
        stop_pool(pool, workers)


def test_the_pool_stops_when_an_idle_worker_was_killed(monkeypatch):
    # an idle worker waits for a job holding the job queue's lock: killed then, it holds it
    # for ever; the search must still end, say how, and stop the pool
    monkeypatch.setattr(parallel, "QUIET_SECONDS", 30.0)
    workers_module.new_flag(workers_module.SHARED.stopping)
    _STARTED[:] = [mp.get_context("fork").Value("i", 0)]
    _BUSY[:] = [mp.get_context("fork").Value("i", 0)]
    pool, workers = start_pool(2)
    search = _fed_search(pool, workers, 2, _sleep_deaf, [60.0])
    while _STARTED[0].value < 1:
        time.sleep(0.01)
    time.sleep(0.2)  # the other worker is waiting for a job
    busy = _BUSY[0].value
    idle = [worker for worker in workers if worker.pid != busy]
    assert len(idle) == 1
    os.kill(idle[0].pid, signal.SIGKILL)
    with pytest.raises(parallel.WorkerLost, match="SIGKILL: killed from outside"):
        search.jobs.next(feed=False, timeout=30.0)
    search.quiet()
    stopping = threading.Thread(target=stop_pool, args=(pool, workers), daemon=True)
    stopping.start()
    stopping.join(30.0)
    assert not stopping.is_alive()
    assert all(worker.exitcode is not None for worker in workers)


def test_quiet_has_every_job_in_the_pool_answer_before_the_pool_stops(monkeypatch):
    # the search first has the workers drop their jobs and waits for every answer, so that
    # what the dropped tasks proved reaches the journal before the workers are stopped
    monkeypatch.setattr(parallel, "QUIET_SECONDS", 20.0)
    workers_module.new_flag(workers_module.SHARED.stopping)  # before the fork: the workers share it
    pool, workers = start_pool(2)
    try:
        search = _fed_search(pool, workers, 3, _until_stopped, [60.0] * 5)
        assert search.jobs.in_pool == 3
        began = time.monotonic()
        search.quiet()
        assert search.jobs.in_pool == 0 and len(search.jobs.waiting) == 2  # none fed after
        assert time.monotonic() - began < 20.0
    finally:
        stop_pool(pool, workers)
    assert search.jobs.next(feed=False, timeout=0.1) is None  # nothing left to answer


def test_status_lines_count_the_workers_checks_and_tasks(monkeypatch):
    # a path of 9 nodes in 3 colours (optimum 6), split at once, a line whenever one is due
    # (STATUS_EVERY 0): the workers check the start's children, then answer the tasks; the
    # lines count both, in each iteration, up to their totals (the answer that ends the
    # iteration included: it may be the first); the answer is the same
    g = from_edges([0, 1, 2, 0, 1, 2, 0, 1, 2], [(i, i + 1) for i in range(8)])
    monkeypatch.setattr(ida_module, "STATUS_EVERY", 0.0)
    lines: list[str] = []
    bounds.forget_cached_bounds()
    out = parallel_idastar(
        g,
        deadline=soon(),
        options=replace(PARALLEL, split_after=0.0, tetrapod_depth=1, on_status=lines.append),
    )
    assert out.complete and len(out.moves) == len(bfs(g).moves) == 6
    assert all(line.startswith("searching ") for line in lines)
    checks, answered = {}, {}  # threshold -> counts in the order told (each iteration anew)
    for line in lines:
        threshold = int(line.split()[1])
        if m := re.search(r"checks at depth 1: (\d+) of (\d+) done", line):
            checks.setdefault(threshold, []).append((int(m[1]), int(m[2])))
        if m := re.search(r"tasks (\d+) answered \((\d+) split\), (\d+) to go", line):
            answered.setdefault(threshold, []).append(int(m[1]))
    assert checks and answered
    for counts in checks.values():
        assert counts == sorted(counts) and all(done <= of for done, of in counts)
        assert len({of for _, of in counts}) == 1
    assert all(counts == sorted(counts) for counts in answered.values())
    assert max(answered) == max(checks) == 6  # up to the iteration that finds the solution
    assert all(counts[0] == 0 for counts in answered.values())  # told before any answer
