"""The worker side of the parallel IDA*: the worker's search, its jobs, and what the
processes share.

Each worker process is forked from the search that farms out the tasks
(:class:`kamicp.search.parallel.SplitIda`), and made a :class:`Worker` by
:func:`start_worker`: a copy of that search's table and check caches, searching tasks with
the one-core depth-first search. Two jobs run there: :func:`search_task` (a subtree, answered
with its value and path, or given way to an idle worker) and :func:`check_state` (the checks
of one state). The flags and tallies the parent and the workers share live in :data:`SHARED`.

Examples
--------
>>> added((1, 2.0), None), added((1, 2.0), (3, 0.5))
((1, 2.0), (4, 2.5))
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time

from kamicp.bounds import Current, keep_levels_memory, tetrapods_bound
from kamicp.procs.deadline import LimitReached
from kamicp.search.checks import DEEPEST_DEPTH, tetrapods_apply, tripod_value
from kamicp.search.ida import Ida

__all__ = [
    "NODES_SENT",
    "SHARED",
    "TASK_SPLIT",
    "GiveWay",
    "Notes",
    "Shared",
    "Worker",
    "add",
    "added",
    "check_state",
    "detached",
    "new_flag",
    "new_tally",
    "search_task",
    "start_worker",
]

TASK_SPLIT = 0.2  # a task that has run this long gives way when a worker is idle
# A worker adds its states to the status line's shared count every this many (a locked
# add costs about a microsecond, a state about a hundred)
NODES_SENT = 256


class Shared:
    """What the searching process and its forked workers share, in one place.

    Each item is a list holding one shared value once made (empty before): made by the
    parent before the pool is forked (:func:`new_flag`, :func:`new_tally`), so that every
    worker inherits it; made once a process, and reset for each new pool or iteration.

    Attributes
    ----------
    search : list
        In a worker process: this worker's :class:`Worker`.
    idle : list
        A flag: some worker waits for a task (a long task then gives way).
    stopping : list
        A flag: the search is over, drop the job at hand.
    rents : list
        Every worker's tetrapod checks (asked, cut, seconds): the rentals are timed by them.
    tripods : list
        Every worker's tripod checks of the iteration (asked, cut), for the status line.
    nodes : list
        Every worker's states expanded, for the status line.
    """

    def __init__(self):
        self.search: list = []
        self.idle: list = []
        self.stopping: list = []
        self.rents: list = []
        self.tripods: list = []
        self.nodes: list = []


SHARED = Shared()


class GiveWay(Exception):
    """A worker's task is to be split: another worker is idle."""


def new_flag(flags: list) -> None:
    """A flag shared with the workers forked after this (made once a process), cleared."""
    if not flags:
        flags.append(mp.get_context("fork").Value("b", 0, lock=False))
    flags[0].value = 0


def new_tally(tally: list, size: int = 3) -> None:
    """Counts shared with the workers forked after this (made once a process), zeroed:
    tetrapod checks (asked, cut, seconds), tripod checks (asked, cut), states."""
    if not tally:
        tally.append(mp.get_context("fork").Array("d", size))
    with tally[0].get_lock():
        tally[0][:] = [0.0] * size


def add(tally: list, *amounts: float) -> None:
    """Add ``amounts`` to a shared tally, item by item, under its lock; nothing where there
    is none (a worker made by a test, not forked by a pool)."""
    if not tally:
        return
    shared = tally[0]
    with shared.get_lock():
        for i, amount in enumerate(amounts):
            shared[i] += amount


def added(own: tuple, workers: tuple | None) -> tuple:
    """Counts of this process plus the workers' (if any), item by item."""
    if workers is None:
        return own
    return tuple(a + b for a, b in zip(own, workers, strict=True))


def detached(cur: Current) -> Current:
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


class Notes:
    """A worker's journal: what it would write (the bounds it keeps for states at most
    JOURNAL_DEPTH moves deep, its check values) is kept here and sent back with each task's
    answer, for the parent, the journal's one writer, to write. Without it a stopped run
    would keep only the tasks' answers: with ``AUTO`` the tasks are the start's children."""

    def __init__(self):
        self.bounds: list[tuple[bytes, int]] = []
        self.checks: list[tuple[str, bytes, int, int]] = []
        self.written = 0  # notes taken, as a Journal counts its writes (status lines)

    def bound(self, key: bytes, value: int) -> None:
        """Note a proved bound of a state."""
        self.bounds.append((key, value))
        self.written += 1

    def check(self, kind: str, key: bytes, value: int, cap: int) -> None:
        """Note a check's value."""
        self.checks.append((kind, key, value, cap))
        self.written += 1

    def take(self) -> tuple[list, list]:
        """What was noted since the last call."""
        out = self.bounds, self.checks
        self.bounds, self.checks = [], []
        return out


class Worker(Ida):
    """The search of a worker process: the one-core search, answering tasks one by one, that
    gives way when another worker is idle and adds its counts to :data:`SHARED`'s tallies."""

    root_depth = -1  # the depth of the task being searched: its root gets the tripod check
    began = 0.0  # when the task began
    task_state: Current | None = None  # the state of the task being searched
    parent = 0  # the process that farms the tasks out
    sent = 0  # states expanded and added to the shared tally

    def send_nodes(self) -> None:
        """Add the states expanded since the last call to the shared tally."""
        if self.nodes > self.sent:
            add(SHARED.nodes, self.nodes - self.sent)
        self.sent = self.nodes

    def tripods_due(self, depth: int) -> bool:
        if depth == self.root_depth:
            return self.tripods_apply(depth)
        return super().tripods_due(depth)

    def tick(self) -> None:
        super().tick()
        if self.nodes - self.sent >= NODES_SENT:
            self.send_nodes()
        if SHARED.stopping[0].value:
            raise LimitReached  # the search is over (SplitIda.quiet)
        if SHARED.idle[0].value and time.monotonic() - self.began >= TASK_SPLIT:
            self.settle_task_state()
            raise GiveWay
        if os.getppid() != self.parent:
            # the parent was killed (a portfolio stops a backend with SIGKILL, which gives
            # the pool no chance to stop its workers): this task's answer has no reader
            os._exit(0)

    def kept_tetrapods(self, key: bytes, budget: int, value: int, seconds: float) -> None:
        super().kept_tetrapods(key, budget, value, seconds)
        add(SHARED.rents, 1, value > budget, seconds)

    def checked(self, key: bytes, budget: int, value: int, seconds: float, depth: int) -> None:
        super().checked(key, budget, value, seconds, depth)
        add(SHARED.tripods, 1, value > budget)

    def tetrapod_tally(self) -> tuple[float, float, float]:
        """Every worker's tetrapod checks, not this one's alone: a worker whose first task is
        long would otherwise time its rentals from that task's few checks."""
        if not SHARED.rents:  # not forked by a pool (a test's worker)
            return super().tetrapod_tally()
        asked, cut, spent = SHARED.rents[0][:]
        return asked, cut, spent

    def settle_task_state(self) -> None:
        """Before a task gives way: if its state is rented, make its check now (the split
        would drop the rental, and the idle worker waits either way); a cut ends the task."""
        if self.rentals and self.rentals[0].cur is self.task_state and self.rentals[0].open:
            self.check_rented(0)


def start_worker(parent: Ida) -> None:
    """Make this (forked) process a worker of ``parent``'s search (a pool's initialiser).

    Parameters
    ----------
    parent : Ida
        The search that farms out the tasks, as it stood when the pool was forked.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # the parent's SIGTERM handler (forked with it) would turn Pool.terminate into an exception
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    w = Worker(parent.g, parent.final_colour, None, parent.deadline)
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
    w.journal = Notes() if parent.journal is not None else None
    w.parent = os.getppid()
    SHARED.search.append(w)


def check_state(job: tuple) -> tuple:
    """(key, budget, tripod value capped at budget, seconds, tetrapods) of one state
    ``depth`` moves deep, as :meth:`Ida.tripod_check` computes it; value None at the deadline.
    ``tetrapods``: (tetrapod value capped at budget, seconds) where the tripods leave the
    state and the depth is within ``tetrapod_depth``, else None."""
    key, cur, budget, depth = job
    w = SHARED.search[0]
    began = time.monotonic()
    if w.deadline.at is not None and began >= w.deadline.at:
        return key, budget, None, 0.0, None
    value = tripod_value(cur, budget, w.final_colour, w.deadline.at)
    seconds = time.monotonic() - began
    if value > budget or not tetrapods_apply(cur, depth, w.tetrapod_depth):
        return key, budget, value, seconds, None
    quads = tetrapods_bound(cur, w.final_colour, budget, w.deadline.at, peel=True)
    if w.deadline.expired():
        return key, budget, None, 0.0, None  # maybe from the levels done before it
    return key, budget, value, seconds, (quads, time.monotonic() - began - seconds)


def search_task(job: tuple) -> tuple:
    """(value, path or None, states expanded, notes for the journal or None) of one task:
    value None at the deadline, "split" when it gave way to an idle worker, its path then
    True if the task's state was checked and not cut (the tasks it is split into are below
    a miss). Its tetrapod checks go to the shared tally as they are made."""
    _, cur, first, budget, after, depth, threshold, walk_budget, checked_depth, below = job
    w = SHARED.search[0]
    if w.threshold != threshold:  # a new iteration: the check policy learns afresh
        w.threshold = threshold
        w.walk_budget = walk_budget
        w.iteration_began = time.monotonic()
        w.checks, w.cuts, w.subtrees = [0, 0.0], {}, {}
    # the task's state gets the check if its parent's depth was checked, on boards where
    # checks are cheap; elsewhere the worker's own policy decides, since a costly check on
    # every task outweighs the small subtrees it saves (BENCHMARKS.md, "IDA* tripod checks
    # near the start")
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
    except LimitReached:
        value, path = None, None
    except GiveWay:
        value, path = "split", depth <= DEEPEST_DEPTH and w.missed[depth]
    notes = w.journal.take() if w.journal is not None else None
    w.send_nodes()  # before the answer, so that the tally holds every answered task's states
    return value, path, w.nodes - before, notes
