"""Choosing and running a python-sat solver within a time limit (``encodings/sat.md``,
"Solvers (python-sat 1.9.dev17)").

Every solver but Kissat takes assumptions; CaDiCaL (all versions) cannot be interrupted from
another thread, so time limits use conflict budgets in slices (:func:`run_sliced`); Glucose,
MapleSAT, MiniSat, Gluecard, MergeSat and Ergo are interrupted by a timer
(:func:`run_interrupted`), and both kinds by Ctrl-C, as they solve off the main thread.
Proof logging: CaDiCaL 1.0.3/1.5.3/1.9.5/3.0.0, Glucose 3/4/4.2, Gluecard, Lingeling,
MapleSAT variants (MapleSAT proofs are known not to check; avoid).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from pysat.solvers import Solver, SolverNames

from kamicp.procs.deadline import Deadline
from kamicp.procs.interruptible import run_interruptibly

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
