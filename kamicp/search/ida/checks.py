"""IDA*'s check policy: where the costly bounds (walks, tripods, tetrapods) are asked.

The cheap bounds prune every node; the walk, tripod and tetrapod bounds (``encodings/bounds.md``,
Bounds 6-8) cost milliseconds to seconds, so IDA* asks them only where a check is expected to
save more than it costs (``encodings/bounds.md``, "Where IDA* asks the costly bounds"). This
module holds the tuning constants of that policy, the functions that decide which states a
check applies to, and :class:`Checks`, which makes a search's checks and keeps their values.
Only the time changes with these constants, never a value the search proves.

Examples
--------
>>> from kamicp.bounds import contract
>>> from kamicp.game.regions import from_edges
>>> cur = contract(from_edges([0, 1, 2, 1, 0], [(i, i + 1) for i in range(4)]))
>>> checkable(cur), tripod_value(cur, 9, None, None)
(True, 2)
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kamicp.bounds import TETRAPOD_NODES, Current, kept_tripod_value, tetrapods_bound
from kamicp.game.regions import RegionGraph
from kamicp.procs.deadline import Deadline
from kamicp.search.isomorphs import Classes
from kamicp.search.moves import state_key

__all__ = [
    "AUTO",
    "AUTO_DEPTH",
    "AUTO_GUESS",
    "AUTO_SAMPLES",
    "CHECK_GUESS",
    "CHECK_NODES",
    "CHECK_RATIO",
    "DEEPEST_DEPTH",
    "FORCED_DEPTH",
    "FORCED_NODES",
    "MIN_SAMPLES",
    "TABLE_LIMIT",
    "TETRAPOD_DEPTH",
    "TRIPOD_AFTER",
    "WALK_DEPTH",
    "Checks",
    "answers",
    "checkable",
    "tetrapods_apply",
    "tripod_check_pays",
    "tripod_value",
]

TABLE_LIMIT = 2_000_000  # table and cache entries kept before one is cleared: memory vs. time
# The walk bound costs milliseconds a state: asked within this many moves of the start, where
# it beats the cheap bound there (BENCHMARKS.md, "IDA* walk checks": Bud3 refuting 16, 37.6 s
# at depth 1 against 53.0 s at the start only).
WALK_DEPTH = 1
# Seconds an iteration runs before the tripod checks start: a check costs hundredths of a
# second with the compiled levels, so checks pay from the start (BENCHMARKS.md, "IDA* tripod
# check rule": Bud4 refuting 14, 33.8 s against 116.6 s with checks after 30 s).
TRIPOD_AFTER = 0.0
# No tripod check on pieces above this many regions: there a check costs tenths of a second
# and grows about as n^4 (BENCHMARKS.md, "IDA* tripod check rule": 0.2-0.7 s on 150-173 regions).
CHECK_NODES = 200
# A check must be expected to save this many times its cost: the expected saving, from the
# mean time of unchecked states, overestimates what a cut saves (BENCHMARKS.md, "IDA* tripod
# check rule": Bud3 94 s at 5 against 176 s at 2).
CHECK_RATIO = 5.0
# Every state this many moves deep or less gets the tripod check, where checks are cheap
# (BENCHMARKS.md, "IDA* tripod checks near the start": Bud4 refuting 14, 48.3 s at 0, 22.6 s at 3).
FORCED_DEPTH = 3
# ...only on boards of at most this many regions: a check grows about as n^4 (BENCHMARKS.md,
# "IDA* tripod checks near the start": Threegrid5 refuting 12, 206 s without, 894 s with).
FORCED_NODES = 120
CHECK_GUESS = 0.25  # seconds a tripod check is assumed to take before one is measured
# Unchecked states a depth needs before its mean time is trusted, on boards above FORCED_NODES:
# one slow first sample would have every later state checked (BENCHMARKS.md, "Limits found
# and mended": Threegrid5 refuting 12, unfinished after 400 s with 1 sample, 198 s with 8).
MIN_SAMPLES = 8
# The tetrapod check up front at most this many moves deep (0: none); a check costs seconds,
# so it pays only for proofs of many minutes (BENCHMARKS.md, "IDA* tetrapod checks": Bud6 on
# two processes, 615 s with it against 1,911 s without).
TETRAPOD_DEPTH = 0
# ``tetrapod_depth=AUTO``: no depth checked up front; a state's check is rented once its
# subtree has run as long as a check costs over the share that cut (ski rental;
# BENCHMARKS.md, "Rented tetrapod checks": Bud6 on one core, 332.6 s against 315.3 s at depth 2).
AUTO = None
AUTO_DEPTH = 2  # the states rented with a clock: at most this many moves deep
AUTO_GUESS = 1.0  # seconds a tetrapod check is assumed to take before one is measured
# A depth whose rentals mostly ran long (half of at least this many) has the rest checked up
# front, as ``tetrapod_depth`` would: the rent is then waste.
AUTO_SAMPLES = 8
# Below a check that missed, the states down to this depth are checked up front: they are cut
# far more often than renting finds out (BENCHMARKS.md, "Checks below a miss": Bud6 on one
# core, 110.0 s at 5 against 121.2 s at 4).
DEEPEST_DEPTH = 5


def checkable(cur: Current) -> bool:
    """Whether the tripod check is asked of a state at all.

    Returns
    -------
    bool
        True for one piece of at most :data:`CHECK_NODES` regions.
    """
    return len(cur.islands) == 1 and len(cur.islands[0]) <= CHECK_NODES


def tetrapods_apply(cur: Current, depth: int, tetrapod_depth: int) -> bool:
    """Whether a :func:`checkable` state its tripod check leaves gets the tetrapod check.

    Parameters
    ----------
    cur : Current
        The state, one piece.
    depth : int
        Its moves from the start.
    tetrapod_depth : int
        The deepest depth checked.

    Returns
    -------
    bool
        Within ``tetrapod_depth`` and on a piece of at most ``TETRAPOD_NODES`` regions
        (above, the tetrapod bound would only give the tripod value back).
    """
    return depth <= tetrapod_depth and len(cur.islands[0]) <= TETRAPOD_NODES


def tripod_value(cur: Current, budget: int, final_colour: int | None, deadline) -> int:
    """The tripod bound of a :func:`checkable` state, exact up to ``budget``.

    Parameters
    ----------
    cur : Current
        The state, one piece.
    budget : int
        Moves left; above it the value is only some bound that exceeds it.
    final_colour : int or None
        The colour the board must end in, if required.
    deadline : float or None
        A ``time.monotonic()`` value (compiled code takes the bare number).

    Returns
    -------
    int
        The bound.
    """
    finals = range(cur.k) if final_colour is None else (final_colour,)
    return kept_tripod_value(cur, cur.islands[0], finals, budget, deadline)


def tripod_check_pays(
    depth: int,
    searched: tuple[int, float],
    cuts: tuple[int, int],
    checks: tuple[int, float],
    min_samples: int,
    check_ratio: float,
) -> bool:
    """Whether a tripod check at a state ``depth`` moves deep is expected to save
    ``check_ratio`` times its cost, from what the iteration measured.

    Parameters
    ----------
    depth : int
        The state's moves from the start.
    searched : (int, float)
        The states of that depth searched without a check, and the seconds they took.
    cuts : (int, int)
        The checks asked at that depth, and those that cut.
    checks : (int, float)
        Every check of the iteration, and the seconds they took.
    min_samples : int
        States searched before their mean time is trusted (before: only the start's
        children are checked, which are few and the first may run for minutes).
    check_ratio : float
        The saving asked of a check, in checks' costs.

    Returns
    -------
    bool
        (share that cut, one cut and one miss assumed beforehand) x (mean time of an
        unchecked state) >= ``check_ratio`` x (mean time of a check, CHECK_GUESS before
        the first).

    Examples
    --------
    >>> tripod_check_pays(2, (16, 4.0), (8, 8), (10, 1.0), 8, 2.0)  # 0.9 x 0.25 >= 2 x 0.1
    True
    >>> tripod_check_pays(2, (16, 4.0), (8, 6), (10, 1.0), 8, 2.0)  # 0.7 x 0.25 < 0.2
    False
    """
    count, search_time = searched
    if count < min_samples:
        return depth == 1
    asked, cut = cuts
    made, check_time = checks
    cost = check_time / made if made else CHECK_GUESS
    return (cut + 1) / (asked + 2) * search_time / count >= check_ratio * cost


def answers(value: int, cap: int, budget: int) -> bool:
    """Whether a check's value computed with ``cap`` answers it at ``budget``.

    Returns
    -------
    bool
        True when the value is exact (at most its cap), or capped at ``budget`` or above
        (then any value above it is as good).
    """
    return value <= cap or budget <= cap


class Checks:
    """The costly checks of one search (:class:`kamicp.search.ida.Ida`): when to ask them,
    their caches, and what they cost and cut.

    Parameters
    ----------
    g : RegionGraph
        The board.
    final_colour : int or None
        The colour the board must end in, if required.
    deadline : Deadline
        Where a check stops (a search that takes a new deadline sets ``deadline``).

    Notes
    -----
    ``record`` (None, or ``record(kind, key, value, cap)``) is told every value kept: the
    search's journal. The tallies of the iteration (``asked``, ``cuts``, ``subtrees``) start
    again at :meth:`new_iteration`; the caches and the tetrapod tally last the run.
    """

    def __init__(self, g: RegionGraph, final_colour: int | None, deadline: Deadline):
        self.g = g
        self.final_colour = final_colour
        self.deadline = deadline
        self.record: Callable[[str, bytes, int, int], None] | None = None
        self.tripod_after: float | None = None  # None: no tripod checks
        self.check_ratio = CHECK_RATIO
        cheap = g.n <= FORCED_NODES
        self.forced_depth = FORCED_DEPTH if cheap else 0  # states this deep always checked
        self.min_samples = 1 if cheap else MIN_SAMPLES  # before a depth's mean is trusted
        self.tetrapod_depth = TETRAPOD_DEPTH
        self.auto = False  # the tetrapod checks rented (AUTO), not asked up front
        self.tripod_values: dict[bytes, tuple[int, int]] = {}  # state -> (value, its cap)
        self.tetrapod_values: dict[bytes, tuple[int, int]] = {}  # state -> (value, its cap)
        self.tetrapod_checks = [0, 0, 0.0]  # asked, states cut, seconds
        self.isomorphs = Classes()  # the classes of the states given a tetrapod check
        self.class_tetrapods: dict[int, tuple[int, int]] = {}  # class -> (value, its cap)
        self.shared = 0  # checks answered by an isomorphic state's
        self.new_iteration()

    def configure(self, tripod_after: float | None, check_ratio: float, tetrapod_depth) -> None:
        """Take the options of :class:`kamicp.search.ida.IdaOptions` on checks."""
        self.tripod_after = tripod_after
        self.check_ratio = check_ratio
        self.auto = tetrapod_depth is AUTO and self.g.rules == "free"
        self.tetrapod_depth = 0 if tetrapod_depth is AUTO else tetrapod_depth

    def new_iteration(self) -> None:
        """Start the iteration's tallies: the tripod rule learns afresh at each threshold."""
        self.began = time.monotonic()
        self.asked = [0, 0.0]  # tripod checks asked, seconds they took
        self.cuts: dict[int, list] = {}  # depth -> [tripod checks asked, states they cut]
        # depth -> [states searched without a check, seconds they took]
        self.subtrees: dict[int, list] = {}

    def tripods_due(self, depth: int) -> bool:
        """Whether to ask the tripod check at a state ``depth`` moves from the start:
        after ``tripod_after`` seconds of the iteration, every state at most
        ``forced_depth`` moves deep, elsewhere where :func:`tripod_check_pays` on this
        iteration's measurements."""
        if not self.tripods_apply(depth):
            return False
        if time.monotonic() - self.began < self.tripod_after:
            return False
        if depth <= self.forced_depth:
            return True
        return tripod_check_pays(
            depth,
            self.subtrees.get(depth, (0, 0.0)),
            self.cuts.get(depth, (0, 0)),
            self.asked,
            self.min_samples,
            self.check_ratio,
        )

    def tripods_apply(self, depth: int) -> bool:
        """Whether a state ``depth`` moves from the start may get the tripod check at all
        (free rules, checks not turned off, not the start)."""
        return self.tripod_after is not None and self.g.rules == "free" and depth >= 1

    def searched(self, depth: int, began: float) -> None:
        """Note a state ``depth`` moves deep searched without a check from ``began``."""
        entry = self.subtrees.setdefault(depth, [0, 0.0])
        entry[0] += 1
        entry[1] += time.monotonic() - began

    def tripod_check(self, cur: Current, first: int, budget: int, depth: int) -> int | None:
        """The tripod bound of a one-piece state, exact up to ``budget``.

        Returns
        -------
        int or None
            The value (above ``budget``: some bound that exceeds it), raised by the tetrapod
            check where that applies; None (not asked) on boards of several pieces or above
            :data:`CHECK_NODES` regions.
        """
        if not checkable(cur):
            return None
        # the same position is met again after other last moves (the table's key differs)
        key = state_key(cur, first)
        value, cap = self.tripod_values.get(key, (0, -1))
        if not answers(value, cap, budget):
            began = time.monotonic()
            value = tripod_value(cur, budget, self.final_colour, self.deadline.at)
            self.checked(key, budget, value, time.monotonic() - began, depth)
        if value <= budget and tetrapods_apply(cur, depth, self.tetrapod_depth):
            value = max(value, self.tetrapod_check(cur, key, budget))
        return value

    def cached(self, cur: Current, key: bytes, budget: int, depth: int) -> bool:
        """Whether :meth:`tripod_check` would answer from its caches alone (a journal's,
        say), computing nothing."""
        value, cap = self.tripod_values.get(key, (0, -1))
        if not answers(value, cap, budget):
            return False
        if value > budget or not tetrapods_apply(cur, depth, self.tetrapod_depth):
            return True
        return answers(*self.tetrapod_values.get(key, (0, -1)), budget)

    def tetrapod_check(self, cur: Current, key: bytes, budget: int) -> int:
        """The tetrapod bound (Bound 8) of a one-piece state, exact up to ``budget``.

        Kept per state, as the tripod checks, and per class of isomorphic states
        (:mod:`kamicp.search.isomorphs`: the bound is a function of the coloured graph, and
        a check costs seconds where naming the class costs milliseconds).
        """
        value, cap = self.tetrapod_values.get(key, (0, -1))
        if answers(value, cap, budget):
            return value
        like = self.isomorphs.index(cur)
        value, cap = self.class_tetrapods.get(like, (0, -1))
        if answers(value, cap, budget):
            self.store(self.tetrapod_values, "tetrapods", key, value, cap)
            self.shared += 1
            return value
        began = time.monotonic()
        value = tetrapods_bound(cur, self.final_colour, budget, self.deadline.at, peel=True)
        if self.deadline.expired():
            return value  # maybe from the levels done before the deadline: not kept
        self.kept_tetrapods(key, budget, value, time.monotonic() - began)
        self.class_tetrapods[like] = (value, budget)
        return value

    def store(self, values: dict, kind: str, key: bytes, value: int, cap: int) -> None:
        """Keep a check's value (exact up to ``cap``) in its cache (emptied when full), and
        tell ``record`` unless the deadline cut the check short (then maybe a weak bound
        that claims to be exact up to its cap)."""
        if len(values) >= TABLE_LIMIT:
            values.clear()
        values[key] = (value, cap)
        if self.record is not None and not self.deadline.expired():
            self.record(kind, key, value, cap)

    def kept_tetrapods(self, key: bytes, budget: int, value: int, seconds: float) -> None:
        """Keep a tetrapod check's value (capped at ``budget``) and what it cost and cut."""
        self.store(self.tetrapod_values, "tetrapods", key, value, budget)
        self.tetrapod_checks[0] += 1
        self.tetrapod_checks[1] += value > budget
        self.tetrapod_checks[2] += seconds

    def checked(self, key: bytes, budget: int, value: int, seconds: float, depth: int) -> None:
        """Keep a tripod check's value (capped at ``budget``) and what it cost and cut."""
        self.store(self.tripod_values, "tripods", key, value, budget)
        self.asked[0] += 1
        self.asked[1] += seconds
        entry = self.cuts.setdefault(depth, [0, 0])
        entry[0] += 1
        entry[1] += value > budget

    def tripod_tally(self) -> tuple[float, float]:
        """The iteration's tripod checks so far: (asked, cut)."""
        return self.asked[0], sum(entry[1] for entry in self.cuts.values())

    def tetrapod_tally(self) -> tuple[float, float, float]:
        """The run's tetrapod checks so far: (asked, cut, seconds)."""
        asked, cut, spent = self.tetrapod_checks
        return asked, cut, spent
