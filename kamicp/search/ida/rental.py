"""Rented tetrapod checks: a state's costly check is made only once its subtree has run long.

With ``tetrapod_depth=AUTO`` no depth gets the tetrapod check up front. A state at most
:data:`~kamicp.search.ida.checks.AUTO_DEPTH` moves deep that no check cut is *rented*: once its
subtree has been searched for as long as a check costs over the share of checks that cut
(:func:`rent_time`), the check is made after all, and ends the subtree if it cuts. That is
ski rental: a subtree that ends sooner never pays for a check, one that runs long pays at most
about twice what checking it first would have. Below a check that missed, the states down to
:data:`~kamicp.search.ida.checks.DEEPEST_DEPTH` moves deep are checked up front.

Examples
--------
>>> rent_time(0, 0, 0.0)  # before any check: AUTO_GUESS over one half
2.0
>>> rent_time(4, 3, 2.0)  # checks of 0.5 s, (3 + 1) of (4 + 2) cut
0.75
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kamicp.bounds import Current
from kamicp.search.ida.checks import (
    AUTO_DEPTH,
    AUTO_GUESS,
    AUTO_SAMPLES,
    DEEPEST_DEPTH,
    Checks,
    answers,
    checkable,
    tetrapods_apply,
)
from kamicp.search.moves import state_key

__all__ = ["Cut", "Rental", "Rentals", "rent_time"]


def rent_time(asked: float, cut: float, spent: float) -> float:
    """Seconds a rented subtree runs before its check is made.

    Parameters
    ----------
    asked, cut : float
        The tetrapod checks made so far, and those among them that cut.
    spent : float
        The seconds they took.

    Returns
    -------
    float
        The mean time of a check (AUTO_GUESS before the first) over the share that cut,
        with one cut and one miss assumed beforehand.
    """
    cost = spent / asked if asked else AUTO_GUESS
    return cost * (asked + 2) / (cut + 1)


class Cut(Exception):
    """A rented state's tetrapod check cut it: the search unwinds to that state."""

    def __init__(self, rental: Rental, value: int):
        super().__init__()
        self.rental = rental
        self.value = value


class Rental:
    """A state on the search path that may still get its tetrapod check."""

    __slots__ = ("cur", "key", "budget", "depth", "began", "open", "timed")

    def __init__(self, cur: Current, key: bytes, budget: int, depth: int, timed: bool = True):
        self.cur = cur
        self.key = key  # the check caches' key of the state
        self.budget = budget
        self.depth = depth  # its moves from the start
        self.began = time.monotonic()  # its subtree's clock, checks made below it left out
        self.open = True  # not yet checked
        # checked when its subtree has run long (within AUTO_DEPTH), else only when the
        # check of the state above it on the path misses (below AUTO_DEPTH)
        self.timed = timed


class Rentals:
    """The rented states of one search's path, and what the rents have taught.

    Parameters
    ----------
    checks : Checks
        The search's checks, which make the tetrapod checks and keep their values.
    tally : callable
        ``tally()``: the tetrapod checks (asked, cut, seconds) the rents are timed from
        (:func:`rent_time`): the search's own, or a coordinator's and its workers'.
    """

    def __init__(self, checks: Checks, tally: Callable[[], tuple[float, float, float]]):
        self.checks = checks
        self.tally = tally
        self.path: list[Rental] = []  # the rented states on the path, shallowest first
        self.rented: dict[int, list] = {}  # depth -> [states rented, their checks made]
        # missed[d]: the state d moves deep on the search path was checked and not cut
        self.missed = [False] * (DEEPEST_DEPTH + 1)

    def rent(self, cur: Current, first: int, budget: int, depth: int) -> Rental | int | None:
        """What becomes of a state's tetrapod check, with AUTO.

        Parameters
        ----------
        cur : Current
            The state, ``depth`` moves deep.
        first : int
            Its first open piece.
        budget : int
            Its moves left.
        depth : int
            Its moves from the start.

        Returns
        -------
        Rental, int or None
            A rental to put on the path (timed within AUTO_DEPTH; below it, due only when
            the check of the state above it misses); or the state's value when its check is
            made now and cuts it (the caches answer it, the state above it was checked and
            missed, or this depth's rentals mostly ran long); else None.
        """
        below_miss = 1 < depth <= DEEPEST_DEPTH and self.missed[depth - 1]
        if depth <= DEEPEST_DEPTH:
            self.missed[depth] = False  # a new state at this depth: not checked yet
        checks = self.checks
        if not (checks.auto and depth >= 1 and checkable(cur)):
            return None
        if not tetrapods_apply(cur, depth, DEEPEST_DEPTH):
            return None
        key = state_key(cur, first)
        timed = depth <= AUTO_DEPTH
        rented, checked = self.rented.get(depth, (0, 0))
        if (
            answers(*checks.tetrapod_values.get(key, (0, -1)), budget)
            or below_miss
            or (timed and rented >= AUTO_SAMPLES and 2 * checked >= rented)
        ):
            value = checks.tetrapod_check(cur, key, budget)
            if value > budget:
                return value
            self.note_miss(depth)
            return None
        return Rental(cur, key, budget, depth, timed)

    def note_miss(self, depth: int) -> None:
        """Note that the state ``depth`` moves deep on the path was checked and not cut: its
        children get their checks up front (within DEEPEST_DEPTH)."""
        if depth <= DEEPEST_DEPTH:
            self.missed[depth] = True

    def ended(self, rental: Rental, ran_short: bool) -> None:
        """Note how a rented state's subtree ended: within its time (``ran_short``) or
        checked. One unwound before either (an ancestor's cut, a split, the deadline) tells
        nothing of how long it would have run, and is not counted."""
        if rental.timed and (ran_short or not rental.open):
            entry = self.rented.setdefault(rental.depth, [0, 0])
            entry[0] += 1
            entry[1] += not rental.open

    def rent_after(self) -> float:
        """Seconds a rented subtree runs before its check is made (:func:`rent_time`)."""
        return rent_time(*self.tally())

    def rent_if_due(self) -> None:
        """Check the shallowest rented state whose subtree has run :meth:`rent_after`; if
        the check cuts it, unwind to it (:class:`Cut`)."""
        now = time.monotonic()
        after = self.rent_after()
        for i, rental in enumerate(self.path):
            if rental.open and rental.timed and now - rental.began >= after:
                self.check_rented(i)
                return

    def settle(self) -> None:
        """Make every open timed check on the path now (before a split, which drops the
        rentals: a check that cuts saves the subtree it splits); a cut unwinds to its
        state (:class:`Cut`)."""
        for i, rental in enumerate(self.path):
            if rental.open and rental.timed:
                self.check_rented(i)

    def check_rented(self, i: int) -> None:
        """Make the tetrapod check of the ``i``-th rented state on the path now; if it
        cuts the state, unwind to it (:class:`Cut`)."""
        rental = self.path[i]
        rental.open = False
        began = time.monotonic()
        value = self.checks.tetrapod_check(rental.cur, rental.key, rental.budget)
        spent = time.monotonic() - began
        for deeper in self.path[i + 1 :]:
            deeper.began += spent  # their clocks leave this check out
        if value > rental.budget:
            raise Cut(rental, value)
        self.note_miss(rental.depth)
        # the state below it on the path was met before this miss: its check is due now
        if i + 1 < len(self.path):
            below = self.path[i + 1]
            if below.open and below.depth == rental.depth + 1:
                self.check_rented(i + 1)
