"""CP-SAT horizon solver: "solvable in at most T moves (ending in a given colour)?".

Two models, one per rule set (both described with their proofs in ``encodings/cpsat.md``):

- :mod:`kamicp.models.cpsat.free` (KAMI 2): time-indexed colours of every region, one current
  region recoloured per step, connectivity through bounded-depth levels;
- :mod:`kamicp.models.cpsat.pivot` (Flood-It): the flooded set grows monotonically; an unflooded
  region keeps its colour, so it joins exactly when it touches the flood and the flood takes
  its colour.

:class:`CpsatHorizon` builds a fresh model per horizon (CP-SAT keeps nothing between solves)
and replays every solution through :func:`kamicp.game.rules.verify_solution` before returning it.
Reference: L. Perron and F. Didier, "CP-SAT", Google OR-Tools (2023), for the solver.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from kamicp.game import rules
from kamicp.game.regions import RegionGraph
from kamicp.models.cpsat.free import FreeOptions, build_free
from kamicp.models.cpsat.pivot import PivotOptions, build_pivot
from kamicp.procs.deadline import Deadline
from kamicp.procs.interruptible import run_interruptibly
from kamicp.result import SAT, UNKNOWN, UNSAT, Decision
from kamicp.search.greedy import greedy

__all__ = ["build_model", "CpsatHorizon"]


def build_model(
    g: RegionGraph,
    horizon: int,
    final_colour: int | None = None,
    hint: list[tuple[int, int]] | None = None,
    **options: bool | int,
) -> tuple[cp_model.CpModel, Any]:
    """The CP-SAT model of "``g`` solvable in at most ``horizon`` moves?" and its variables.

    Parameters
    ----------
    g : RegionGraph
        The puzzle; ``g.rules`` picks :func:`kamicp.models.cpsat.pivot.build_pivot` or
        :func:`kamicp.models.cpsat.free.build_free`.
    horizon : int
        The most moves allowed.
    final_colour : int or None
        The colour the board must end in, or None for any.
    hint : list of moves, optional
        A known solution of at most ``horizon`` moves, a search hint only.
    **options
        The optional parts of the model: the fields of
        :class:`kamicp.models.cpsat.free.FreeOptions` or
        :class:`kamicp.models.cpsat.pivot.PivotOptions`.

    Returns
    -------
    (CpModel, variables)
        The model, and its variables, whose ``.moves(solver)`` reads a solution back.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> model, _ = build_model(from_edges([0, 1, 0], [(0, 1), (1, 2)]), 1)
    >>> model.validate()
    ''
    """
    if g.rules == "pivot":
        return build_pivot(g, horizon, final_colour, PivotOptions(**options), hint)
    return build_free(g, horizon, final_colour, FreeOptions(**options), hint)


class CpsatHorizon:
    """Decides horizons of one region graph with CP-SAT (a ``HorizonSolver``).

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    final_colour : int or None
        The colour the board must end in, or None for any.
    workers : int
        CP-SAT's number of search workers (BENCHMARKS.md, "CP-SAT workers": 1 is best
        on 2 cores).
    **options
        The model's optional parts (see :func:`build_model`), plus
        ``seed`` (CP-SAT's random seed) and ``log`` (print CP-SAT's search log).

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> h = CpsatHorizon(from_edges([0, 1, 0], [(0, 1), (1, 2)]))
    >>> h.decide(0).status, h.decide(1).moves
    ('unsat', [(1, 0)])
    """

    name = "cpsat"

    def __init__(
        self, g: RegionGraph, final_colour: int | None = None, workers: int = 1, **options
    ):
        self.g = g
        self.final_colour = final_colour
        self.workers = workers
        self.seed = options.pop("seed", 0)
        self.log = options.pop("log", False)
        self.use_hints = options.get("hints", True)
        self.options = options
        self._hint: list | None = None
        self._hint_ready = False

    def _greedy_hint(self) -> list | None:
        """A greedy solution (:func:`kamicp.search.greedy.greedy`), to hint the search."""
        if not self._hint_ready:
            self._hint_ready = True
            try:
                moves = greedy(self.g, self.final_colour)
                if moves is not None:
                    rules.verify_solution(self.g, moves, self.final_colour)
                self._hint = moves
            except Exception:  # a hint is optional: a greedy that fails gives no hint
                self._hint = None
        return self._hint

    def decide(self, horizon: int, time_limit: float | None = None) -> Decision:
        """Solvable in at most ``horizon`` moves? sat (moves replayed), unsat or unknown.

        Parameters
        ----------
        horizon : int
            The most moves allowed.
        time_limit : float or None
            Seconds for the whole decision, model building included.

        Returns
        -------
        Decision
            ``sat`` with moves that :func:`kamicp.game.rules.verify_solution` replayed,
            ``unsat``, or ``unknown`` when the time ran out.

        Raises
        ------
        RuntimeError
            If CP-SAT finds the model invalid.
        """
        deadline = Deadline.after(time_limit)
        g, fc = self.g, self.final_colour
        if rules.is_solved(rules.start(g), fc):
            return Decision(SAT, horizon, [], deadline.elapsed())
        if horizon <= 0:
            return Decision(UNSAT, horizon, None, deadline.elapsed())
        # Stage 1, the model: variables and constraints (free.py / pivot.py), hinted
        # with a greedy solution when one fits the horizon.
        hint = None
        if self.use_hints:
            greedy_moves = self._greedy_hint()
            if greedy_moves is not None and len(greedy_moves) <= horizon:
                hint = greedy_moves
        model, variables = build_model(g, horizon, fc, hint=hint, **self.options)
        # Stage 2, the solve: no objective, a feasibility question within the time left.
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        solver.parameters.random_seed = self.seed
        solver.parameters.log_search_progress = self.log
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(0.01, deadline.left())
        # CP-SAT would take SIGINT itself and end as "unknown"; kamicp.procs.interruptible says why
        solver.parameters.catch_sigint_signal = False
        status = run_interruptibly(lambda: solver.solve(model), solver.stop_search)
        # Stage 3, the answer: a solution is read back and replayed.
        seconds = deadline.elapsed()
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            moves = variables.moves(solver)
            rules.verify_solution(g, moves, fc)
            return Decision(SAT, horizon, moves, seconds)
        if status == cp_model.INFEASIBLE:
            return Decision(UNSAT, horizon, None, seconds)
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"invalid CP-SAT model: {model.validate()}")
        return Decision(UNKNOWN, horizon, None, seconds)
