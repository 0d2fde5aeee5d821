"""IDA* on many workers: each iteration a pool of subtree tasks, balanced as it runs.

An iteration that has run :data:`SPLIT_AFTER` seconds on one core goes to the workers (its
table kept). There it starts as one task, the start with the whole threshold; a worker
whose task has run :data:`~kamicp.search.ida.tasks.TASK_SPLIT` seconds while another is idle
splits it (:mod:`kamicp.search.ida.tasks`): the untouched children of the shallowest state
on its path that has any become new tasks, and it goes on with the rest. So the work is
divided where it turns out to be, with no pass over the top of the tree here, and a task
that runs long is split again as often as workers fall idle. The iteration is over when
every task has answered: refuted, with the least f over all of them as the next threshold
(``encodings/bounds.md``, "Parallel IDA*"), or solved.

What a worker proves (the bounds of its tasks, of the finished children of a task that
split, and of the states it searched at most ``JOURNAL_DEPTH`` moves deep) comes back with
its answer; this process keeps it in one table, sends each worker what the others learnt
with its next task, and writes it to the journal, the one writer. A worker lost in the
middle of a task (killed, or its machine gone) costs only that task: it is sent again, to
a new worker.

The workers are local processes (:class:`~kamicp.search.ida.local.LocalWorkers`) or the
actors of a Ray cluster (:class:`~kamicp.search.ida.cluster.RayWorkers`); this module only
speaks to them through :class:`Workers`.

Examples
--------
>>> from kamicp.game.regions import from_edges
>>> from dataclasses import replace
>>> g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)])
>>> out = parallel_idastar(g, options=replace(PARALLEL, split_after=0.0))
>>> out.complete, len(out.moves)
(True, 4)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from kamicp.bounds import UNSOLVABLE, Current, solvable
from kamicp.errors import WorkerLost
from kamicp.game.regions import RegionGraph
from kamicp.procs.deadline import LimitReached
from kamicp.result import SearchOutcome
from kamicp.search.base import INF
from kamicp.search.ida.checks import TABLE_LIMIT, TETRAPOD_DEPTH
from kamicp.search.ida.search import Ida, IdaOptions, journalled
from kamicp.search.ida.tasks import Answer, Job, Task, WorkerSetup, start_task

__all__ = [
    "MOST_LOSSES",
    "PARALLEL",
    "QUIET_SECONDS",
    "SPLIT_AFTER",
    "PoolIda",
    "Tally",
    "Workers",
    "parallel_idastar",
]

SPLIT_AFTER = 1.0  # seconds an iteration runs on one core before it goes to the workers
# A task whose worker was lost this many times stops the run: something kills every worker
# that takes it (the out-of-memory killer, say), and sending it again would not end.
MOST_LOSSES = 3
# At most this long, at the end, for the workers' last answers (what their stopped tasks
# finished, for the journal): with the workers' CLOSE_SECONDS after it, a stopped command
# ends within a second.
QUIET_SECONDS = 0.4
# parallel_idastar's options when none are given: two processes, no tetrapod checks
PARALLEL = IdaOptions(workers=2, tetrapod_depth=TETRAPOD_DEPTH)


class Workers(Protocol):
    """What the coordinator needs of its workers, wherever they run."""

    size: int  # how many

    def start(self, setup: WorkerSetup) -> None:
        """Start ``size`` workers, each with ``setup``."""

    def send(self, w: int, job: Job) -> None:
        """Give worker ``w`` a job (it has none)."""

    def receive(self, timeout: float | None) -> tuple[int, Answer | None] | None:
        """The next (worker, answer); answer None: the worker was lost with its job; None
        when nothing came within ``timeout`` seconds."""

    def how_lost(self, w: int) -> str:
        """How worker ``w`` was lost, in words."""

    def restart(self, w: int) -> None:
        """Replace worker ``w``, lost."""

    def set_hungry(self, hungry: bool) -> None:
        """Tell the workers whether one of them waits for a task (long tasks then split)."""

    def stop(self) -> None:
        """Have every worker stop its job and answer what it finished."""

    def close(self) -> None:
        """Stop the workers for good."""


class _Soft(Exception):
    """The one-core iteration ran ``split_after`` seconds: give it to the workers."""


@dataclass
class Tally:
    """Where the workers' time went, and what they did, since they started."""

    began: float = field(default_factory=time.monotonic)
    busy: float = 0.0  # seconds searching tasks, all workers
    waiting: float = 0.0  # seconds between a job sent and its answer read, not searching
    tasks: int = 0  # answered, splits and stops among them
    splits: int = 0
    lost: int = 0  # tasks whose worker was lost
    nodes: int = 0  # states the workers expanded
    busy_by: dict = field(default_factory=dict)  # worker -> its seconds searching
    sent: dict = field(default_factory=dict)  # worker -> when its job at hand was sent

    def start(self, w: int, now: float) -> None:
        """Note a job sent to worker ``w``."""
        self.sent[w] = now

    def add(self, w: int, seconds: float, now: float, nodes: int) -> None:
        """Count a task answered by worker ``w``: its search time, the rest of the time
        between its job sent and its answer read, and its states."""
        self.tasks += 1
        self.busy += seconds
        self.busy_by[w] = self.busy_by.get(w, 0.0) + seconds
        self.waiting += max(0.0, now - self.sent.pop(w, now) - seconds)
        self.nodes += nodes

    def drop(self, w: int) -> None:
        """Forget worker ``w``'s job at hand (lost with the worker)."""
        self.sent.pop(w, None)

    def busy_until(self, w: int, now: float) -> float:
        """Worker ``w``'s seconds searching so far, the job at hand counted as searched."""
        return self.busy_by.get(w, 0.0) + (now - self.sent[w] if w in self.sent else 0.0)

    def shares(self, size: int, now: float) -> tuple[float, float, float]:
        """(busy, idle, waiting) as shares of the workers' time so far (a job at hand
        counts as busy until its answer says how long it searched)."""
        total = max(1e-9, size * (now - self.began))
        running = sum(now - at for at in self.sent.values())
        busy, waiting = (self.busy + running) / total, self.waiting / total
        busy = min(1.0, busy)
        return busy, max(0.0, 1.0 - busy - waiting), waiting

    def least_busy(self, size: int, now: float) -> float:
        """The share of its time the least busy worker spent searching (as :meth:`shares`)."""
        least = min(self.busy_until(w, now) for w in range(size))
        return min(1.0, least / max(1e-9, now - self.began))

    def line(self, size: int, queued: int) -> str:
        """The status line's part on the workers."""
        now = time.monotonic()
        busy, idle, waiting = self.shares(size, now)
        least = self.least_busy(size, now)
        parts = [
            f"{size} workers: busy {busy:.0%} (the least {least:.0%}), idle {idle:.0%}, "
            f"waiting {waiting:.0%}",
            f"tasks {self.tasks:,} answered ({self.splits:,} split), {queued:,} queued",
        ]
        if self.lost:
            parts.append(f"{self.lost:,} lost with their worker")
        return "; ".join(parts)


def parallel_idastar(
    g: RegionGraph,
    final_colour: int | None = None,
    max_moves: int | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
    *,
    lower: int | None = None,
    options: IdaOptions = PARALLEL,
    workers: Workers | None = None,
) -> SearchOutcome:
    """:func:`kamicp.search.ida.idastar` on many workers.

    Parameters
    ----------
    g, final_colour, max_moves, node_limit, deadline, lower
        As for :func:`kamicp.search.ida.idastar`; ``node_limit`` is checked as the workers'
        answers come in, so a run may expand a few more states than it.
    options : IdaOptions
        As for :func:`kamicp.search.ida.idastar`: ``workers`` local processes, or the
        actors of the Ray cluster at ``ray``; ``split_after``: seconds an iteration runs on
        one core first (0: none, as the tests do; None: :data:`SPLIT_AFTER`).
    workers : Workers or None
        The workers to use instead (made from ``options`` if None).

    Returns
    -------
    SearchOutcome
        What :func:`kamicp.search.ida.idastar` would return on one process.
    """
    if not solvable(g, None, final_colour):
        return SearchOutcome(None, UNSOLVABLE, True, 0)
    ida = PoolIda.of(g, final_colour, node_limit, deadline, options, workers)
    return ida.prove(max_moves, lower or 0, options.journal)


def made_workers(options: IdaOptions) -> Workers:
    """The workers ``options`` asks for: Ray actors at ``options.ray``, else processes."""
    if options.ray is not None:
        from kamicp.search.ida.cluster import RayWorkers  # Ray only where asked

        return RayWorkers(options.ray, options.workers if options.workers > 1 else None)
    from kamicp.search.ida.local import LocalWorkers

    return LocalWorkers(options.workers)


class PoolIda(Ida):
    """The coordinator: the first seconds of each iteration here, then its tasks farmed out
    to :class:`Workers` (see the module docstring)."""

    pool: Workers
    split_after = SPLIT_AFTER
    started = False  # the workers were started
    soft: float | None = None  # when the one-core iteration gives way to the workers
    tally: Tally | None = None
    queued = 0  # tasks waiting for a worker (status)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fresh: list[tuple[bytes, int]] = []  # bounds learnt, in order, for the workers
        self.seen: dict[int, int] = {}  # worker -> how much of ``fresh`` it was sent
        self.running_tasks: dict[int, Task] = {}  # worker -> its task
        self.losses: dict[tuple, int] = {}  # task's moves -> times its worker was lost with it
        self.worker_tripods = [0, 0]  # the workers' tripod checks of the iteration: asked, cut
        self.worker_tetrapods = [0, 0, 0.0]  # their tetrapod checks: asked, cut, seconds

    @classmethod
    def of(cls, g, final_colour, node_limit, deadline, options: IdaOptions, workers=None):
        """The coordinator of a search with ``options`` (``split_after`` None:
        :data:`SPLIT_AFTER`) on ``workers`` (made from ``options`` if None)."""
        ida = cls(g, final_colour, node_limit, deadline, options.walk_depth)
        ida.configure(options)
        ida.pool = made_workers(options) if workers is None else workers
        ida.split_after = SPLIT_AFTER if options.split_after is None else options.split_after
        return ida

    def prove(self, max_moves: int | None, lower: int, journal: str | None) -> SearchOutcome:
        """:meth:`run`, with the journal at ``journal`` (if any), the workers closed and
        their last answers taken however it ends."""
        with self.running(), journalled(self, journal):
            try:
                return self.run(max_moves, lower)
            finally:
                self.quiet()  # while the journal is open: the stopped tasks' bounds too

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        """Close the workers (if started) however the run ends."""
        try:
            yield
        finally:
            if self.started:
                self.pool.close()

    def tick(self) -> None:
        super().tick()
        if self.soft is not None and time.monotonic() >= self.soft:
            raise _Soft

    def iterate(self, root: Current, threshold: int) -> int:
        if not self.started:
            self.soft = time.monotonic() + self.split_after
            try:
                return super().iterate(root, threshold)
            except _Soft:
                self.path = []  # the table keeps what the iteration proved so far
            finally:
                self.soft = None
            if self.journal is not None:
                self.journal.commit()
            self.started = True  # before: running() closes what a stopped start began
            self.pool.start(WorkerSetup.of(self.g, self.final_colour, self))
            self.tally = Tally()
            self.seen = {w: 0 for w in range(self.pool.size)}
        return self.farm(threshold)

    def farm(self, threshold: int) -> int:
        """One iteration on the workers: the value :meth:`Ida.dfs` would give the start
        (its path in ``self.path``, last move first, when solved)."""
        queue: list[Task] = [start_task(threshold)]
        self.worker_tripods = [0, 0]
        resume: dict[int, Task] = {}  # worker -> the part of its split task it goes on with
        running = self.running_tasks
        floor = INF
        hungry = None
        while queue or resume or running:
            self.dispatch(queue, resume, threshold)
            self.queued = len(queue)
            now_hungry = len(running) < self.pool.size and not queue
            if now_hungry != hungry:
                hungry = now_hungry
                self.pool.set_hungry(hungry)
            got = self.receive()
            if got is None:
                continue
            w, answer = got
            task = running.pop(w)
            if answer is None:  # lost with its worker: sent again, to a new one
                self.tally.lost += 1
                lost = self.losses[task.moves] = self.losses.get(task.moves, 0) + 1
                if lost >= MOST_LOSSES:
                    how = self.pool.how_lost(w)
                    raise WorkerLost(
                        f"a worker process of the parallel search died ({how}), "
                        f"{lost} times on one task"
                    )
                queue.append(task)
                self.pool.restart(w)
                self.seen[w] = 0
                continue
            self.take(answer)
            if self.node_limit is not None and self.nodes > self.node_limit:
                raise LimitReached
            if answer.value is None:
                if answer.resume is None:
                    raise LimitReached  # the worker met the deadline
                self.tally.splits += 1
                floor = min(floor, answer.floor)
                queue.extend(answer.tasks)
                resume[w] = answer.resume
            elif answer.value <= task.budget:
                moves = [*task.moves, *answer.path]
                self.path = moves[::-1]
                return len(moves)
            else:
                floor = min(floor, task.depth + answer.value)
        return floor

    def dispatch(self, queue: list[Task], resume: dict[int, Task], threshold: int) -> None:
        """Give every worker without a task one: the rest of its own split task, else the
        last task queued (depth-first, so the queue stays short)."""
        for w in range(self.pool.size):
            if w in self.running_tasks:
                continue
            if w in resume:
                task = resume.pop(w)
            elif queue:
                task = queue.pop()
            else:
                continue
            self.send(w, task, threshold)

    def send(self, w: int, task: Task, threshold: int) -> None:
        """Send worker ``w`` a task, with the bounds the others learnt since its last."""
        bounds = tuple(self.fresh[self.seen[w] :])
        self.seen[w] = len(self.fresh)
        left = self.deadline.left()
        self.pool.send(w, Job(task, threshold, self.walk_budget, left, bounds))
        self.running_tasks[w] = task
        self.tally.start(w, time.monotonic())

    def receive(self) -> tuple[int, Answer | None] | None:
        """The next answer, or None when a status line or the deadline fell due first."""
        now = time.monotonic()
        waits = [self.deadline.at - now] if self.deadline.at is not None else []
        if self.on_status is not None:
            if now >= self.next_status:
                self.report()
            waits.append(self.next_status - now)
        if waits and min(waits) <= 0:
            self.deadline.check()
        got = self.pool.receive(max(0.0, min(waits)) if waits else None)
        if got is None:
            self.deadline.check()
            return None
        w, answer = got
        if answer is not None:
            self.tally.add(w, answer.seconds, time.monotonic(), answer.nodes)
        else:
            self.tally.drop(w)
        return got

    def take(self, answer: Answer) -> None:
        """Keep what an answer proved: its states, its bounds (here, for the other workers
        and in the journal) and its check values (in the journal)."""
        self.nodes += answer.nodes
        for tally, made in (
            (self.worker_tripods, answer.tripods),
            (self.worker_tetrapods, answer.tetrapods),
        ):
            for i, count in enumerate(made):
                tally[i] += count
        table, fresh = self.table, self.fresh
        if len(table) >= TABLE_LIMIT:
            table.clear()  # memory: forgetting bounds only costs time
        if len(fresh) >= TABLE_LIMIT:
            fresh.clear()  # the workers keep theirs; the rest is not sent
            self.seen = dict.fromkeys(self.seen, 0)
        for key, value in answer.bounds:
            if value > table.get(key, 0):
                table[key] = value
                fresh.append((key, value))
        if self.journal is not None:
            for key, value in answer.bounds:
                self.journal.bound(key, value)
            for kind, key, value, cap in answer.checks:
                self.journal.check(kind, key, value, cap)

    def quiet(self) -> None:
        """Have the workers stop their tasks, and take their answers (at most
        QUIET_SECONDS), so that what the stopped tasks finished reaches the journal."""
        if not self.started or not self.running_tasks:
            return
        self.pool.stop()
        end = time.monotonic() + QUIET_SECONDS
        while self.running_tasks and time.monotonic() < end:
            got = self.pool.receive(end - time.monotonic())
            if got is None:
                continue
            w, answer = got
            self.running_tasks.pop(w, None)
            if answer is not None:
                self.take(answer)

    def status(self) -> str:
        line = super().status()
        if self.tally is None:
            return line
        return f"{line}; {self.tally.line(self.pool.size, self.queued)}"

    def tripod_tally(self) -> tuple[float, float]:
        """This process's checks of the iteration and the workers' (as their tasks answer)."""
        asked, cut = super().tripod_tally()
        return asked + self.worker_tripods[0], cut + self.worker_tripods[1]

    def tetrapod_tally(self) -> tuple[float, float, float]:
        """This process's checks of the run and the workers' (as their tasks answer)."""
        return tuple(
            a + b for a, b in zip(super().tetrapod_tally(), self.worker_tetrapods, strict=True)
        )
