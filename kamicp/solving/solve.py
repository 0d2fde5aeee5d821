"""Solve a board: the one entry point every command and tool goes through.

Every solver goes through :func:`solve`, which

1. computes the best admissible lower bound (:mod:`kamicp.bounds`) and a greedy upper bound
   (:mod:`kamicp.solving.upper_bound`: the quick beam, and the width-``UPPER_WIDTH`` beam where the
   quick one does not meet the lower bound); ``idastar`` then searches below that solution
   only;
2. for the exact models (``cpsat``, ``sat``, ``portfolio``), asks "solvable in at most T?"
   for horizons chosen by the strategy (:mod:`kamicp.solving.horizons`: the lower bound first, then
   the middle of the gap by default); every "no" is a proof that raises the lower bound,
   every "yes" a replayed solution that lowers the upper bound, until the two meet;
3. splits boards in pieces (free rules): the optimum is the minimum over the final colour
   of the sum over pieces of the moves that bring each piece to that colour;
4. replays every solution through the rules engine before returning it.

A time limit or Ctrl-C ends the search with the bounds proved so far (status ``unknown``).

:func:`solve` runs the driver (:mod:`kamicp.solving.driver`) with the portfolio
(:mod:`kamicp.solving.portfolio`) plugged in as the solver ``portfolio``; the portfolio's
backends run the driver themselves, one solver each, so neither module imports the other
through this one. What is asked travels as :class:`~kamicp.solving.options.SolveOptions`.
"""

from __future__ import annotations

from kamicp.game.regions import RegionGraph
from kamicp.result import Result
from kamicp.solving.driver import drive
from kamicp.solving.options import (
    DEFAULT_SOLVER,
    EXACT_SOLVERS,
    REFERENCE_SOLVERS,
    SOLVERS,
    TETRAPOD_DEPTH_SOLVERS,
    SolveOptions,
)
from kamicp.solving.portfolio import BACKENDS, PIVOT_BACKENDS, solve_portfolio

__all__ = [
    "DEFAULT_SOLVER",
    "EXACT_SOLVERS",
    "REFERENCE_SOLVERS",
    "SOLVERS",
    "TETRAPOD_DEPTH_SOLVERS",
    "SolveOptions",
    "solve",
]


def solve(
    g: RegionGraph, solver: str = DEFAULT_SOLVER, options: SolveOptions | None = None
) -> Result:
    """Solve ``g`` with ``solver``; with ``options.max_moves``, decide "solvable in at most N?".

    Every solver starts from the best admissible lower bound and a greedy beam's solution;
    the exact models (``cpsat``, ``sat``, ``portfolio``) then ask the horizons the strategy
    chooses until the bounds meet, the reference searches search below the beam's
    solution. A deep free-rule board (:func:`kamicp.solving.driver.is_deep`) runs the
    portfolio as IDA* on both of its processes.

    Parameters
    ----------
    g : RegionGraph
        The board.
    solver : str
        One of :data:`kamicp.solving.options.SOLVERS`.
    options : SolveOptions or None
        What is asked (None: the defaults, a proved optimum with no limit).

    Returns
    -------
    Result
        Its solution replayed by the rules engine; ``optimal`` rests on
        ``lower_bound == moves``. A time limit or Ctrl-C leaves the bounds proved so far
        (status ``unknown``; ``interrupted`` after Ctrl-C).

    Raises
    ------
    ValueError
        An unknown solver.
    kamicp.errors.IllegalMove
        ``options.known`` does not solve the board.
    kamicp.errors.InternalError
        A bug, or the run ran out of memory or lost a worker (with the bounds proved).

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 0, 1], [(0, 1), (1, 2), (2, 3)])
    >>> r = solve(g, "bfs")
    >>> r.status, r.moves
    ('optimal', 2)
    >>> solve(g, "idastar", SolveOptions(max_moves=1)).status
    'infeasible'

    Notes
    -----
    Exponential in the worst case: the problem is NP-hard.
    """
    return drive(g, solver, options, portfolio=_portfolio)


def _portfolio(g: RegionGraph, options: SolveOptions, start_bound: int, first=None) -> Result:
    """The portfolio with its default backends for the board's rules, as the driver asks it
    (``first``: the compiled A* under pivot rules, :data:`kamicp.solving.driver.FirstStep`)."""
    backends = PIVOT_BACKENDS if g.rules == "pivot" else BACKENDS
    return solve_portfolio(g, options, backends, start_bound, first)
