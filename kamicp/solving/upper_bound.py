"""What a solve knows before any search: the first upper bound, and the answers made of it.

Every solver starts from a greedy beam's solution (:mod:`kamicp.search.greedy`), replayed: the
quick beam (width ``WIDTH``), and where it does not meet the proved lower bound a wider one
(:data:`UPPER_WIDTH`). One solve asks for it several times, so each beam is computed once
per graph. A solve stopped before its search says anything answers with that solution and
the start's lower bound (:func:`unknown`); a board that no moves solve has its own answer
(:func:`never`); a solution and a proved lower bound make one (:func:`finish`). A board too
large for an exact answer spends the rest of its time limit on a shorter solution
(:func:`better_solution`).

Example (a path of four regions in two colours: the beam needs two moves, the optimum)::

    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0, 1], [(0, 1), (1, 2), (2, 3)])
    >>> len(greedy_solution(g, None))
    2
"""

from __future__ import annotations

import time
import weakref

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import RegionGraph
from kamicp.procs.deadline import LimitReached
from kamicp.result import Result
from kamicp.search import pivot_astar
from kamicp.search.greedy import BIG, WIDTH, greedy
from kamicp.search.sweep import central_sweeps

__all__ = [
    "SHORTEN_REGIONS",
    "UPPER_WIDTH",
    "beam",
    "better_solution",
    "finish",
    "greedy_solution",
    "never",
    "unknown",
]

# Beam width of the exact searches' first solution: a better first solution against the beam's
# time (BENCHMARKS.md, "Wide greedy beams": par or better on 7 of the 8 hardest KAMI 2 levels,
# width 4 on 3).
UPPER_WIDTH = 32
# Pivot boards of at most this many regions have their solution shortened by the A* when
# they are too large for an exact answer: the A*'s bitsets take n^2 bytes while they are
# built, 100 MB here, where a 500x500 board's 128,821 regions would take 16 GB.
SHORTEN_REGIONS = 10_000


def greedy_solution(
    g: RegionGraph,
    final_colour: int | None,
    width: int = UPPER_WIDTH,
    lower: int | None = None,
    deadline: float | None = None,
) -> list | None:
    """The greedy beam's solution, replayed. The exact searches start from a wide beam
    (``UPPER_WIDTH``), tried only when the quick one (``WIDTH``) does not already meet
    ``lower``, a proved lower bound (most small levels: there the wide beam only costs);
    ``--solver greedy`` and an interrupted run use the quick one alone. The quick beam
    always finishes (above :data:`~kamicp.search.greedy.BIG` regions it is
    the near-linear sweep); a wide one stopped by ``deadline`` gives nothing (its time
    grows about as its width: BENCHMARKS.md, "Wide greedy beams"), and is not tried on boards
    above :data:`~kamicp.search.greedy.BIG` regions, where the sweep the quick one is stops
    at ``deadline`` too and gives nothing."""
    try:
        moves = beam(g, final_colour, WIDTH, deadline if g.n > BIG[g.rules] else None)
    except LimitReached:
        return None
    if (
        width > WIDTH
        and g.n <= BIG[g.rules]
        and moves is not None
        and (lower is None or len(moves) > lower)
    ):
        try:
            wide = beam(g, final_colour, width, deadline)
        except LimitReached:
            wide = None
        if wide is not None and len(wide) < len(moves):
            moves = wide
    if moves is not None:
        rules.verify_solution(g, moves, final_colour)
    return moves


_BEAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # graph -> {(final, width): moves}


def beam(
    g: RegionGraph, final_colour: int | None, width: int, deadline: float | None = None
) -> list | None:
    """``greedy(g, final_colour, width)``, computed once per graph: one solve asks the quick
    beam up to three times (the tetrapods' cap, the search's first solution, the answer of
    a run stopped early)."""
    per_graph = _BEAMS.setdefault(g, {})
    if (final_colour, width) not in per_graph:
        per_graph[(final_colour, width)] = greedy(g, final_colour, width, deadline)
    moves = per_graph[(final_colour, width)]
    return None if moves is None else list(moves)  # the callers may extend theirs


def unknown(
    g: RegionGraph,
    final_colour: int | None,
    why: str,
    deadline: float | None = None,
    lower: int | None = None,
) -> Result:
    """The answer of a solve stopped before its search said anything: the start's lower
    bound (``lower`` if the caller has it, else as cached so far), then the quick beam's
    solution (none if a sweep is stopped by ``deadline``)."""
    if lower is None:
        # a deadline already past: only the bounds cached so far, nothing new is computed
        lower = bounds.lower_bound(g, final_colour=final_colour, deadline=time.monotonic())
    ub = greedy_solution(g, final_colour, WIDTH, deadline=deadline)
    return Result(
        status="unknown",
        solution=ub,
        lower_bound=lower,
        upper_bound=None if ub is None else len(ub),
        solver="",
        proof=why,
    )


def better_solution(
    g: RegionGraph, final_colour: int | None, moves: list, deadline: float
) -> list | None:
    """The shortest solution found before ``deadline`` that is shorter than ``moves``, or
    None: for a board too large for an exact answer, with time left in its limit.

    Pivot rules: the compiled A* shortens the solution's end again and again
    (:func:`~kamicp.search.pivot_astar.shorten`), until it finds nothing shorter, on boards
    of at most :data:`SHORTEN_REGIONS` regions (None on larger ones). Free rules:
    floods from ever less central sources (:func:`~kamicp.search.sweep.central_sweeps`),
    until every source is tried. Each solution is replayed.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    final_colour : int or None
        The colour the board must end in, or None for any.
    moves : list of (int, int)
        A solution (in ``final_colour``).
    deadline : float
        A ``time.monotonic()`` value: nothing is begun after it, and a search under way
        stops at it.

    Returns
    -------
    list of (int, int) or None
        The shorter solution.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0, 2, 0, 1, 0], [(i, i + 1) for i in range(6)])
    >>> moves = [(0, 1), (0, 0), (0, 2), (0, 0), (0, 1), (0, 0)]
    >>> len(better_solution(g, None, moves, time.monotonic() + 5))
    3
    """
    best = None
    try:
        if g.rules == "pivot":
            while g.n <= SHORTEN_REGIONS and time.monotonic() < deadline:
                found = pivot_astar.shorten(g, best or moves, final_colour, deadline=deadline)
                if found is None:
                    break
                best = found
        else:
            for found in central_sweeps(g, final_colour, deadline):
                if len(found) < len(best or moves):
                    best = found
                if time.monotonic() >= deadline:
                    break
    except LimitReached:  # the deadline, inside a sweep: what was found before stands
        pass
    if best is not None:
        rules.verify_solution(g, best, final_colour)
    return best


def never(g: RegionGraph, final_colour: int | None) -> Result:
    """A board that no sequence of moves solves (pivot rules with unreachable pieces)."""
    return Result(
        status="infeasible",
        solution=None,
        lower_bound=bounds.UNSOLVABLE,
        upper_bound=None,
        solver="",
        proof="unsolvable: the pivot cannot reach every piece of the board",
    )


def finish(moves: list | None, lb: int, max_moves: int | None, why: str) -> Result:
    """The answer made of a solution ``moves`` and a proved lower bound ``lb``.

    Parameters
    ----------
    moves : list of moves or None
        A replayed solution, or None.
    lb : int
        A proved lower bound on the optimum.
    max_moves : int or None
        The horizon asked, if any ("solvable in at most ``max_moves``?").
    why : str
        The proof, when the bound meets the solution.

    Returns
    -------
    Result
        ``optimal`` when the bound meets the solution; ``infeasible`` when the bound
        exceeds ``max_moves``; else ``feasible`` (a solution within ``max_moves``, or any
        without one) or ``unknown``.

    Examples
    --------
    >>> finish([(0, 1), (0, 0)], 2, None, "bound met").status
    'optimal'
    >>> finish(None, 3, 2, "").status
    'infeasible'
    """
    ub = None if moves is None else len(moves)
    if ub is not None and ub == lb:
        return Result("optimal", moves, lb, ub, "", proof=why)
    if max_moves is not None and lb > max_moves:
        return Result("infeasible", None, lb, ub, "", proof=f"admissible lower bound {lb}")
    if max_moves is not None and ub is not None and ub <= max_moves:
        return Result("feasible", moves, lb, ub, "", proof="")
    return Result("unknown" if max_moves is not None else "feasible", moves, lb, ub, "")
