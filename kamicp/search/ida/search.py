"""IDA* on one process: depth-first iterations within a proved threshold, with a table.

IDA* (Korf, "Depth-first iterative-deepening: an optimal admissible tree search", 1985)
searches depth-first within a threshold that is a proved lower bound, raised after each
failed iteration to the least bound that exceeded it, so the first solution found is
optimal. A transposition table keeps the proved lower bound of every state searched, so a
state that failed with a budget is not searched again with that budget or less (Reinefeld
and Marsland, "Enhanced iterative-deepening search", 1994). The moves are those of
:mod:`kamicp.search.moves`; the costly checks follow :mod:`kamicp.search.ida.checks` and
:mod:`kamicp.search.ida.rental`. :func:`kamicp.search.ida.idastar` is the public entry;
:mod:`kamicp.search.ida.tasks` searches the tasks of a parallel proof with it.

Examples
--------
>>> from kamicp.game.regions import from_edges
>>> g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)])
>>> out = serial_idastar(g)
>>> out.complete, len(out.moves)
(True, 4)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from kamicp.bounds import (
    UNSOLVABLE,
    Current,
    contract,
    keep_levels_memory,
    solvable,
    tetrapods_bound,
    walks_bound,
    walks_bound_capped,
)
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.procs.deadline import LimitReached
from kamicp.result import SearchOutcome
from kamicp.search.base import INF, Child, Search
from kamicp.search.ida.checks import (
    AUTO,
    CHECK_RATIO,
    DEEPEST_DEPTH,
    TABLE_LIMIT,
    TRIPOD_AFTER,
    WALK_DEPTH,
    Checks,
)
from kamicp.search.ida.journal import Journal
from kamicp.search.ida.rental import Cut, Rentals
from kamicp.search.moves import context_bytes, frame, transposition_key

__all__ = [
    "DEFAULTS",
    "JOURNAL_DEPTH",
    "STATUS_EVERY",
    "Ida",
    "IdaOptions",
    "Level",
    "Split",
    "journalled",
    "serial_idastar",
]

# A journal (and, with many workers, the table they share) keeps the table's bounds of the
# states at most this many moves deep: about 30 children a state makes some 27,000 of them,
# while the deeper ones are many and cheap to find again.
JOURNAL_DEPTH = 3
# IDA* tells its ``on_status`` watcher how it stands at most this often (seconds); the
# watcher decides what to print (``kamicp solve --progress-every``)
STATUS_EVERY = 1.0


@dataclass(frozen=True)
class IdaOptions:
    """The options of IDA*, one process or several (defaults: the one-process search's).

    Only the time a search takes depends on them, never a value it proves; the watchers
    (``on_bound``, ``on_status``) only hear how it goes.

    Parameters
    ----------
    walk_depth : int or None
        Free rules: states at most this many moves from the start are also cut by the walk
        bound (Bound 6). None: :data:`~kamicp.search.ida.checks.WALK_DEPTH` where the walk bound
        beats the cheap bound at the start, else none; -1: none.
    tripod_after : float or None
        Free rules, one piece of at most :data:`~kamicp.search.ida.checks.CHECK_NODES` regions:
        once an iteration has run that many seconds, states get the tripod check (Bound 7)
        at the depths where it is expected to save ``check_ratio`` times its cost. None:
        never; 0: from the start of every iteration.
    check_ratio : float
        See ``tripod_after`` (0: check at every depth once one state of it was searched).
    tetrapod_depth : int or None
        Free rules: a state at most this many moves deep that its tripod check leaves also
        gets the tetrapod check (Bound 8). 0: none. :data:`~kamicp.search.ida.checks.AUTO`
        (None, the default): rented where a subtree runs long (:mod:`kamicp.search.ida.rental`).
    workers : int
        Worker processes; above 1, iterations that run over ``split_after`` seconds go to
        the workers (:func:`kamicp.search.ida.engine.parallel_idastar`).
    split_after : float or None
        Seconds an iteration runs on one core before it goes to the workers (None:
        :data:`kamicp.search.ida.engine.SPLIT_AFTER`; 0: every iteration).
    ray : str or None
        Above one process: the address of a Ray cluster whose actors are the workers
        (``"local"`` starts one here); ``workers`` then says how many (1: one a CPU).
    journal : str or None
        The path of a journal file (:mod:`kamicp.search.ida.journal`, made if missing): what it
        holds for this board is taken first, and what the run proves is written to it.
    on_bound : callable or None
        Called with every threshold an iteration starts with (each a proved lower bound).
    on_status : callable or None
        Called at most every :data:`STATUS_EVERY` seconds with one line on how the search
        stands (:meth:`Ida.status`).
    """

    walk_depth: int | None = None
    tripod_after: float | None = TRIPOD_AFTER
    check_ratio: float = CHECK_RATIO
    tetrapod_depth: int | None = AUTO
    workers: int = 1
    split_after: float | None = None
    ray: str | None = None
    journal: str | None = None
    on_bound: Callable[[int], None] | None = None
    on_status: Callable[[str], None] | None = None


DEFAULTS = IdaOptions()  # the one-process search's options


def serial_idastar(
    g: RegionGraph,
    final_colour: int | None = None,
    max_moves: int | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
    *,
    lower: int | None = None,
    options: IdaOptions = DEFAULTS,
) -> SearchOutcome:
    """An optimal solution by IDA* on this process, or what was proved.

    Parameters and results are those of :func:`kamicp.search.ida.idastar`, whatever
    ``options.workers`` says.

    Returns
    -------
    SearchOutcome
        The solution and what was proved.
    """
    if not solvable(g, None, final_colour):
        return SearchOutcome(None, UNSOLVABLE, True, 0)
    ida = Ida(g, final_colour, node_limit, deadline, options.walk_depth)
    ida.configure(options)
    keep_levels_memory(ida.checks.tetrapod_depth > 0 or ida.checks.auto)  # checks one after another
    try:
        with journalled(ida, options.journal):
            return ida.run(max_moves, lower or 0)
    finally:
        keep_levels_memory(False)


@contextlib.contextmanager
def journalled(ida: Ida, path: str | None) -> Iterator[None]:
    """Run ``ida`` with the journal at ``path`` (none if None).

    What the journal holds is taken first, and it is committed and closed however the run
    ends.
    """
    if path is None:
        yield
        return
    with Journal(path, ida.g, ida.final_colour) as journal:
        ida.learn(journal)
        try:
            yield
        finally:
            ida.journal = None


class Split(Exception):
    """A parallel task stops where it stands (:mod:`kamicp.search.ida.tasks`): each level of
    the search path it unwinds through adds its :class:`Level`, deepest first."""

    def __init__(self):
        super().__init__()
        self.levels: list[Level] = []


class Level(NamedTuple):
    """One state on the search path of a stopped task, as its loop over children stood."""

    cur: Current  # the state
    budget: int  # its moves left
    depth: int  # its moves from the start
    best: int  # the least 1 + bound of the children finished so far (or left out)
    entries: list[Child]  # its children (:meth:`Ida.within`), best first
    index: int  # the child being searched: those before it are finished, those after untouched
    missed: bool  # the state was given a tetrapod check that did not cut it


class Ida(Search):
    """One IDA* search: the iterations, the depth-first search, the table and the journal.

    Parameters
    ----------
    g : RegionGraph
        The board.
    final_colour : int or None
        The colour the board must end in, if required.
    node_limit : int or None
        States expanded before :class:`~kamicp.procs.deadline.LimitReached`.
    deadline : float, Deadline or None
        A ``time.monotonic()`` value, or a :class:`~kamicp.procs.deadline.Deadline`.
    walk_depth : int or None
        See :class:`IdaOptions`.
    """

    def __init__(self, g, final_colour, node_limit, deadline, walk_depth=None):
        super().__init__(g, final_colour, node_limit, deadline)
        self.table: dict[bytes, int] = {}  # state -> proved lower bound on its distance
        self.walk_depth = -1 if g.rules != "free" else walk_depth
        self.walk_budget = INF  # nodes with at least this budget get the walk check
        self.on_bound: Callable[[int], None] | None = None
        self.path: list[Move] = []
        self.threshold = 0  # of the current iteration: a node's depth is threshold - budget
        self.checks = Checks(g, final_colour, self.deadline)
        self.checks.record = self.journal_check
        self.rentals = Rentals(self.checks, self.tetrapod_tally)
        self.on_status: Callable[[str], None] | None = None
        self.journal: Journal | None = None  # where proved bounds are also written
        self.journal_taken = 0  # entries read from it at the start
        self.next_status = time.monotonic() + STATUS_EVERY

    def configure(self, options: IdaOptions) -> None:
        """Take the options of ``options`` but ``walk_depth`` (given when made), ``workers``,
        ``split_after`` and ``journal`` (the callers' own)."""
        self.on_bound = options.on_bound
        self.checks.configure(options.tripod_after, options.check_ratio, options.tetrapod_depth)
        self.on_status = options.on_status

    def run(self, max_moves: int | None, lower: int = 0) -> SearchOutcome:
        """The iterations, from the start's best cheap bound (at least ``lower``) up, until
        a solution, ``max_moves`` refuted, or a limit (see :func:`serial_idastar`)."""
        root = contract(self.g)
        threshold = self.first_threshold(root, lower)
        while True:
            if threshold >= INF:
                return SearchOutcome(None, UNSOLVABLE, True, self.nodes)
            if max_moves is not None and threshold > max_moves:
                return SearchOutcome(None, threshold, True, self.nodes)
            self.walk_budget = threshold - self.walk_depth if self.walk_depth >= 0 else INF
            if self.on_bound is not None:
                self.on_bound(threshold)
            self.threshold = threshold
            self.checks.new_iteration()
            try:
                found = self.iterate(root, threshold)
            except LimitReached:
                return SearchOutcome(None, threshold, False, self.nodes)
            if found <= threshold:
                self.path.reverse()
                return SearchOutcome(self.path, len(self.path), True, self.nodes)
            threshold = found

    def first_threshold(self, root: Current, lower: int) -> int:
        """The first iteration's threshold: the start's best cheap bound, at least ``lower``."""
        cheap = self.bound(root, 0)
        threshold = max(lower, cheap)
        if self.walk_depth is None or self.walk_depth >= 0:
            walks = walks_bound(root, self.final_colour)  # no piece is finished at the root
            if self.walk_depth is None:
                self.walk_depth = WALK_DEPTH if walks > cheap else -1
            threshold = max(threshold, walks)
        if self.g.rules == "free":
            # the tripod bound (Bound 7) only at the root: it costs seconds on big pieces; it
            # is cached, so a driver that computed it already pays nothing here; so is the
            # tetrapod bound (Bound 8), which only a driver asks (kamicp.solving.solve)
            threshold = max(threshold, tetrapods_bound(root, self.final_colour, cached_only=True))
        return threshold

    def tripod_tally(self) -> tuple[float, float]:
        """The iteration's tripod checks so far: (asked, cut)."""
        return self.checks.tripod_tally()

    def tetrapod_tally(self) -> tuple[float, float, float]:
        """The run's tetrapod checks so far: (asked, cut, seconds)."""
        return self.checks.tetrapod_tally()

    def iterate(self, root: Current, threshold: int) -> int:
        """One iteration: :meth:`dfs` from the start (:mod:`kamicp.search.ida.engine` farms
        it out)."""
        return self.dfs(root, 0, threshold, None)

    def tick(self) -> None:
        """Count a state expanded; report if due; check a rented state whose time is up."""
        super().tick()
        self.report_if_due()
        if self.rentals.path:
            self.rentals.rent_if_due()

    def report_if_due(self) -> None:
        """:meth:`report`, if someone listens and a report is due."""
        if self.on_status is not None and time.monotonic() >= self.next_status:
            self.report()

    def report(self) -> None:
        """Tell ``on_status`` how the search stands, and when to tell it next."""
        self.next_status = time.monotonic() + STATUS_EVERY
        self.on_status(self.status())

    def status(self) -> str:
        """How the search stands, in one line: the iteration (its threshold, the moves it
        looks for a solution within, and how long it has run), the states expanded since the
        start, the tripod checks of the iteration and the tetrapod checks of the run, each
        with the states it cut."""
        seconds = time.monotonic() - self.checks.began
        asked, cut = self.tripod_tally()
        parts = [
            f"searching {self.threshold} moves for {seconds:.0f} s",
            f"{self.nodes:,} states",
            f"tripod checks {asked:,.0f} ({cut:,.0f} cut)",
        ]
        asked, cut, spent = self.tetrapod_tally()
        if self.checks.tetrapod_depth > 0 or asked:
            parts.append(f"tetrapod checks {asked:,.0f} ({cut:,.0f} cut, {spent:.0f} s)")
        shared = self.checks.shared
        if shared:
            noun = "check" if shared == 1 else "checks"
            parts.append(f"{shared:,} {noun} shared by isomorphic states")
        if self.journal is not None:
            taken, written = self.journal_taken, self.journal.written
            parts.append(f"journal {taken:,} entries taken, {written:,} written")
        return "; ".join(parts)

    def walk_check(self, cur: Current, first: int, budget: int) -> int:
        """The walk bound of a state, exact up to ``budget`` (above it, some bound that
        exceeds ``budget``): Bound 6, too costly for every node, so it is asked only within
        ``walk_depth`` moves of the root."""
        alive, final = frame(cur, first, self.final_colour)
        if not alive:
            return INF
        return walks_bound_capped(cur, final, budget)

    def keep(self, key: bytes, value: int, depth: int) -> None:
        """Keep a state's proved lower bound in the table, and in the journal if the state
        is at most JOURNAL_DEPTH moves deep (deeper ones are many, and cheap to find again)."""
        self.table[key] = value
        if self.journal is not None and depth <= JOURNAL_DEPTH:
            self.journal.bound(key, value)

    def journal_check(self, kind: str, key: bytes, value: int, cap: int) -> None:
        """Write a check's value to the journal, if there is one."""
        if self.journal is not None:
            self.journal.check(kind, key, value, cap)

    def learn(self, journal: Journal) -> None:
        """Take what ``journal`` holds for this search into the table and the check caches."""
        learnt = journal.load()
        self.table.update(learnt.bounds)
        self.checks.tripod_values.update(learnt.tripods)
        self.checks.tetrapod_values.update(learnt.tetrapods)
        self.journal = journal
        self.journal_taken = len(learnt)

    def dfs(self, cur: Current, first: int, budget: int, after: int | None) -> int:
        """A value <= ``budget`` when a solution within ``budget`` was found (its moves are
        pushed on ``self.path``, last first); else a proved lower bound > ``budget``."""
        if cur.is_solved(self.final_colour):
            return 0
        # The last move's context is part of the key: what is pruned below depends on it (R5, R6).
        key = transposition_key(cur, first, after)
        known = self.table.get(key, 0)
        if known > budget:
            return known
        self.tick()
        depth = self.threshold - budget
        if budget >= self.walk_budget:
            w = self.walk_check(cur, first, budget)
            if w > budget:
                self.keep(key, max(known, w), depth)
                return w
        checks, rentals = self.checks, self.rentals
        tripods = None
        if checks.tripods_due(depth):
            tripods = checks.tripod_check(cur, first, budget, depth)
        if tripods is not None and tripods > budget:
            self.keep(key, max(known, tripods), depth)
            return tripods
        rental = rentals.rent(cur, first, budget, depth)
        if isinstance(rental, int):
            self.keep(key, max(known, rental), depth)
            return rental
        if rental is None:
            return self.children(cur, first, budget, after, key, known, depth, tripods)
        rentals.path.append(rental)
        ran_short = False
        try:
            value = self.children(cur, first, budget, after, key, known, depth, tripods)
            ran_short = rental.open
            return value
        except Cut as cut:
            if cut.rental is not rental:
                raise
            self.keep(key, max(known, cut.value), depth)
            return cut.value
        finally:
            rentals.path.pop()
            rentals.ended(rental, ran_short)

    def children(self, cur, first, budget, after, key, known, depth, tripods) -> int:
        """The rest of :meth:`dfs`: search the children of a state that no check cut."""
        began = time.monotonic()
        # Children in the order of their own bounds; the table's bounds (learnt in failed
        # iterations) only cut off: ordering by them hurts. Children
        # certainly over budget may be left out; ``best`` starts at their floor.
        entries, best = self.within(cur, first, after, budget)
        for i, child in enumerate(entries):
            h, move = child.bound, child.move
            context = self.context(cur, move, child.minus_merged)
            if 1 + h <= budget:
                child_key = self.key_of(cur, child) + context_bytes(context)
                h = max(h, self.table.get(child_key, 0))
            if 1 + h > budget:
                best = min(best, 1 + h)
                continue
            try:
                r = self.dfs(self.build(cur, child), child.first, budget - 1, context)
            except Split as split:  # a parallel task stops here: note what this level holds
                missed = depth <= DEEPEST_DEPTH and self.rentals.missed[depth]
                split.levels.append(Level(cur, budget, depth, best, entries, i, missed))
                raise
            if r <= budget - 1:
                self.path.append(move)
                return r + 1
            best = min(best, 1 + r)
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()  # memory: forgetting bounds only costs time
        self.keep(key, max(known, best), depth)
        if tripods is None:  # only the times of unchecked states estimate what a cut saves
            self.checks.searched(depth, began)
        return best
