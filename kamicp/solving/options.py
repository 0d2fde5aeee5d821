"""What a solve is asked, apart from the board and the solver: one frozen :class:`SolveOptions`.

Also the names of the solvers :func:`kamicp.solving.solve.solve` takes, by kind, and of the
horizon strategies (:mod:`kamicp.solving.horizons`). This module imports nothing heavy, so
that the command line can offer these names without loading the solvers.

Examples
--------
>>> from dataclasses import replace
>>> options = SolveOptions(max_moves=4, time_limit=60)
>>> options.workers, options.strategy
(1, 'bisect')
>>> replace(options, workers=2).workers
2
>>> from argparse import Namespace
>>> SolveOptions.from_args(Namespace(time_limit=5.0, strategy=None, files=["a.txt"])).time_limit
5.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # an annotation only: the rules engine loads networkx
    from kamicp.game.rules import Move

__all__ = [
    "ARGUMENT_FIELDS",
    "DEFAULT_SOLVER",
    "DEFAULT_STRATEGY",
    "EXACT_SOLVERS",
    "PIVOT_SOLVERS",
    "REFERENCE_SOLVERS",
    "SOLVERS",
    "STRATEGIES",
    "TETRAPOD_DEPTH_SOLVERS",
    "SolveOptions",
]

REFERENCE_SOLVERS = ("bfs", "astar", "idastar", "greedy", "pivot-astar")
PIVOT_SOLVERS = ("pivot-astar",)  # pivot rules only
EXACT_SOLVERS = ("cpsat", "sat", "portfolio")
SOLVERS = EXACT_SOLVERS + REFERENCE_SOLVERS
TETRAPOD_DEPTH_SOLVERS = ("idastar", "portfolio")  # the portfolio passes it to its idastar
# The fields a command's arguments set by their own names; the final colour and a known
# solution are read against each puzzle, so the commands parse those themselves.
ARGUMENT_FIELDS = (
    "max_moves",
    "time_limit",
    "workers",
    "node_limit",
    "probe",
    "strategy",
    "tetrapod_depth",
    "beam_width",
    "journal",
    "ray",
)
# The portfolio proves the most, at the cost of a second process (BENCHMARKS.md, "KAMI 2 story
# set": 111 of the 115 levels at 60 s, where sat alone proves 102 and idastar 106); on pivot
# rules it starts with the compiled A* (kamicp.solving.driver.PIVOT_NODES).
DEFAULT_SOLVER = "portfolio"
STRATEGIES = ("bisect", "up", "down")  # the horizons asked, see kamicp.solving.horizons
DEFAULT_STRATEGY = "bisect"  # measured fastest: see BENCHMARKS.md, "Horizon strategies"


@dataclass(frozen=True)
class SolveOptions:
    """The options of one solve that do not depend on the solver; the defaults ask for a
    proved optimum with no limit.

    Parameters
    ----------
    max_moves : int or None
        Decide "solvable in at most ``max_moves`` moves?" instead of finding the optimum.
    time_limit : float or None
        Seconds; the answer then holds the bounds proved so far (status ``unknown``).
    final_colour : int or None
        The colour the board must end in; None for any.
    workers : int
        Processes (``idastar``) or CP-SAT workers (``cpsat``).
    node_limit : int or None
        A node budget for the reference searches (``bfs``, ``astar``, ``idastar``).
    probe : float
        Seconds of a first IDA* run for the exact models (at most a quarter of the time
        limit), see :meth:`kamicp.solving.horizons.Horizons.probe`.
    strategy : str
        The horizons the exact models are asked (:data:`STRATEGIES`).
    known : list of moves or None
        A solution the caller already has (a designer's, say): replayed, and the first
        upper bound, so what is left is to beat it or to prove nothing shorter exists.
    tetrapods : bool
        Ask the tetrapod bound at the start where it can matter (the portfolio gives it to
        its ``sat`` backend, so that ``idastar`` starts at once).
    tetrapod_depth : int or None
        ``idastar``: the tetrapod check also at the states at most that many moves deep
        (:func:`kamicp.search.ida.idastar`); None: where a subtree runs long.
    beam_width : int or None
        ``greedy``: the beam's width (default :data:`kamicp.search.greedy.WIDTH`). The other
        solvers: the width of the beam they start from, at least
        :data:`kamicp.solving.upper_bound.UPPER_WIDTH`.
    journal : str or None
        ``idastar`` (also the portfolio's): a journal file of proved bounds, read first
        and written as the search goes (:mod:`kamicp.search.ida.journal`).
    ray : str or None
        ``idastar``: its workers are the actors of the Ray cluster at this address
        (``"local"`` starts one; :mod:`kamicp.search.ida.cluster`).
    lower : int
        A lower bound already proved (the portfolio gives its backends the compiled A*'s):
        the exact models ask no horizon below it.
    """

    max_moves: int | None = None
    time_limit: float | None = None
    final_colour: int | None = None
    workers: int = 1
    node_limit: int | None = None
    probe: float = 0.0
    strategy: str = DEFAULT_STRATEGY
    known: list[Move] | None = None
    tetrapods: bool = True
    tetrapod_depth: int | None = None
    beam_width: int | None = None
    journal: str | None = None
    ray: str | None = None
    lower: int = 0

    @classmethod
    def from_args(cls, args: Any) -> SolveOptions:
        """The options a command's parsed arguments ask for: each field of
        :data:`ARGUMENT_FIELDS` from the argument of its name, where the command has one and
        it was given (an argument left at None keeps the field's default).

        Parameters
        ----------
        args : argparse.Namespace
            The parsed arguments of ``solve``, ``bench`` or another command.

        Returns
        -------
        SolveOptions
        """
        given = {name: getattr(args, name, None) for name in ARGUMENT_FIELDS}
        return cls(**{name: value for name, value in given.items() if value is not None})
