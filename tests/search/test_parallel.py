"""IDA* on several cores (kamicp.search.parallel) against the BFS oracle.

Every iteration is split from the first moment (``split_after=0``), so the frontier, the
workers' answers and pass 2 are exercised even on small boards; one property also makes
every task give way at once, so that tasks are split again and again below the frontier.
Same optimum as BFS, every solution replays, one move fewer is refuted.
"""

from __future__ import annotations

import os
import re
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
from kamicp.search.astar import INF
from kamicp.search.bfs import bfs
from kamicp.search.checks import AUTO, CHECK_RATIO
from kamicp.search.ida import Ida, IdaOptions
from kamicp.search.parallel import PARALLEL, parallel_idastar
from kamicp.search.rental import rent_time
from kamicp.solving.options import SolveOptions
from kamicp.solving.solve import solve
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
    from tests.search.test_checks import NINE

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


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
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


def test_portfolio_backends_get_one_process_each(monkeypatch):
    # the portfolio already runs one process a backend: an idastar pool inside it would put
    # three searches on two cores
    from kamicp.solving import solve as driver

    g = from_edges([0, 1, 2, 1, 0, 2, 1, 0], [(i, i + 1) for i in range(7)])
    seen = []

    def spy(g, options, start_bound=0):
        seen.append((options.workers, options.strategy, options.tetrapod_depth))
        return solve(g, "idastar")

    monkeypatch.setattr(driver, "solve_portfolio", spy)
    options = SolveOptions(workers=2, strategy="up", tetrapod_depth=2)
    assert solve(g, "portfolio", options).status == "optimal"
    assert seen == [(1, "up", 2)]  # the sat backend's strategy, the idastar backend's depth


def _twice(x: int) -> int:
    if x < 0:
        raise ValueError(x)
    return 2 * x


def test_throttle_answers_every_job_with_at_most_limit_in_the_pool():
    pool, workers = start_pool(2)
    try:
        jobs = Throttle(pool, 3, workers)
        for x in range(20):
            jobs.submit(_twice, x, f"tag{x}")
        answers = {}
        while jobs.pending():
            jobs.feed()
            assert jobs.in_pool <= 3
            tag, answer = jobs.next()
            answers[tag] = answer
        assert answers == {f"tag{x}": 2 * x for x in range(20)}
        jobs.submit(_twice, -1, "bad")
        with pytest.raises(ValueError):  # a job's own error, not a lost worker
            jobs.next()
    finally:
        stop_pool(pool, workers)


class _Flag:
    value = False  # no worker waits (tasks never give way), the search is not over


@pytest.mark.parametrize("nodes_limit, checks", [(1_000, 1), (0, 0)])
def test_a_tasks_state_is_checked_first_only_where_checks_are_cheap(
    monkeypatch, nodes_limit, checks
):
    # a task two moves deep whose parent's depth was checked gets the tripod check first on
    # boards of at most FORCED_NODES regions; above, the worker's own rule decides, which
    # needs MIN_SAMPLES unchecked states of a depth before it checks there (Threegrid5)
    import os

    from kamicp.bounds import contract

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
    from kamicp.bounds import contract

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
    import os

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
    import os

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
    # at once: their jobs never answer, and quieting waited QUIET_SECONDS for them
    import multiprocessing as mp
    import os
    import signal

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
    # an idle worker waits for a job holding the job queue's lock: killed then, it held it
    # for ever, and multiprocessing.Pool's terminate waited for it for ever (timeout 7 on
    # Bud3 with two workers hung 2 runs in 12); the search must end, and say how
    import multiprocessing as mp
    import os
    import signal
    import threading

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


def _watched(g):
    """A parallel search whose status line is read (its iteration begun now, as with AUTO)
    and a worker beside it, in this process: the tallies they share are the fork's."""
    ida = parallel.SplitIda(g, None, None, soon())
    ida.configure(IdaOptions(tripod_after=0.0, check_ratio=CHECK_RATIO, tetrapod_depth=AUTO))
    ida.iteration_began = time.monotonic()
    return ida, workers_module.Worker(g, None, None, soon())


def test_the_status_counts_the_workers_tetrapod_checks_as_they_are_made(monkeypatch):
    # a worker's checks reach the shared tally as it makes them, and the parent's status
    # line adds them to its own at once (it counted them only once their task answered:
    # on the deep boards a task runs for minutes, and the line said 0 checks meanwhile)
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
    # the same for the tripod checks, which the line counts per iteration: the workers'
    # were never counted (Bud6's lines said "tripod checks 0 (0 cut)" throughout)
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


def _pool_then_wait(conn) -> None:
    _, workers = start_pool(2)
    conn.send([worker.pid for worker in workers])
    time.sleep(60)


def _gone(pid: int) -> bool:
    """Is the process gone (or dead, not reaped yet)?"""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in "ZX"
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux's /proc")
def test_idle_workers_die_with_a_parent_killed_outright():
    # a portfolio stops a backend with SIGKILL; the idle workers of its pool waited for jobs
    # for ever (the executor's workers hold their job queue's write end: no end of file)
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    mine, theirs = ctx.Pipe()
    parent = ctx.Process(target=_pool_then_wait, args=(theirs,))
    parent.start()
    assert mine.poll(30)
    workers = mine.recv()
    assert len(workers) == 2 and not any(_gone(pid) for pid in workers)
    parent.kill()
    parent.join()
    end = time.monotonic() + 10
    while not all(_gone(pid) for pid in workers) and time.monotonic() < end:
        time.sleep(0.05)
    assert all(_gone(pid) for pid in workers)
