"""IDA* on several cores: each long iteration is split at a depth, its subtrees searched by
worker processes.

An iteration of :func:`kamicp.search.astar.idastar` that has run :data:`SPLIT_AFTER` seconds on
one core is restarted split (its table of proved bounds kept). The search down to a
*frontier* depth D runs in this process, with the same bounds, restrictions and table as on
one core, and records each state it reaches at depth D as a task instead of searching it
(pass 1). A pool of worker processes searches the tasks with the one-core depth-first
search (each worker keeps its own table and tripod-check policy), and returns for each a
solution within its budget or a proved lower bound above it. The search to depth D is then
run again with those answers in place of the subtrees (pass 2): it computes exactly what the
one-core iteration computes, so the threshold that follows and the first solution found are
proved in the same way (``encodings/bounds.md``, "Parallel IDA*").

D is the least depth from 3 on (at most :data:`MAX_SPLIT_DEPTH`, less than the threshold)
that gives at least :data:`TASKS_PER_WORKER` tasks a worker, so that tasks of very different
sizes still share the cores evenly; a shallower one that already gives that many when the
next level's checks are not affordable (below). A worker whose task runs long while
another waits gives it back to be split again. States above the frontier get the tripod
check at the depths where the workers computed all of them first (the start's children
always; a deeper level when that costs no more than the iteration has run so far; see
:meth:`_SplitIda.affordable`); a task's state gets it in the worker when its parent's depth
was checked and the board has at most :data:`kamicp.search.astar.FORCED_NODES` regions (else the
worker's own rule decides).

With ``tetrapod_depth=AUTO`` the frontier is the start's children instead (where their
tetrapod checks may be rented): each worker rents the checks of its task's state and of the
states below it as one process does (``_Ida.rent``), checks its task's state at once when
asked to give way, and asks the tripod checks of its top levels as one process does; the
passes here rent nothing. A task split from one whose state's check did not cut it is
below a miss, as on one core: its state is checked up front (``_Group.below_miss``).

Pass 1 answers each task with ``budget + 1``, a placeholder; the table it writes is a copy,
thrown away (a placeholder is a lower bound only if its subtree holds no solution).

Cost: pass 1 and pass 2 repeat the states above the frontier (their tripod checks are
cached); tasks are sent pickled, without the cached balls. Measured in BENCHMARKS.md
("Parallel IDA*").

Example::

    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)])
    >>> out = parallel_idastar(g, workers=2, split_after=0.0)
    >>> out.complete, len(out.moves)
    (True, 4)
"""

from __future__ import annotations

import collections
import multiprocessing as mp
import os
import queue
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from kamicp.bounds import UNSOLVABLE, Current, keep_levels_memory, solvable, tetrapods_bound
from kamicp.errors import WorkerLost
from kamicp.game.regions import RegionGraph
from kamicp.procs.isolate import die_with_parent
from kamicp.result import SearchOutcome
from kamicp.search.astar import (
    AUTO_DEPTH,
    CHECK_GUESS,
    CHECK_RATIO,
    DEEPEST_DEPTH,
    TETRAPOD_DEPTH,
    TRIPOD_AFTER,
    _Ida,
    _key,
    _Stop,
    checkable,
    journalled,
    tetrapods_apply,
    tripod_value,
)
from kamicp.search.isomorphs import isomorphic_groups

SPLIT_AFTER = 1.0  # seconds an iteration runs on one core before it is split
TASKS_PER_WORKER = 16  # the frontier is deepened until it has this many tasks a worker
MAX_SPLIT_DEPTH = 3  # nor deeper than this
TASK_SPLIT = 0.2  # a task that has run this long gives way when a worker is idle
QUIET_SECONDS = 10.0  # at most this long, at the end, for the workers to drop their jobs
# A worker adds its states to the status line's shared count every this many (a locked
# add costs about a microsecond, a state about a hundred)
NODES_SENT = 256


def parallel_idastar(
    g: RegionGraph,
    final_colour: int | None = None,
    max_moves: int | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
    *,
    workers: int = 2,
    lower: int | None = None,
    walk_depth: int | None = None,
    tripod_after: float | None = TRIPOD_AFTER,
    check_ratio: float = CHECK_RATIO,
    on_bound: Callable[[int], None] | None = None,
    split_after: float | None = None,
    tetrapod_depth: int | None = TETRAPOD_DEPTH,
    on_status: Callable[[str], None] | None = None,
    journal: str | None = None,
) -> SearchOutcome:
    """:func:`kamicp.search.astar.idastar` with ``workers`` processes; same contract and options.

    ``split_after``: seconds an iteration runs on one core before it is split (0: split
    every iteration, as the tests do; None: :data:`SPLIT_AFTER`). ``node_limit`` is checked
    as the workers' answers come in, so a run may expand a few more states than it.
    """
    if not solvable(g, None, final_colour):
        return SearchOutcome(None, UNSOLVABLE, True, 0)
    ida = _SplitIda(g, final_colour, node_limit, deadline, walk_depth)
    ida.configure(on_bound, tripod_after, check_ratio, tetrapod_depth, on_status)
    if not ida.auto_tetrapods:
        # the top levels have their own rule (prefetch); with AUTO the tasks are the start's
        # children, whose workers check their top levels as one process does
        ida.forced_depth = 0
    ida.workers = workers
    ida.split_after = SPLIT_AFTER if split_after is None else split_after
    try:
        with journalled(ida, journal):
            try:
                return ida.run(max_moves, lower or 0)
            finally:
                if ida.pool is not None:
                    ida.quiet()  # while the journal is open: the dropped tasks' notes too
    finally:
        if ida.pool is not None:
            stop_pool(ida.pool, ida.worker_processes)


class _Soft(Exception):
    """The one-core iteration ran ``split_after`` seconds: split it."""


class _GiveWay(Exception):
    """A worker's task is to be split: another worker is idle."""


class _Group:
    """The tasks a state was split into, and what waits for their answers."""

    def __init__(self, task: tuple | None, up: _Group | None, frontier: int):
        self.task = task  # (key, cur, first, budget, after, depth); None for the start
        self.up = up  # the group the task belongs to
        self.frontier = frontier  # the budget of the tasks below
        self.open = 0  # tasks not answered yet
        # a worker checked the task's state and it was not cut: its tasks are below a miss
        # (with AUTO their checks are made up front, as on one core)
        self.below_miss = False


class _SplitIda(_Ida):
    workers = 2
    split_after = SPLIT_AFTER
    pool: ProcessPoolExecutor | None = None
    worker_processes: Sequence = ()  # the pool's processes, as started (set with the pool)
    soft: float | None = None  # when the one-core iteration gives way to the split
    tasks: dict | None = None  # pass 1: (key, budget) -> task
    answers: dict  # pass 2: (key, budget) -> (value, path or None)
    solved = False  # a worker found a solution
    checked_depth = 0  # the states above the frontier get the tripod check to this depth
    jobs: _Throttle | None = None  # the jobs in the pool
    doing = ""  # what the workers are doing, with counts (status)
    task_nodes = 0  # states expanded by the tasks answered, in ``nodes`` (status)

    def tick(self) -> None:
        super().tick()
        if self.soft is not None and time.monotonic() >= self.soft:
            raise _Soft

    def iterate(self, root: Current, threshold: int) -> int:
        if self.pool is None:
            self.soft = time.monotonic() + self.split_after
            try:
                return super().iterate(root, threshold)
            except _Soft:
                self.path = []  # the table keeps what the iteration proved so far
            finally:
                self.soft = None
            _new_flag(_idle)
            _new_flag(_stopping)
            _new_tally(_rent_tally)
            _new_tally(_tripod_tally, 2)
            _new_tally(_node_tally, 1)
            if self.journal is not None:
                self.journal.commit()  # the workers are forked with no transaction open
            # each worker a copy of this search (forked), made a worker by _start_worker
            self.pool, self.worker_processes = start_pool(self.workers, _start_worker, (self,))
        return self.split(root, threshold)

    def journalling(self) -> bool:
        # Pass 1's table is written with placeholders, and pass 2 after a solution was found
        # with them too (see frontier): neither is a proved bound.
        return self.tasks is None and not self.solved

    def status(self) -> str:
        line = super().status()
        return f"{line}; {self.doing}" if self.doing else line

    def states_tally(self) -> float:
        """This process's states and, once the pool is up, every worker's as they go (each
        sends its count every NODES_SENT; they were counted only once their task answered,
        and the line said "2 states" for Bud6's first 17 s)."""
        workers = self.workers_tally(_node_tally)
        if workers is None:
            return self.nodes
        return self.nodes - self.task_nodes + workers[0]

    def tripod_tally(self) -> tuple[float, float]:
        """This process's checks of the iteration and, once the pool is up, every
        worker's as they are made (the status line counted none of the workers')."""
        asked, cut = _added(super().tripod_tally(), self.workers_tally(_tripod_tally))
        return asked, cut

    def tetrapod_tally(self) -> tuple[float, float, float]:
        """This process's checks and, once the pool is up, every worker's as they are made
        (the status line counted a task's checks only once the task answered: on the deep
        boards a task runs for minutes)."""
        own = super().tetrapod_tally()
        asked, cut, spent = _added(own, self.workers_tally(_rent_tally))
        return asked, cut, spent

    def workers_tally(self, tally: list) -> tuple | None:
        """What the workers of this search's pool have added to ``tally``, if there is one."""
        return tuple(tally[0][:]) if self.pool is not None and tally else None

    def answer(self, jobs: _Throttle) -> tuple | None:
        """The next job's (tag, answer), or None if none came before ``on_status`` was due
        (told first whenever it is due)."""
        if self.on_status is None:
            return jobs.next()
        self.report_if_due()
        return jobs.next(timeout=max(0.0, self.next_status - time.monotonic()))

    def split(self, root: Current, threshold: int) -> int:
        """One iteration: pass 1 to a frontier, the tasks farmed out (split further where
        one runs long while a worker is idle), pass 2."""
        self.answers, self.solved, self.root = {}, False, root
        _new_tally(_tripod_tally, 2)  # the workers count this iteration's checks afresh
        start = (b"", root, 0, threshold, None, 0)
        depth, self.checked_depth = 1, 0
        tasks = self.collect(start, depth)
        while tasks and not self.rents_in_workers(tasks, depth):
            enough = len(tasks) >= TASKS_PER_WORKER * self.workers
            if depth >= min(MAX_SPLIT_DEPTH, threshold - 1) or (enough and depth >= 3):
                break
            # the states at this depth get their checks in the next pass 1: ask them here
            if self.affordable(tasks, depth):
                self.prefetch(tasks, depth)
                self.doing = ""
                self.checked_depth = depth
            elif enough:
                break
            depth += 1
            tasks = self.collect(start, depth)
        if tasks is None:  # a solution above the frontier (in self.path)
            return len(self.path)
        top = _Group(None, None, threshold - depth)
        if tasks:
            self.farm(top, tasks)
            self.doing = ""
        return self.finish(top)[0]

    def rents_in_workers(self, tasks: list, depth: int) -> bool:
        """With AUTO, are these the tasks? The start's children, when their tetrapod checks
        may be rented: each worker then rents the checks of its task's state and of the
        states below it within AUTO_DEPTH moves, as one process does (``_Ida.rent``), a
        state's check made at once when its task is asked to give way. A deeper frontier
        would leave those states to the passes here, whose subtrees are not searched."""
        return (
            self.auto_tetrapods
            and depth == 1
            and any(checkable(t[1]) and tetrapods_apply(t[1], 1, AUTO_DEPTH) for t in tasks)
        )

    def rent(self, cur: Current, first: int, budget: int, depth: int) -> None:
        """Never here: the passes do not search the subtrees they time; the workers rent."""
        return None

    def collect(self, task: tuple, depth: int) -> list | None:
        """Pass 1 below a task's state: the states ``depth`` moves below it, in the order
        the search meets them; None if a solution lies above them (in self.path)."""
        _, cur, first, budget, after, _ = task
        saved = self.table
        self.table = dict(saved)  # written with placeholders: thrown away
        self.tasks = {}
        self.split_budget = budget - depth
        self.path = []
        try:
            found = self.dfs(cur, first, budget, after)
            tasks = list(self.tasks.values())
        finally:
            self.table = saved
            self.tasks = None
            self.split_budget = -1
        return None if found <= budget else tasks

    def finish(self, group: _Group) -> tuple[int, list | None]:
        """Pass 2 below a group's state, its tasks answered (or a solution found): the
        state's (value, path or None)."""
        start = (b"", self.root, 0, self.threshold, None, 0)
        _, cur, first, budget, after, _ = group.task or start
        self.split_budget = group.frontier
        self.path = []
        try:
            value = self.dfs(cur, first, budget, after)
        finally:
            self.split_budget = -1
        return value, (list(self.path) if value <= budget else None)

    def farm(self, top: _Group, tasks: list) -> None:
        """Answer every task of ``top`` (or stop at a solution), splitting tasks that run
        long while a worker waits."""
        jobs = self.jobs = _Throttle(self.pool, 2 * self.workers, self.worker_processes)

        def submit(group: _Group, task: tuple) -> None:
            group.open += 1
            job = (*task, self.threshold, self.walk_budget, self.checked_depth, group.below_miss)
            jobs.submit(_search, job, (group, task))

        for task in tasks:
            submit(top, task)
        answered = given_way = 0
        # told before the first answer too: on Bud6 that is 13 s of checks in the workers
        self.doing = _tasks_line(0, 0, jobs.pending())
        while True:
            _idle[0].value = jobs.pending() < self.workers
            item = self.answer(jobs)
            if item is None:
                continue
            (group, task), (value, path, nodes, notes) = item
            self.write_notes(notes)
            answered += 1
            given_way += value == "split"
            left = jobs.pending()
            self.doing = _tasks_line(answered, given_way, left)
            self.report_if_due()  # so that the answer that ends the iteration is told too
            self.nodes += nodes
            self.task_nodes += nodes
            if value is None:
                raise _Stop  # a worker reached the deadline
            if self.node_limit is not None and self.nodes > self.node_limit:
                raise _Stop
            if value == "split":
                below = _Group(task, group, task[3] - 1)
                below.below_miss = path is True  # a split's answer says if its check missed
                subtasks = self.collect(task, 1)
                if subtasks:
                    for sub in subtasks:
                        submit(below, sub)
                    continue
                if subtasks is None:  # a solution just below (collect left it in self.path)
                    value, path = len(self.path), list(self.path)
                else:  # every state below was cut in pass 1
                    value, path = self.finish(below)
            group.open -= 1
            # a group whose tasks are all answered (or that holds a solution) gets its pass 2,
            # which answers its own task in the group above
            while True:
                self.answers[(task[0], task[3])] = (value, path)
                if self.journal is not None and path is None and self.journalling():
                    self.journal.bound(task[0], value)  # a worker's proved bound, or pass 2's
                if path is not None:
                    self.solved = True
                if group.open and not self.solved:
                    break
                if group is top:
                    return
                value, path = self.finish(group)
                task, group = group.task, group.up
                group.open -= 1

    def write_notes(self, notes: tuple | None) -> None:
        """Write to the journal what a worker proved in a task (:class:`_Notes`): bounds
        the worker's ``dfs`` kept, which are proved whatever this search's pass, and check
        values."""
        if notes is None or self.journal is None:
            return
        bounds, checks = notes
        for key, value in bounds:
            self.journal.bound(key, value)
        for kind, key, value, cap in checks:
            self.journal.check(kind, key, value, cap)

    def affordable(self, tasks: list, depth: int) -> bool:
        """Check every state at this depth above the frontier? The start's children always
        (as on one core); deeper, only if the checks are expected to take the workers no
        longer than the iteration has run so far, so that they at most double its time (a
        solution-finding iteration may end long before the search would have met them:
        Bud3's 3,667 states at depth 2 took 43 s of checks, the whole iteration 39 s on
        one core). Checks held already (a journal's) cost nothing."""
        if depth == 1:
            return True
        count, seconds = self.checks
        mean = seconds / count if count else CHECK_GUESS
        spent = time.monotonic() - self.iteration_began
        held = sum(
            checkable(cur) and self.check_cached(cur, _key(cur, first), budget, depth)
            for _, cur, first, budget, _, _ in tasks
        )
        return (len(tasks) - held) * mean / self.workers <= spent

    def to_check(self, tasks: list, depth: int) -> list[tuple]:
        """The check jobs (key, state, budget, depth) of ``tasks``' states, but for those
        whose values the caches hold already (a journal's)."""
        jobs = [(_key(cur, first), cur, budget, depth) for _, cur, first, budget, _, _ in tasks]
        return [
            (key, cur, budget, depth)
            for key, cur, budget, depth in jobs
            if checkable(cur) and not self.check_cached(cur, key, budget, depth)
        ]

    def prefetch(self, tasks: list, depth: int) -> None:
        """The tripod checks of ``tasks``' states, computed by the workers into the cache
        that :meth:`tripod_check` reads (the same values it would compute)."""
        if not self.tripods_apply(depth):
            return
        jobs = self.to_check(tasks, depth)
        throttle = self.jobs = _Throttle(self.pool, 2 * self.workers, self.worker_processes)
        for group in self.alike(jobs, depth):
            throttle.submit(_check, jobs[group[0]], group[1:])
        done = 0
        while throttle.pending():
            item = self.answer(throttle)
            if item is None:
                continue
            copies, (key, budget, value, seconds, tetrapods) = item
            done += 1 + len(copies)
            self.doing = f"checks at depth {depth}: {done:,} of {len(jobs):,} done"
            self.report_if_due()
            if value is None:
                raise _Stop
            self.checked(key, budget, value, seconds, depth)
            if tetrapods is not None:
                self.kept_tetrapods(key, budget, *tetrapods)
            for i in copies:
                self.copied(jobs[i][0], budget, value, tetrapods)

    def alike(self, jobs: list[tuple], depth: int) -> list[list[int]]:
        """The check jobs (indices) in groups of isomorphic states (:mod:`kamicp.search.isomorphs`),
        each group checked once, where the tetrapod check applies at this depth (seconds a
        check, against milliseconds to group a state); elsewhere one job a group."""
        if depth > self.tetrapod_depth:
            return [[i] for i in range(len(jobs))]
        return isomorphic_groups([cur for _, cur, _, _ in jobs])

    def frontier(self, key: bytes, cur: Current, first: int, budget: int, after) -> int | None:
        if self.tasks is not None:  # pass 1
            if (key, budget) not in self.tasks:
                depth = self.threshold - budget
                self.tasks[key, budget] = (key, _detached(cur), first, budget, after, depth)
            return budget + 1  # placeholder
        answer = self.answers.get((key, budget))
        if answer is None:
            # Not sent: pass 1 cut it with a placeholder bound, which pass 2's proved values
            # can only raise, so it is met only when a solution was found elsewhere and the
            # search stops at that solution whatever this returns.
            return budget + 1 if self.solved else None
        value, path = answer
        if path is not None:
            self.path.extend(path)  # last move first, as dfs builds it
        return value

    def quiet(self) -> None:
        """Have the workers drop their jobs, and wait (at most QUIET_SECONDS) for every job
        in the pool to answer, so that what the dropped tasks proved reaches the journal
        before :func:`stop_pool` stops the workers. A worker that died has lost its job:
        no wait for it."""
        _stopping[0].value = 1
        end = time.monotonic() + QUIET_SECONDS
        while self.jobs is not None and self.jobs.in_pool and time.monotonic() < end:
            try:
                item = self.jobs.next(feed=False, timeout=end - time.monotonic())
            except WorkerLost:
                break  # its job will never answer (a SIGTERM to the process group, say)
            except Exception:  # a job's error: answered all the same
                continue
            if item is None:
                continue
            tag, answer = item
            if isinstance(tag, tuple) and isinstance(tag[0], _Group):  # a task's, not a check's
                _, _, _, notes = answer
                self.write_notes(notes)

    def tripods_due(self, depth: int) -> bool:
        if self.split_budget >= 0:  # above the frontier: where the workers computed it
            return self.tripods_apply(depth) and depth <= self.checked_depth
        return super().tripods_due(depth)


def start_pool(
    workers: int, initializer: Callable | None = None, initargs: tuple = ()
) -> tuple[ProcessPoolExecutor, list]:
    """``workers`` worker processes, forked now, each running ``initializer(*initargs)``
    first, and their :class:`multiprocessing.Process` objects.

    Why :class:`concurrent.futures.ProcessPoolExecutor` and not ``multiprocessing.Pool``: a
    worker killed from outside (``timeout``'s SIGTERM to the process group, the kernel's
    out-of-memory killer) breaks the executor, which fails every job at once and stops the
    other workers; a ``Pool`` starts a new worker and loses the job, and its ``terminate``
    hangs for good when the dead worker held the job queue's lock, as an idle worker
    waiting for a job does (``timeout 7 kamicp solve Bud3.puz --solver idastar --workers
    2`` hung in 2 of 12 runs at 1e993fd).

    The executor forks its workers at the first job (Python 3.11 on; before, one a job
    while none is idle): one short job each, sent together and waited for, forks them here,
    where no journal transaction is open, and surfaces a worker that cannot start."""
    before = {p.pid for p in mp.active_children()}
    pool = ProcessPoolExecutor(
        workers,
        mp_context=mp.get_context("fork"),
        initializer=_pool_worker,
        initargs=(os.getpid(), initializer, initargs),
    )
    for started in [pool.submit(time.sleep, 0.05) for _ in range(workers)]:
        started.result()
    return pool, [p for p in mp.active_children() if p.pid not in before]


def _pool_worker(parent: int, initializer: Callable | None, initargs: tuple) -> None:
    """A pool's worker process starts here. It dies with its parent: an idle worker waits
    for jobs, and would wait for ever once the parent is killed (a portfolio stops a
    backend so), as the executor's workers keep the job queue's write end open."""
    die_with_parent()
    if os.getppid() != parent:  # the parent died before that
        os._exit(0)
    if initializer is not None:
        initializer(*initargs)


def stop_pool(pool: ProcessPoolExecutor, processes: Sequence) -> None:
    """Stop the workers, busy or not (SIGTERM: they keep its default action), and wait for
    the executor to wind up. Call :meth:`_SplitIda.quiet` first: a job killed mid-way
    loses the notes it would have sent to the journal."""
    for process in processes:
        if process.exitcode is None:
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


class _Throttle:
    """Jobs handed to a pool at most ``limit`` at a time, each answer returned with its
    job's tag. Why not all at once: the jobs are handed out in the order they were
    submitted, and the search may stop (a solution, a deadline) long before the last."""

    def __init__(self, pool: ProcessPoolExecutor, limit: int, workers: Sequence = ()):
        self.pool, self.limit = pool, limit
        self.workers = workers  # the pool's processes: to tell how one died
        self.waiting: collections.deque = collections.deque()  # (function, job, tag)
        self.in_pool = 0  # handed to the pool, not answered
        self.done: queue.SimpleQueue = queue.SimpleQueue()

    def submit(self, function: Callable, job: tuple, tag) -> None:
        self.waiting.append((function, job, tag))

    def pending(self) -> int:
        """Jobs submitted and not answered yet."""
        return len(self.waiting) + self.in_pool

    def feed(self) -> None:
        while self.waiting and self.in_pool < self.limit:
            function, job, tag = self.waiting.popleft()
            try:
                future = self.pool.submit(function, job)
            except BrokenProcessPool:  # a worker died since the last answer
                raise self.lost() from None
            self.in_pool += 1
            future.add_done_callback(lambda f, tag=tag: self.done.put(_outcome(f, tag)))

    def next(self, feed: bool = True, timeout: float | None = None) -> tuple | None:
        """(tag, answer) of the next job answered (None after ``timeout`` seconds); a job's
        exception is raised here, and :class:`WorkerLost` if a worker has died."""
        if feed:
            self.feed()
        item = _next(self.done, timeout)
        if item is None:
            return None
        self.in_pool -= 1
        if isinstance(item, BrokenProcessPool):
            raise self.lost() from item
        if isinstance(item, BaseException):
            raise item
        return item

    def lost(self) -> WorkerLost:
        """The error that tells how a worker died. The executor stops the other workers
        with SIGTERM once one has died, so a death by another cause names the first."""
        # The executor is stopping the others and reaps them all: wait for every code (a
        # process reaped by the executor's thread shows its code only once that is done).
        end = time.monotonic() + 2.0
        while any(p.exitcode is None for p in self.workers) and time.monotonic() < end:
            time.sleep(0.01)
        codes = [p.exitcode for p in self.workers if p.exitcode is not None]
        codes.sort(key=lambda code: code == -signal.SIGTERM)
        how = _death(codes[0]) if codes else "how is not known"
        return WorkerLost(f"a worker process of the parallel search died ({how})")


def _outcome(future: Future, tag) -> tuple | BaseException:
    """A finished job's (tag, answer), or its exception (a cancelled job's: only
    :func:`stop_pool` cancels, and then nobody reads the answers)."""
    try:
        error = future.exception()
    except CancelledError as cancelled:
        return cancelled
    return error if error is not None else (tag, future.result())


def _tasks_line(answered: int, given_way: int, left: int) -> str:
    """What the workers do, for the status line, while tasks are farmed out."""
    return f"tasks {answered:,} answered ({given_way:,} split), {left:,} to go"


def _death(exitcode: int) -> str:
    """How a process ended, in words."""
    if exitcode >= 0:
        return f"exit code {exitcode}"
    try:
        name = signal.Signals(-exitcode).name
    except ValueError:
        name = f"signal {-exitcode}"
    if -exitcode == signal.SIGKILL:
        return f"{name}: killed from outside, perhaps by the kernel for want of memory"
    return f"{name}: killed from outside"


def _next(done: queue.SimpleQueue, timeout: float | None = None):
    """The next answer, None after ``timeout`` seconds; waiting in short slices, so that
    Ctrl-C is handled (a blocking ``get`` holds off the signal handler until an answer
    comes)."""
    end = None if timeout is None else time.monotonic() + timeout
    while True:  # at least one try, so that an answer already there is taken even at timeout 0
        try:
            return done.get(
                timeout=0.5 if end is None else max(0.0, min(0.5, end - time.monotonic()))
            )
        except queue.Empty:
            if end is not None and time.monotonic() >= end:
                return None


def _new_flag(flags: list) -> None:
    """A flag shared with the workers forked after this (made once a process), cleared."""
    if not flags:
        flags.append(mp.get_context("fork").Value("b", 0, lock=False))
    flags[0].value = 0


def _new_tally(tally: list, size: int = 3) -> None:
    """Counts shared with the workers forked after this (made once a process), zeroed:
    tetrapod checks (asked, cut, seconds), tripod checks (asked, cut), states."""
    if not tally:
        tally.append(mp.get_context("fork").Array("d", size))
    with tally[0].get_lock():
        tally[0][:] = [0.0] * size


def _add(tally: list, *amounts: float) -> None:
    """Add ``amounts`` to a shared tally, item by item, under its lock; nothing where there
    is none (a worker made by a test, not forked by a pool)."""
    if not tally:
        return
    shared = tally[0]
    with shared.get_lock():
        for i, amount in enumerate(amounts):
            shared[i] += amount


def _added(own: tuple, workers: tuple | None) -> tuple:
    """Counts of this process plus the workers' (if any), item by item."""
    if workers is None:
        return own
    return tuple(a + b for a, b in zip(own, workers, strict=True))


def _detached(cur: Current) -> Current:
    """``cur`` without its caches (the balls and the previous position would be pickled
    along, back to the start); the worker rebuilds what it needs."""
    n = len(cur.islands)
    return Current(
        cur.k,
        cur.pos,
        cur.adj,
        cur.members,
        cur.islands,
        cur.island_of,
        cur.pivot,
        list(cur.radii),
        [None] * n,
        [None] * n,
        list(cur.counts),
    )


# --- in the worker processes ----------------------------------------------------------------

_worker: list = []  # this worker's search
_idle: list = []  # a flag shared with the workers: some worker waits for a task
_stopping: list = []  # a flag shared with the workers: drop the job at hand
_rent_tally: list = []  # every worker's tetrapod checks (asked, cut, seconds), for the rents
_tripod_tally: list = []  # every worker's tripod checks of the iteration (asked, cut), for status
_node_tally: list = []  # every worker's states expanded, for the status


class _Notes:
    """A worker's journal: what it would write (the bounds it keeps for states at most
    JOURNAL_DEPTH moves deep, its check values) is kept here and sent back with each task's
    answer, for the parent, the journal's one writer, to write. Without it a stopped run
    would keep only the tasks' answers: with ``AUTO`` the tasks are the start's children."""

    def __init__(self):
        self.bounds: list[tuple[bytes, int]] = []
        self.checks: list[tuple[str, bytes, int, int]] = []
        self.written = 0  # notes taken, as a Journal counts its writes (status lines)

    def bound(self, key: bytes, value: int) -> None:
        self.bounds.append((key, value))
        self.written += 1

    def check(self, kind: str, key: bytes, value: int, cap: int) -> None:
        self.checks.append((kind, key, value, cap))
        self.written += 1

    def take(self) -> tuple[list, list]:
        """What was noted since the last call."""
        out = self.bounds, self.checks
        self.bounds, self.checks = [], []
        return out


class _Worker(_Ida):
    root_depth = -1  # the depth of the task being searched: its root gets the tripod check
    began = 0.0  # when the task began
    task_state: Current | None = None  # the state of the task being searched
    parent = 0  # the process that farms the tasks out
    sent = 0  # states expanded and added to the shared tally

    def send_nodes(self) -> None:
        """Add the states expanded since the last call to the shared tally."""
        if self.nodes > self.sent:
            _add(_node_tally, self.nodes - self.sent)
        self.sent = self.nodes

    def tripods_due(self, depth: int) -> bool:
        if depth == self.root_depth:
            return self.tripods_apply(depth)
        return super().tripods_due(depth)

    def tick(self) -> None:
        super().tick()
        if self.nodes - self.sent >= NODES_SENT:
            self.send_nodes()
        if _stopping[0].value:
            raise _Stop  # the search is over (_SplitIda.quiet)
        if _idle[0].value and time.monotonic() - self.began >= TASK_SPLIT:
            self.settle_task_state()
            raise _GiveWay
        if os.getppid() != self.parent:
            # the parent was killed (a portfolio stops a backend with SIGKILL, which gives
            # the pool no chance to stop its workers): this task's answer has no reader
            os._exit(0)

    def kept_tetrapods(self, key: bytes, budget: int, value: int, seconds: float) -> None:
        super().kept_tetrapods(key, budget, value, seconds)
        _add(_rent_tally, 1, value > budget, seconds)

    def checked(self, key: bytes, budget: int, value: int, seconds: float, depth: int) -> None:
        super().checked(key, budget, value, seconds, depth)
        _add(_tripod_tally, 1, value > budget)

    def tetrapod_tally(self) -> tuple[float, float, float]:
        """Every worker's tetrapod checks, not this one's alone: a worker whose first task is
        long would otherwise time its rentals from that task's few checks (Bud6: the start's
        one child that its check does not cut, 145 s, rented its 72 children for 2.4-3.3 s
        each where the other worker's 189 checks, 185 cut, said 0.8 s)."""
        if not _rent_tally:  # not forked by a pool (a test's worker)
            return super().tetrapod_tally()
        asked, cut, spent = _rent_tally[0][:]
        return asked, cut, spent

    def settle_task_state(self) -> None:
        """Before a task gives way: if its state is rented, make its check now (the split
        would drop the rental, and the idle worker waits either way); a cut ends the task."""
        if self.rentals and self.rentals[0].cur is self.task_state and self.rentals[0].open:
            self.check_rented(0)


def _start_worker(parent: _SplitIda) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # the parent's SIGTERM handler (forked with it) would turn Pool.terminate into an exception
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    w = _Worker(parent.g, parent.final_colour, None, parent.deadline)
    w.tripod_after = parent.tripod_after
    w.check_ratio = parent.check_ratio
    w.tetrapod_depth = parent.tetrapod_depth
    w.auto_tetrapods = parent.auto_tetrapods
    # the worker's checks come one after another
    keep_levels_memory(w.tetrapod_depth > 0 or w.auto_tetrapods)
    w.forced_depth = parent.forced_depth
    # the parent's proved bounds and check values so far (a journal's among them): this
    # process's copies of them, made by the fork
    w.table, w.tripod_values, w.tetrapod_values = (
        parent.table,
        parent.tripod_values,
        parent.tetrapod_values,
    )
    w.threshold = -1
    w.journal = _Notes() if parent.journal is not None else None
    w.parent = os.getppid()
    _worker.append(w)


def _check(job: tuple) -> tuple:
    """(key, budget, tripod value capped at budget, seconds, tetrapods) of one state
    ``depth`` moves deep, as ``_Ida.tripod_check`` computes it; value None at the deadline.
    ``tetrapods``: (tetrapod value capped at budget, seconds) where the tripods leave the
    state and the depth is within ``tetrapod_depth``, else None."""
    key, cur, budget, depth = job
    w = _worker[0]
    began = time.monotonic()
    if w.deadline is not None and began >= w.deadline:
        return key, budget, None, 0.0, None
    value = tripod_value(cur, budget, w.final_colour, w.deadline)
    seconds = time.monotonic() - began
    if value > budget or not tetrapods_apply(cur, depth, w.tetrapod_depth):
        return key, budget, value, seconds, None
    quads = tetrapods_bound(cur, w.final_colour, budget, w.deadline, peel=True)
    if w.deadline is not None and time.monotonic() >= w.deadline:
        return key, budget, None, 0.0, None  # maybe from the levels done before it
    return key, budget, value, seconds, (quads, time.monotonic() - began - seconds)


def _search(job: tuple) -> tuple:
    """(value, path or None, states expanded, notes for the journal or None) of one task:
    value None at the deadline, "split" when it gave way to an idle worker, its path then
    True if the task's state was checked and not cut (the tasks it is split into are below
    a miss). Its tetrapod checks go to the shared tally as they are made."""
    _, cur, first, budget, after, depth, threshold, walk_budget, checked_depth, below = job
    w = _worker[0]
    if w.threshold != threshold:  # a new iteration: the check policy learns afresh
        w.threshold = threshold
        w.walk_budget = walk_budget
        w.iteration_began = time.monotonic()
        w.checks, w.cuts, w.subtrees = [0, 0.0], {}, {}
    # the task's state gets the check if its parent's depth was checked, on boards where
    # checks are cheap (else as the worker's own policy decides: on Threegrid5, 173 regions,
    # checking each of the 5,295 tasks two moves deep at 0.15-0.2 s made the refutation of 12
    # 491.5 s, against 206 s on one core, whose subtrees there take 0.014 s on average)
    forced = w.cheap_checks and depth <= checked_depth + 1
    w.root_depth = depth if forced else -1
    w.path = []
    w.missed = [False] * len(w.missed)
    if below and 1 < depth <= DEEPEST_DEPTH:
        w.missed[depth - 1] = True  # the state above was checked, and not cut, in a worker
    w.task_state = cur
    w.began = time.monotonic()
    before = w.nodes
    try:
        value = w.dfs(cur, first, budget, after)
        path = list(w.path) if value <= budget else None
    except _Stop:
        value, path = None, None
    except _GiveWay:
        value, path = "split", depth <= DEEPEST_DEPTH and w.missed[depth]
    notes = w.journal.take() if w.journal is not None else None
    w.send_nodes()  # before the answer, so that the tally holds every answered task's states
    return value, path, w.nodes - before, notes
