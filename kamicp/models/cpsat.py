"""CP-SAT horizon solver: "solvable in at most T moves (ending in a given colour)?".

Two models, one per rule set (both described with their proofs in ``encodings/cpsat.md``):

- :mod:`kamicp.models.cpsat_free` (KAMI 2): time-indexed colours of every region, one current
  region recoloured per step, connectivity through bounded-depth levels;
- :mod:`kamicp.models.cpsat_pivot` (Flood-It): the flooded set grows monotonically; an unflooded
  region keeps its colour, so it joins exactly when it touches the flood and the flood takes
  its colour.

:class:`CpsatHorizon` builds a fresh model per horizon (CP-SAT keeps nothing between solves)
and replays every solution through :func:`kamicp.game.rules.verify_solution` before returning it.
Reference: L. Perron and F. Didier, "CP-SAT", Google OR-Tools (2023), for the solver.
"""

from __future__ import annotations

import time
from typing import Any

from ortools.sat.python import cp_model

from kamicp.game import rules
from kamicp.game.regions import RegionGraph
from kamicp.procs.interruptible import run_interruptibly
from kamicp.result import SAT, UNKNOWN, UNSAT, Decision

Lit = Any  # a CP-SAT Boolean literal, or a Python bool for a constant


def neg(lit: Lit) -> Lit:
    """The negation of a literal; constants stay Python bools (``~True`` would be -2)."""
    if isinstance(lit, bool):
        return not lit
    return ~lit


class Clauses:
    """Adds clauses to a model, folding the Python-bool constants away.

    A clause with a true literal is dropped; false literals are removed; an empty clause
    makes the model infeasible (which is then the right answer).
    """

    def __init__(self, model: cp_model.CpModel):
        self.model = model

    def clause(self, *lits: Lit) -> None:
        out = []
        for lit in lits:
            if lit is True:
                return
            if lit is not False:
                out.append(lit)
        self.model.add_bool_or(out)

    def implies(self, a: Lit, b: Lit) -> None:
        self.clause(neg(a), b)


def build_model(
    g: RegionGraph,
    horizon: int,
    final_colour: int | None = None,
    hint: list[tuple[int, int]] | None = None,
    **options,
) -> tuple[cp_model.CpModel, Any]:
    """The CP-SAT model of "``g`` solvable in at most ``horizon`` moves?" and its variables.

    The second value reads a solution back (``.moves(solver)``); ``options`` switch the
    optional parts of the model (see :class:`kamicp.models.cpsat_free.FreeOptions` and
    :class:`kamicp.models.cpsat_pivot.PivotOptions`). ``hint`` is a known solution used as a
    search hint only.
    """
    if g.rules == "pivot":
        from kamicp.models.cpsat_pivot import PivotOptions, build_pivot

        return build_pivot(g, horizon, final_colour, PivotOptions(**options), hint)
    from kamicp.models.cpsat_free import FreeOptions, build_free

    return build_free(g, horizon, final_colour, FreeOptions(**options), hint)


class CpsatHorizon:
    """Decides horizons of one region graph with CP-SAT.

    ``workers`` is CP-SAT's number of search workers (1 measured best on 2 cores);
    ``options`` switch model parts on or off (for measurements), plus ``seed`` and
    ``log`` (print CP-SAT's search log).
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
        """A greedy solution (when :mod:`kamicp.search.greedy` exists), to hint the search."""
        if not self._hint_ready:
            self._hint_ready = True
            try:
                from kamicp.search.greedy import greedy

                moves = greedy(self.g, self.final_colour)
                if moves is not None:
                    rules.verify_solution(self.g, moves, self.final_colour)
                self._hint = moves
            except Exception:  # a hint is optional: no greedy, no hint
                self._hint = None
        return self._hint

    def decide(self, horizon: int, time_limit: float | None = None) -> Decision:
        """Solvable in at most ``horizon`` moves? sat (moves replayed), unsat or unknown."""
        start = time.monotonic()
        g, fc = self.g, self.final_colour
        if rules.is_solved(rules.start(g), fc):
            return Decision(SAT, horizon, [], time.monotonic() - start)
        if horizon <= 0:
            return Decision(UNSAT, horizon, None, time.monotonic() - start)
        hint = None
        if self.use_hints:
            greedy_moves = self._greedy_hint()
            if greedy_moves is not None and len(greedy_moves) <= horizon:
                hint = greedy_moves
        model, variables = build_model(g, horizon, fc, hint=hint, **self.options)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        solver.parameters.random_seed = self.seed
        solver.parameters.log_search_progress = self.log
        if time_limit is not None:
            left = time_limit - (time.monotonic() - start)
            solver.parameters.max_time_in_seconds = max(0.01, left)
        # CP-SAT would take SIGINT itself and end as "unknown"; kamicp.procs.interruptible says why
        solver.parameters.catch_sigint_signal = False
        status = run_interruptibly(lambda: solver.solve(model), solver.stop_search)
        seconds = time.monotonic() - start
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            moves = variables.moves(solver)
            rules.verify_solution(g, moves, fc)
            return Decision(SAT, horizon, moves, seconds)
        if status == cp_model.INFEASIBLE:
            return Decision(UNSAT, horizon, None, seconds)
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"invalid CP-SAT model: {model.validate()}")
        return Decision(UNKNOWN, horizon, None, seconds)
