"""IDA* on several cores: each long iteration is split at a depth, its subtrees searched by
worker processes.

An iteration that has run :data:`SPLIT_AFTER` seconds on one core is restarted split (its
table kept). The search down to a *frontier* depth D runs here, as on one core, and records
each state it reaches at depth D as a task instead of searching it (pass 1). Worker
processes (:mod:`kamicp.search.workers`) search the tasks depth-first and answer each with a
solution within its budget or a proved lower bound above it. The search to depth D then runs
again with those answers in place of the subtrees (pass 2): it computes exactly what the
one-core iteration computes (``encodings/bounds.md``, "Parallel IDA*").

D is the least depth from 3 on (at most :data:`MAX_SPLIT_DEPTH`, less than the threshold)
that gives at least :data:`TASKS_PER_WORKER` tasks a worker, so that tasks of very different
sizes still share the cores evenly; a shallower one that already gives that many when the
next level's checks are not affordable (below). A worker whose task runs long while
another waits gives it back to be split again. States above the frontier get the tripod
check at the depths where the workers computed all of them first (the start's children
always; a deeper level when that costs no more than the iteration has run so far; see
:meth:`SplitIda.affordable`); a task's state gets it in the worker when its parent's depth
was checked and the board has at most :data:`~kamicp.search.checks.FORCED_NODES` regions
(else the worker's own rule decides).

With ``tetrapod_depth=AUTO`` the frontier is the start's children instead (where their
tetrapod checks may be rented): each worker rents the checks of its task's state and of the
states below it as one process does (``Ida.rent``), checks its task's state at once when
asked to give way, and asks the tripod checks of its top levels as one process does; the
passes here rent nothing. A task split from one whose state's check did not cut it is
below a miss, as on one core: its state is checked up front (``Group.below_miss``).

Pass 1 answers each task with ``budget + 1``, a placeholder, in a copy of the table thrown
away after. Both passes repeat the states above the frontier (their checks are cached).

Examples
--------
>>> from kamicp.game.regions import from_edges
>>> g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)])
>>> from dataclasses import replace
>>> out = parallel_idastar(g, options=replace(PARALLEL, split_after=0.0))
>>> out.complete, len(out.moves)
(True, 4)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from kamicp.bounds import UNSOLVABLE, Current, solvable
from kamicp.errors import WorkerLost
from kamicp.game.regions import RegionGraph
from kamicp.procs.deadline import LimitReached
from kamicp.procs.pool import Throttle, start_pool, stop_pool
from kamicp.result import SearchOutcome
from kamicp.search.checks import AUTO_DEPTH, CHECK_GUESS, TETRAPOD_DEPTH, checkable, tetrapods_apply
from kamicp.search.ida import Ida, IdaOptions, journalled
from kamicp.search.isomorphs import isomorphic_groups
from kamicp.search.moves import state_key
from kamicp.search.workers import (
    SHARED,
    added,
    check_state,
    detached,
    new_flag,
    new_tally,
    search_task,
    start_worker,
)

__all__ = [
    "MAX_SPLIT_DEPTH",
    "PARALLEL",
    "QUIET_SECONDS",
    "SPLIT_AFTER",
    "TASKS_PER_WORKER",
    "Group",
    "SplitIda",
    "parallel_idastar",
]

SPLIT_AFTER = 1.0  # seconds an iteration runs on one core before it is split
TASKS_PER_WORKER = 16  # the frontier is deepened until it has this many tasks a worker
MAX_SPLIT_DEPTH = 3  # nor deeper than this
QUIET_SECONDS = 10.0  # at most this long, at the end, for the workers to drop their jobs
# parallel_idastar's options when none are given: two processes, no tetrapod checks
PARALLEL = IdaOptions(workers=2, tetrapod_depth=TETRAPOD_DEPTH)


def parallel_idastar(
    g: RegionGraph,
    final_colour: int | None = None,
    max_moves: int | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
    *,
    lower: int | None = None,
    options: IdaOptions = PARALLEL,
) -> SearchOutcome:
    """:func:`kamicp.search.idastar.idastar` on ``options.workers`` processes.

    Parameters
    ----------
    g, final_colour, max_moves, node_limit, deadline, lower
        As for :func:`kamicp.search.idastar.idastar`; ``node_limit`` is checked as the
        workers' answers come in, so a run may expand a few more states than it.
    options : IdaOptions
        As for :func:`kamicp.search.idastar.idastar`; ``split_after``: seconds an
        iteration runs on one core before it is split (0: every iteration, as the tests
        do; None: :data:`SPLIT_AFTER`). Default :data:`PARALLEL`.

    Returns
    -------
    SearchOutcome
        What :func:`kamicp.search.idastar.idastar` would return on one process.
    """
    if not solvable(g, None, final_colour):
        return SearchOutcome(None, UNSOLVABLE, True, 0)
    ida = SplitIda(g, final_colour, node_limit, deadline, options.walk_depth)
    ida.configure(options)
    if not ida.auto_tetrapods:
        # the top levels have their own rule (prefetch); with AUTO the tasks are the start's
        # children, whose workers check their top levels as one process does
        ida.forced_depth = 0
    ida.workers = options.workers
    ida.split_after = SPLIT_AFTER if options.split_after is None else options.split_after
    try:
        with journalled(ida, options.journal):
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


class Group:
    """The tasks a state was split into, and what waits for their answers."""

    def __init__(self, task: tuple | None, up: Group | None, frontier: int):
        self.task = task  # (key, cur, first, budget, after, depth); None for the start
        self.up = up  # the group the task belongs to
        self.frontier = frontier  # the budget of the tasks below
        self.open = 0  # tasks not answered yet
        # a worker checked the task's state and it was not cut: its tasks are below a miss
        # (with AUTO their checks are made up front, as on one core)
        self.below_miss = False


class SplitIda(Ida):
    """An IDA* whose long iterations are split over a pool of worker processes (see the
    module docstring); its passes run here, the tasks in :mod:`kamicp.search.workers`."""

    workers = 2
    split_after = SPLIT_AFTER
    pool: ProcessPoolExecutor | None = None
    worker_processes: Sequence = ()  # the pool's processes, as started (set with the pool)
    soft: float | None = None  # when the one-core iteration gives way to the split
    tasks: dict | None = None  # pass 1: (key, budget) -> task
    answers: dict  # pass 2: (key, budget) -> (value, path or None)
    solved = False  # a worker found a solution
    checked_depth = 0  # the states above the frontier get the tripod check to this depth
    jobs: Throttle | None = None  # the jobs in the pool
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
            new_flag(SHARED.idle)
            new_flag(SHARED.stopping)
            new_tally(SHARED.rents)
            new_tally(SHARED.tripods, 2)
            new_tally(SHARED.nodes, 1)
            if self.journal is not None:
                self.journal.commit()  # the workers are forked with no transaction open
            # each worker a copy of this search (forked), made a worker by start_worker
            self.pool, self.worker_processes = start_pool(self.workers, start_worker, (self,))
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
        sends its count every NODES_SENT, not only when its task answers)."""
        workers = self.workers_tally(SHARED.nodes)
        if workers is None:
            return self.nodes
        return self.nodes - self.task_nodes + workers[0]

    def tripod_tally(self) -> tuple[float, float]:
        """This process's checks of the iteration and, once the pool is up, every
        worker's as they are made."""
        asked, cut = added(super().tripod_tally(), self.workers_tally(SHARED.tripods))
        return asked, cut

    def tetrapod_tally(self) -> tuple[float, float, float]:
        """This process's checks and, once the pool is up, every worker's as they are made
        (not when the task answers: on the deep boards a task runs for minutes)."""
        own = super().tetrapod_tally()
        asked, cut, spent = added(own, self.workers_tally(SHARED.rents))
        return asked, cut, spent

    def workers_tally(self, tally: list) -> tuple | None:
        """What the workers of this search's pool have added to ``tally``, if there is one."""
        return tuple(tally[0][:]) if self.pool is not None and tally else None

    def answer(self, jobs: Throttle) -> tuple | None:
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
        new_tally(SHARED.tripods, 2)  # the workers count this iteration's checks afresh
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
        top = Group(None, None, threshold - depth)
        if tasks:
            self.farm(top, tasks)
            self.doing = ""
        return self.finish(top)[0]

    def rents_in_workers(self, tasks: list, depth: int) -> bool:
        """With AUTO, are these the tasks? The start's children, when their tetrapod checks
        may be rented: each worker then rents the checks of its task's state and of the
        states below it within AUTO_DEPTH moves, as one process does (``Ida.rent``), a
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

    def finish(self, group: Group) -> tuple[int, list | None]:
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

    def farm(self, top: Group, tasks: list) -> None:
        """Answer every task of ``top`` (or stop at a solution), splitting tasks that run
        long while a worker waits."""
        jobs = self.jobs = Throttle(self.pool, 2 * self.workers, self.worker_processes)

        def submit(group: Group, task: tuple) -> None:
            group.open += 1
            job = (*task, self.threshold, self.walk_budget, self.checked_depth, group.below_miss)
            jobs.submit(search_task, job, (group, task))

        for task in tasks:
            submit(top, task)
        answered = given_way = 0
        # told before the first answer too: the workers' first checks can take seconds
        self.doing = _tasks_line(0, 0, jobs.pending())
        while True:
            SHARED.idle[0].value = jobs.pending() < self.workers
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
                raise LimitReached  # a worker reached the deadline
            if self.node_limit is not None and self.nodes > self.node_limit:
                raise LimitReached
            if value == "split":
                below = Group(task, group, task[3] - 1)
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
        """Write to the journal what a worker proved in a task (its
        :class:`~kamicp.search.workers.Notes`): bounds the worker's ``dfs`` kept, which are
        proved whatever this search's pass, and check values."""
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
        solution-finding iteration may end long before the search would have met them).
        Checks held already (a journal's) cost nothing."""
        if depth == 1:
            return True
        count, seconds = self.checks
        mean = seconds / count if count else CHECK_GUESS
        spent = time.monotonic() - self.iteration_began
        held = sum(
            checkable(cur) and self.check_cached(cur, state_key(cur, first), budget, depth)
            for _, cur, first, budget, _, _ in tasks
        )
        return (len(tasks) - held) * mean / self.workers <= spent

    def to_check(self, tasks: list, depth: int) -> list[tuple]:
        """The check jobs (key, state, budget, depth) of ``tasks``' states, but for those
        whose values the caches hold already (a journal's)."""
        jobs = [
            (state_key(cur, first), cur, budget, depth) for _, cur, first, budget, _, _ in tasks
        ]
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
        throttle = self.jobs = Throttle(self.pool, 2 * self.workers, self.worker_processes)
        for group in self.alike(jobs, depth):
            throttle.submit(check_state, jobs[group[0]], group[1:])
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
                raise LimitReached
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
                self.tasks[key, budget] = (key, detached(cur), first, budget, after, depth)
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
        before :func:`~kamicp.procs.pool.stop_pool` stops the workers. A worker that died has
        lost its job: no wait for it."""
        SHARED.stopping[0].value = 1
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
            if isinstance(tag, tuple) and isinstance(tag[0], Group):  # a task's, not a check's
                _, _, _, notes = answer
                self.write_notes(notes)

    def tripods_due(self, depth: int) -> bool:
        if self.split_budget >= 0:  # above the frontier: where the workers computed it
            return self.tripods_apply(depth) and depth <= self.checked_depth
        return super().tripods_due(depth)


def _tasks_line(answered: int, given_way: int, left: int) -> str:
    """What the workers do, for the status line, while tasks are farmed out."""
    return f"tasks {answered:,} answered ({given_way:,} split), {left:,} to go"
