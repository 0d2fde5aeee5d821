"""One task of a parallel proof, on the worker's side: a subtree searched by the one-process
IDA*, which stops when asked and hands back what is left of it.

A *task* is a state of the current iteration with its moves left (its *budget*): search
it and answer with a solution within the budget, or a proved lower bound above it. A worker
(:class:`TaskSearch`, a one-process :class:`~kamicp.search.ida.search.Ida` with the search
path kept) searches tasks one by one. When other workers are idle and its task has run
:data:`TASK_SPLIT` seconds, it *splits* the task: the search unwinds (:class:`Split`), each
state on the path noting how far its loop over children got, and the answer hands back
the untouched children of the shallowest state that has any as new tasks, and the child it
was searching as the task it goes on with. Nothing finished is searched again: the finished
children's bounds are in this worker's table, and sent along for the others
(``encodings/bounds.md``, "Parallel IDA*").

Examples
--------
>>> from kamicp.game.regions import from_edges
>>> g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)])
>>> search = WorkerSetup.of(g, None).search(lambda: False, lambda: False)
>>> answer = search.answer(Job(start_task(4), 4, 99, None, ()))
>>> answer.value, len(answer.path)
(4, 4)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from kamicp.bounds import Current, contract, keep_levels_memory
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.procs.deadline import Deadline, LimitReached
from kamicp.search.base import INF, Child
from kamicp.search.ida.checks import AUTO, DEEPEST_DEPTH
from kamicp.search.ida.search import Ida, IdaOptions, Level, Split
from kamicp.search.moves import context_bytes, transposition_key

__all__ = [
    "TASK_SPLIT",
    "Answer",
    "Job",
    "Notes",
    "Task",
    "TaskSearch",
    "WorkerSetup",
    "detached",
    "start_task",
]

# A task that has run this long splits when a worker is idle: a split costs the worker a
# few milliseconds (the path is searched again from the table), an idle worker all its time.
TASK_SPLIT = 0.2


class Task(NamedTuple):
    """A subtree to search: a state of the iteration, named by the moves that reach it.

    The state itself travels as its moves: each worker replays them from its own start
    (:meth:`TaskSearch.state`). A few plays cost less than pickling the region graph of a
    large board (a 60x60 board's split handed back 169 MB of states, 1.9 s to pickle).
    """

    moves: tuple[Move, ...]  # the moves from the start that reach it
    first: int  # its first open piece
    budget: int  # its moves left
    after: int | None  # the last move's context (``last_move_context``), None at the start
    radii: tuple | None = None  # its pieces' radii where known (None: none known)
    below_miss: bool = False  # the state above it was given a tetrapod check that missed

    @property
    def depth(self) -> int:
        """Its moves from the start."""
        return len(self.moves)


class Job(NamedTuple):
    """A task and what its worker needs to know of the iteration."""

    task: Task
    threshold: int  # the iteration's threshold
    walk_budget: int  # states with at least this budget get the walk check
    seconds_left: float | None  # the run's time left when sent (None: no limit)
    bounds: tuple  # (key, proved bound) learnt by the other workers since the last job


class Answer(NamedTuple):
    """What a worker says of a task.

    ``value`` at most the task's budget: solved, ``path`` the moves from the task's state;
    above it: a proved lower bound; None: split (``tasks`` handed back, ``resume`` the part
    this worker goes on with, ``floor`` the least f of what it finished) or stopped (the run
    is over; ``resume`` None).
    """

    value: int | None
    path: list[Move] | None = None
    floor: int = INF  # moves from the start: a lower bound on every solution through what
    # the task finished before it split
    tasks: tuple[Task, ...] = ()
    resume: Task | None = None
    bounds: tuple = ()  # (key, value): proved bounds for the other workers and the journal
    checks: tuple = ()  # (kind, key, value, cap): check values for the journal
    nodes: int = 0  # states expanded
    seconds: float = 0.0  # time spent on the task
    tripods: tuple = (0, 0)  # tripod checks made: asked, cut
    tetrapods: tuple = (0, 0, 0.0)  # tetrapod checks made: asked, cut, seconds


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


def start_task(threshold: int) -> Task:
    """An iteration's first task: the start, with ``threshold`` moves."""
    return Task((), 0, threshold, None)


class Notes:
    """A worker's journal: the bounds its search keeps of states at most
    :data:`~kamicp.search.ida.search.JOURNAL_DEPTH` moves deep and its check values, sent
    with each answer to the coordinator (the journal's one writer, and the table the workers
    share)."""

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


@dataclass
class WorkerSetup:
    """What a worker needs to search tasks: the board, the options, and what is known.

    Picklable, so that a worker on another machine (Ray) gets the same as a forked one.
    """

    g: RegionGraph
    final_colour: int | None
    walk_depth: int = -1
    options: IdaOptions = field(default_factory=IdaOptions)
    table: dict = field(default_factory=dict)  # proved bounds so far
    tripods: dict = field(default_factory=dict)  # check values so far
    tetrapods: dict = field(default_factory=dict)

    @classmethod
    def of(cls, g: RegionGraph, final_colour: int | None, ida: Ida | None = None) -> WorkerSetup:
        """The setup of a worker of ``ida``'s search (its options and what it knows now)."""
        if ida is None:
            return cls(g, final_colour)
        checks = ida.checks
        options = IdaOptions(
            tripod_after=checks.tripod_after,
            check_ratio=checks.check_ratio,
            tetrapod_depth=AUTO if checks.auto else checks.tetrapod_depth,
        )
        return cls(
            g,
            final_colour,
            ida.walk_depth if ida.walk_depth is not None else -1,
            options,
            ida.table,
            checks.tripod_values,
            checks.tetrapod_values,
        )

    def search(self, hungry: Callable[[], bool], stopping: Callable[[], bool]) -> TaskSearch:
        """A worker's search, with copies of what is known, reading its flags (some worker
        waits; the run is over) from ``hungry`` and ``stopping``."""
        w = TaskSearch(self.g, self.final_colour, None, None, self.walk_depth)
        w.hungry, w.stopping = hungry, stopping
        w.start = contract(self.g)
        w.configure(self.options)
        keep_levels_memory(w.checks.tetrapod_depth > 0 or w.checks.auto)  # checks one at a time
        w.table = dict(self.table)
        w.checks.tripod_values = dict(self.tripods)
        w.checks.tetrapod_values = dict(self.tetrapods)
        w.journal = Notes()
        w.threshold = -1
        return w


class TaskSearch(Ida):
    """The one-process IDA* searching tasks one by one, that splits or stops a task when
    asked (see the module docstring)."""

    hungry: Callable[[], bool]  # some worker waits for a task
    stopping: Callable[[], bool]  # the run is over: stop
    parent = 0  # the process that sends the tasks (0: do not watch it)
    began = 0.0  # when the task at hand began
    splits_at = INF  # when the task at hand may split
    first_node = 0  # the count of states when the task at hand expanded its own
    start: Current  # the start's position, from which each task's moves are replayed

    def tick(self) -> None:
        if self.stopping():
            raise Split
        super().tick()
        # not at the task's own state: a split there would hand back the whole task
        if self.nodes > self.first_node and self.hungry() and time.monotonic() >= self.splits_at:
            self.splits_at = INF  # one split at a time, until the task resumes
            if any(rental.open and rental.timed for rental in self.rentals.path):
                # a split drops the rentals: their checks first (one that cuts saves the
                # subtree it would split; the unwinding then splits at the next state)
                self.splits_at = time.monotonic()
                self.rentals.settle()
            raise Split
        if self.parent and self.nodes & 1023 == 0 and os.getppid() != self.parent:
            # the coordinator was killed outright (SIGKILL gives it no chance to stop its
            # workers): this answer has no reader
            os._exit(0)

    def answer(self, job: Job) -> Answer:
        """Search ``job``'s task: its :class:`Answer`."""
        task = job.task
        self.enter(job)
        before, began = self.nodes, time.monotonic()
        tripods, tetrapods = self.tripod_tally(), self.tetrapod_tally()
        self.first_node = before + 1
        self.began, self.splits_at = began, began + TASK_SPLIT
        self.path = []
        cur = self.state(task)
        try:
            value = self.dfs(cur, task.first, task.budget, task.after)
        except Split as split:
            answer = self.split(task, split.levels[::-1], self.stopping())
        except LimitReached:  # the deadline
            answer = Answer(None)
        else:
            path = self.path[::-1] if value <= task.budget else None
            answer = Answer(value, path)
        bounds, checks = self.journal.take()
        if answer.value is not None and answer.value > task.budget:
            bounds.append((transposition_key(cur, task.first, task.after), answer.value))
        return answer._replace(
            bounds=(*answer.bounds, *bounds),
            checks=tuple(checks),
            nodes=self.nodes - before,
            seconds=time.monotonic() - began,
            tripods=_less(self.tripod_tally(), tripods),
            tetrapods=_less(self.tetrapod_tally(), tetrapods),
        )

    def state(self, task: Task) -> Current:
        """A task's state: its moves played from the start, without the caches the plays
        leave (:func:`detached`), with the radii the task brings."""
        cur = self.start
        for v, colour in task.moves:
            cur = cur.play(v, colour)
        cur = detached(cur)
        if task.radii is not None:
            cur.radii = list(task.radii)
        return cur

    def enter(self, job: Job) -> None:
        """Take what ``job`` says of the iteration, the time left and the others' bounds."""
        task = job.task
        if self.threshold != job.threshold:  # a new iteration: the check policy learns afresh
            self.threshold = job.threshold
            self.walk_budget = job.walk_budget
            self.checks.new_iteration()
        self.deadline = self.checks.deadline = Deadline.after(job.seconds_left)
        table = self.table
        for key, value in job.bounds:
            if value > table.get(key, 0):
                table[key] = value
        missed = self.rentals.missed
        missed[:] = [False] * len(missed)
        if task.below_miss and 1 < task.depth <= DEEPEST_DEPTH:
            missed[task.depth - 1] = True  # its parent was checked, and not cut

    def split(self, task: Task, levels: list[Level], stopping: bool) -> Answer:
        """The answer of a task that split (or stopped, when the run is over), from the
        levels of its search path, shallowest first."""
        floor = INF
        bounds = [found for level in levels for found in self.finished(level)]
        for n, level in enumerate(levels):
            floor = min(floor, level.depth + level.best)
            rest, least = self.untouched(level)
            floor = min(floor, least)
            if stopping or (not rest and n + 1 < len(levels)):
                continue  # all of this level is left to the deeper ones
            moves = task.moves + tuple(lv.entries[lv.index].move for lv in levels[:n])
            tasks = tuple(self.subtask(level, e, moves) for e in rest)
            resume = self.subtask(level, level.entries[level.index], moves)
            return Answer(None, None, floor, tasks, resume, tuple(bounds))
        # stopped, or split before the task's state was expanded: all of it is left
        return Answer(None, None, INF, (), None if stopping else task, tuple(bounds))

    def finished(self, level: Level) -> list[tuple[bytes, int]]:
        """The table's bounds of a level's finished children."""
        found = []
        for child in level.entries[: level.index]:
            key = self.child_key(level, child)
            value = self.table.get(key)
            if value is not None and value > level.budget - 1:
                found.append((key, value))
        return found

    def untouched(self, level: Level) -> tuple[list, int]:
        """A level's children after the one being searched that are within its budget, and
        the least f (moves from the start) of those that are not."""
        rest, least = [], INF
        for child in level.entries[level.index + 1 :]:
            h = child.bound
            if 1 + h <= level.budget:
                h = max(h, self.table.get(self.child_key(level, child), 0))
            if 1 + h > level.budget:
                least = min(least, level.depth + 1 + h)
            else:
                rest.append(child)
        return rest, least

    def child_key(self, level: Level, child: Child) -> bytes:
        """The table's key of a level's child."""
        context = self.context(level.cur, child.move, child.minus_merged)
        return self.key_of(level.cur, child) + context_bytes(context)

    def subtask(self, level: Level, child: Child, moves: tuple) -> Task:
        """A level's child as a task; ``moves`` reach the level's state."""
        move = child.move
        if child.state is not None:  # made: its radii as they are
            radii = tuple(child.state.radii)
        else:  # the move changes one piece, whose radius the child may know
            radii = list(level.cur.radii)
            radii[level.cur.island_of[move[0]]] = child.radius
            radii = tuple(radii)
        return Task(
            (*moves, move),
            child.first,
            level.budget - 1,
            self.context(level.cur, move, child.minus_merged),
            radii,
            level.missed,
        )


def _less(after: tuple, before: tuple) -> tuple:
    """Counts made between two tallies, item by item."""
    return tuple(a - b for a, b in zip(after, before, strict=True))
