"""Horizon decisions of the SAT model: one incremental solver, and DRAT proofs.

- :class:`SatHorizon` answers "solvable in at most T moves?" for rising T with ONE solver:
  each horizon adds its step layers and a goal switched on by an assumption literal, so what
  the solver learnt for T is kept for T+1 (every learnt clause follows from clauses that hold
  for all horizons). Solutions are replayed by :func:`kamicp.game.rules.verify_solution`.
- :func:`prove_unsat` refutes the fixed CNF of one horizon
  (:func:`kamicp.models.sat.cnf.cnf_for_horizon`, which also writes DIMACS) with a
  proof-logging solver and returns the DRAT proof.

The encoding is :func:`kamicp.models.sat.encoding.encoding` (specified in
``encodings/sat.md``); the solvers are run by :mod:`kamicp.models.sat.solvers`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kamicp.game.regions import RegionGraph
from kamicp.game.rules import verify_solution
from kamicp.models.sat.cnf import cnf_for_horizon
from kamicp.models.sat.encoding import encoding
from kamicp.models.sat.solvers import (
    DEFAULT_SOLVER,
    PROOF_SOLVER,
    PROOF_SOLVERS,
    canonical_solver,
    new_solver,
    run_limited,
)
from kamicp.procs.deadline import Deadline
from kamicp.result import SAT, UNKNOWN, UNSAT, Decision

__all__ = ["SatHorizon", "prove_unsat"]


class SatHorizon:
    """Decide horizons of ``g`` with one incremental SAT solver (a ``HorizonSolver``).

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    final_colour : int or None
        The colour the board must end in, or None for any.
    solver_name : str
        A pysat solver that takes assumptions (any but Kissat).
    **options
        Parts of the encoding (see ``encodings/sat.md``): ``symmetry`` (default True: order
        of commuting moves, no pointless pairs), ``radius`` (free rules: ``"layers"`` by
        default, ``"exact"`` or ``"off"``), ``diameter`` (default False).

    Raises
    ------
    ValueError
        If the solver is unknown or ignores assumptions, or ``final_colour`` is outside
        the palette.

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> with SatHorizon(from_edges([0, 1, 0], [(0, 1), (1, 2)])) as sat:
    ...     print(sat.decide(0).status, sat.decide(1).moves)
    unsat [(1, 0)]
    """

    name = "sat"

    def __init__(
        self,
        g: RegionGraph,
        final_colour: int | None = None,
        solver_name: str = DEFAULT_SOLVER,
        **options: bool,
    ):
        self.g = g
        self.final_colour = final_colour
        self.canon = canonical_solver(solver_name)
        if self.canon == "kissat404":
            raise ValueError("Kissat ignores assumptions: it cannot run incrementally")
        self.encoding = encoding(g, final_colour, guarded=True, **options)
        self.solver = new_solver(self.canon)
        # told how a long horizon stands (Horizons sets it when someone watches)
        self.on_status: Callable[[str], None] | None = None

    def decide(self, horizon: int, time_limit: float | None = None) -> Decision:
        """Solvable in at most ``horizon`` moves (ending in the final colour, if given)?

        Parameters
        ----------
        horizon : int
            The most moves allowed; horizons may be asked in any order.
        time_limit : float or None
            Seconds for this decision, encoding included; None for no limit.

        Returns
        -------
        Decision
            ``sat`` with moves that :func:`kamicp.game.rules.verify_solution` replayed,
            ``unsat``, or ``unknown`` when the time ran out.
        """
        deadline = Deadline.after(time_limit)
        if horizon < 0:
            return Decision(UNSAT, horizon, seconds=0.0)
        guard = self.encoding.horizon(horizon)
        self.solver.append_formula(self.encoding.take())
        left = deadline.left()
        if left is not None and left <= 0:
            return Decision(UNKNOWN, horizon, seconds=deadline.elapsed())
        try:
            answer = run_limited(self.solver, self.canon, [guard], left, self._status(horizon))
        except Exception as err:  # pysat turns Ctrl-C inside a solver into its own error
            if "keyboard interrupt" in str(err).lower():
                raise KeyboardInterrupt from err
            raise
        seconds = deadline.elapsed()
        if answer is None:
            return Decision(UNKNOWN, horizon, seconds=seconds)
        if not answer:
            return Decision(UNSAT, horizon, seconds=seconds)
        moves = self.encoding.moves(self.solver.get_model(), horizon)
        verify_solution(self.g, moves, self.final_colour)
        return Decision(SAT, horizon, moves, seconds)

    def _status(self, horizon: int) -> Callable[[dict], None] | None:
        """What :func:`run_limited` calls to report how this horizon stands, one line to
        ``on_status``: the seconds and the solver's conflicts and decisions on it so far."""
        if self.on_status is None:
            return None
        began = time.monotonic()
        before = self.solver.accum_stats() or {}

        def status(stats: dict) -> None:
            counts = {key: stats.get(key, 0) - before.get(key, 0) for key in stats}
            self.on_status(
                f"deciding {horizon} moves for {time.monotonic() - began:.0f} s; "
                f"{counts.get('conflicts', 0):,} conflicts, {counts.get('decisions', 0):,} "
                "decisions"
            )

        return status

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> SatHorizon:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def prove_unsat(
    g: RegionGraph,
    horizon: int,
    final_colour: int | None = None,
    solver_name: str = PROOF_SOLVER,
    time_limit: float | None = None,
) -> tuple[str, list[str]]:
    """Refute :func:`cnf_for_horizon` with a proof-logging solver.

    Parameters
    ----------
    g : RegionGraph
        The puzzle.
    horizon : int
        The most moves allowed.
    final_colour : int or None
        The colour the board must end in, or None for any.
    solver_name : str
        A solver of :data:`PROOF_SOLVERS`.
    time_limit : float or None
        Seconds; None for no limit.

    Returns
    -------
    (str, list of str)
        ``('unsat', DRAT proof lines)``, ``('sat', [])`` or ``('unknown', [])`` on time-out.

    Raises
    ------
    ValueError
        If the solver does not log proofs.
    """
    canon = canonical_solver(solver_name)
    if canon not in PROOF_SOLVERS:
        raise ValueError(f"solver {canon} does not log proofs")
    cnf, _ = cnf_for_horizon(g, horizon, final_colour)
    with new_solver(canon, cnf.clauses, with_proof=True) as solver:
        answer = run_limited(solver, canon, [], time_limit)
        if answer is None:
            return UNKNOWN, []
        if answer:
            return SAT, []
        return UNSAT, list(solver.get_proof() or [])
