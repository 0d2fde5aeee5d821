"""The SAT backend: horizon decisions with one incremental solver, DRAT proofs.

- :class:`SatHorizon` answers "solvable in at most T moves?" for rising T with ONE solver:
  each horizon adds its step layers and a goal switched on by an assumption literal, so what
  the solver learnt for T is kept for T+1 (every learnt clause follows from clauses that hold
  for all horizons). Solutions are replayed by :func:`kamicp.game.rules.verify_solution`.
- :func:`prove_unsat` refutes the fixed CNF of one horizon
  (:func:`kamicp.models.sat.cnf.cnf_for_horizon`, which also writes DIMACS) with a
  proof-logging solver and returns the DRAT proof.

The encoding is :func:`kamicp.models.sat.encoding.encoding` (specified in
``encodings/sat.md``).

Solvers (``encodings/sat.md``, "Solvers (python-sat 1.9.dev17)"): every solver but Kissat
takes assumptions; CaDiCaL (all versions) cannot be interrupted from another thread, so time
limits use conflict budgets in slices; Glucose, MapleSAT, MiniSat, Gluecard, MergeSat and
Ergo are interrupted by a timer (and by Ctrl-C: both kinds solve off the main thread). Proof
logging: CaDiCaL 1.0.3/1.5.3/1.9.5/3.0.0, Glucose 3/4/4.2, Gluecard, Lingeling, MapleSAT
variants (MapleSAT proofs are known not to check; avoid).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from pysat.solvers import Solver, SolverNames

from kamicp.game.regions import RegionGraph
from kamicp.game.rules import verify_solution
from kamicp.models.sat.cnf import cnf_for_horizon
from kamicp.models.sat.encoding import encoding
from kamicp.procs.deadline import Deadline
from kamicp.procs.interruptible import run_interruptibly
from kamicp.result import SAT, UNKNOWN, UNSAT, Decision

__all__ = [
    "DEFAULT_SOLVER",
    "PROOF_SOLVER",
    "PROOF_SOLVERS",
    "STATUS_EVERY",
    "new_solver",
    "canonical_solver",
    "run_limited",
    "run_interrupted",
    "run_sliced",
    "SatHorizon",
    "prove_unsat",
]

DEFAULT_SOLVER = "cadical195"
PROOF_SOLVER = "cadical153"
# Seconds: the longest conflict-budget slice of a CaDiCaL run; it bounds how late a time
# limit or a Ctrl-C is honoured (encodings/sat.md, "Solvers (python-sat 1.9.dev17)").
SLICE = 2.0
# A CaDiCaL run that someone watches (``kamicp solve --progress-every``) reports how it stands
# at most this often, between two slices (each slice ends with a restart; everything learnt
# is kept). Lingeling, which neither takes a budget nor an interrupt, solves in the main
# thread, where pysat's own SIGINT handler takes Ctrl-C (see kamicp.procs.interruptible).
# Tests set it to 0 on this module, where run_sliced looks it up.
STATUS_EVERY = 10.0
BUDGETED = ("cadical103", "cadical153", "cadical195", "cadical300")
INTERRUPTIBLE = (
    "ergo",
    "gluecard3",
    "gluecard4",
    "glucose3",
    "glucose4",
    "glucose42",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
    "minicard",
    "minisat22",
    "minisatgh",
    "minisatep",
)
PROOF_SOLVERS = ("cadical103", "cadical153", "cadical195", "cadical300", "glucose3", "glucose4",
                 "glucose42", "gluecard3", "gluecard4", "lingeling")  # fmt: skip


# CaDiCaL in focused mode only (no stabilising phases, as its "unsat" configuration): faster
# on the KAMI 2 horizons, both to refute them and to solve them. No bounded variable
# elimination: on Flood-It horizons it costs more than it saves (8 floodit-99 boards that
# SAT proves: 0.69x the time without it; the KAMI 2 levels measured no difference).
CADICAL_OPTIONS = {"stabilize": 0, "elim": 0}
CONFIGURABLE = ("cadical153", "cadical195", "cadical300")


def new_solver(canon: str, clauses: list[list[int]] = (), with_proof: bool = False) -> Solver:
    """A pysat solver by canonical name, CaDiCaL tuned with :data:`CADICAL_OPTIONS`.

    Parameters
    ----------
    canon : str
        pysat's canonical solver name (see :func:`canonical_solver`).
    clauses : list of clauses
        Clauses to start with (added after the options, as CaDiCaL requires).
    with_proof : bool
        Log a DRAT proof.

    Returns
    -------
    pysat.solvers.Solver
        The solver; the caller deletes it (or uses it as a context manager).
    """
    solver = Solver(name=canon, with_proof=with_proof)
    if canon in CONFIGURABLE:
        solver.configure(CADICAL_OPTIONS)
    solver.append_formula(clauses)
    return solver


def canonical_solver(name: str) -> str:
    """pysat's canonical name of a solver.

    Parameters
    ----------
    name : str
        A name or alias pysat knows, in any case.

    Returns
    -------
    str
        The canonical name.

    Raises
    ------
    ValueError
        If pysat knows no such solver.

    Examples
    --------
    >>> canonical_solver("CD19")
    'cadical195'
    """
    low = name.lower()
    for canon, aliases in vars(SolverNames).items():
        if not canon.startswith("_") and isinstance(aliases, tuple) and low in aliases:
            return canon
    raise ValueError(f"unknown SAT solver {name!r}")


def run_limited(
    solver: Solver,
    canon: str,
    assumptions: list[int],
    time_limit: float | None,
    on_status: Callable[[dict], None] | None = None,
):
    """``solver.solve`` within ``time_limit`` seconds: True, False, or None (out of time).

    CaDiCaL cannot be interrupted through pysat, so it runs in conflict-budget slices
    (:func:`run_sliced`), with a time limit or without; the MiniSat-like ones are stopped by
    ``interrupt`` (:func:`run_interrupted`); Lingeling gets a plain solve and no time
    limit. All keep everything learnt.
    ``on_status`` (CaDiCaL only) is called between slices, at most every
    :data:`STATUS_EVERY` seconds, with the solver's counts (``accum_stats``: conflicts,
    decisions, ...).

    Parameters
    ----------
    solver : pysat.solvers.Solver
        The solver, with its clauses.
    canon : str
        Its canonical name (which way it can be stopped).
    assumptions : list of int
        Literals assumed for this solve.
    time_limit : float or None
        Seconds; None for no limit.
    on_status : callable, optional
        Told the solver's counts between CaDiCaL's slices.

    Returns
    -------
    bool or None
        True (satisfiable), False (unsatisfiable) or None (out of time).

    Raises
    ------
    ValueError
        If a time limit is asked of a solver that cannot be stopped (Lingeling).
    """
    if canon in BUDGETED:
        return run_sliced(solver, assumptions, time_limit, on_status)
    if canon in INTERRUPTIBLE:
        return run_interrupted(solver, assumptions, time_limit)
    if time_limit is None:
        return solver.solve(assumptions=assumptions)
    raise ValueError(f"solver {canon} cannot be stopped: no time limit possible")


def run_interrupted(solver: Solver, assumptions: list[int], time_limit: float | None):
    """A solver that pysat can ``interrupt`` (MiniSat-like ones), off the main thread
    (:mod:`kamicp.procs.interruptible`): a timer interrupts it at ``time_limit`` (None: no
    timer), and so does a Ctrl-C or SIGTERM. True, False or None (out of time).

    pysat leaves it undefined what a SIGINT does to a solve that expects ``interrupt``;
    in the helper thread the solver never sees the signal: Python's handler in the main
    thread takes it and calls ``interrupt``.
    """
    timer = None
    if time_limit is not None:
        timer = threading.Timer(max(0.0, time_limit), solver.interrupt)
        timer.start()
    try:
        return run_interruptibly(
            lambda: solver.solve_limited(assumptions=assumptions, expect_interrupt=True),
            stop=solver.interrupt,
        )
    finally:
        if timer is not None:
            timer.cancel()
        solver.clear_interrupt()


def run_sliced(
    solver: Solver,
    assumptions: list[int],
    time_limit: float | None,
    on_status: Callable[[dict], None] | None = None,
):
    """CaDiCaL in conflict-budget slices of at most :data:`SLICE` seconds, sized from the
    slowest conflict rate seen to end near the deadline: True, False or None (out of time).

    Each slice runs off the main thread (:mod:`kamicp.procs.interruptible`: pysat's own SIGINT
    handler hung or crashed the process), so Ctrl-C and SIGTERM stop the solve between two
    slices, through Python's handlers, at most :data:`SLICE` seconds later.
    """
    deadline = Deadline.after(time_limit)
    budget = 1000
    slowest = None  # the lowest conflict rate seen: rates fall as clauses are learnt
    next_status = time.monotonic() + STATUS_EVERY
    while True:
        began = time.monotonic()
        if deadline.expired():  # the time limit, or the memory limit
            return None
        if on_status is not None and began >= next_status:
            on_status(solver.accum_stats())
            next_status = began + STATUS_EVERY
        solver.conf_budget(budget)
        answer = run_interruptibly(lambda: solver.solve_limited(assumptions=assumptions))
        if answer is not None:
            return answer
        # Slices of at most SLICE seconds, and at most half the time left, at the slowest
        # rate seen: rates fall as clauses are learnt, so a slice planned from a faster rate
        # would overshoot the deadline. A watched run's slices end by its next report.
        now = time.monotonic()
        rate = budget / max(now - began, 1e-3)
        slowest = rate if slowest is None else min(slowest, rate)
        room = SLICE if deadline.at is None else min(SLICE, 0.5 * (deadline.at - now))
        if on_status is not None:
            room = min(room, max(next_status - now, 0.1))
        budget = max(100, min(2 * budget, int(slowest * room)))


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
