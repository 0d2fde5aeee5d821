"""A hard time limit for an exact model that cannot be interrupted: run it in a child.

CaDiCaL runs in conflict slices and one slice can overrun the time limit by many seconds,
so a time-limited ``sat`` run is contained: the horizon driver (:func:`exact_run`) runs in
a forked child (:mod:`kamicp.procs.child`) that reports its bounds after every horizon,
and is killed ``GRACE`` seconds after the time limit. A stopped run still answers with the
best lower bound proved and the best solution found, as bounds, never as optimal.
"""

from __future__ import annotations

import multiprocessing as mp

from kamicp.game.regions import RegionGraph
from kamicp.procs import progress
from kamicp.procs.child import ERROR, Child, answer
from kamicp.procs.deadline import Deadline
from kamicp.procs.progress import say, tell
from kamicp.result import Result
from kamicp.solving.horizons import exact, horizon_factory
from kamicp.solving.options import SolveOptions
from kamicp.solving.upper_bound import finish, unknown

__all__ = ["CONTAINED", "GRACE", "exact_run", "run_contained"]

CONTAINED = ("sat",)  # CaDiCaL runs in conflict slices, and a slice can run past the limit
GRACE = 0.5  # seconds past the limit before a contained run is stopped (its answer is then
# the bounds it reported): a command then ends within its limit and a second, exit included


def exact_run(g: RegionGraph, solver: str, options: SolveOptions) -> Result:
    """Solve ``g`` with the horizon driver (:func:`kamicp.solving.horizons.exact`).

    Parameters
    ----------
    g : RegionGraph
        The board.
    solver : str
        ``sat`` or ``cpsat``.
    options : SolveOptions
        ``max_moves``, ``final_colour``, ``time_limit``, ``workers``, ``probe``,
        ``strategy``, ``known`` and ``lower`` are used.

    Returns
    -------
    Result
        Its ``solver`` left empty.
    """
    factory = horizon_factory(solver, options.workers)
    clock = Deadline.after(options.time_limit)
    return exact(g, factory, options, clock)


def _child(conn, g: RegionGraph, solver: str, options: SolveOptions) -> None:
    progress.contained_parent.append(conn)
    answer(conn, lambda: exact_run(g, solver, options))  # any exception: the parent raises it


def run_contained(g: RegionGraph, solver: str, options: SolveOptions) -> Result:
    """Run :func:`exact_run` in a forked child, stopped ``GRACE`` s after the time limit.

    Parameters
    ----------
    g, solver, options
        As for :func:`exact_run`; ``options.time_limit`` must be set.

    Returns
    -------
    Result
        The child's answer, or, when it was stopped (time limit, Ctrl-C), the bounds it
        had reported (:func:`kamicp.procs.progress.tell`).

    Raises
    ------
    Exception
        What the child raised.
    """
    child = Child(mp.get_context("fork"), _child, (g, solver, options))
    state = {"lower": None, "best": None, "result": None}
    why = "time limit: bounds only"
    try:
        _listen(child, state, Deadline.after(options.time_limit + GRACE))
    except KeyboardInterrupt:
        # The child saw Ctrl-C too (same process group) and answers with its bounds.
        why = "interrupted: bounds only"
        _listen(child, state, Deadline.after(2 * GRACE))
    finally:
        child.stop()
    if state["result"] is not None:
        return state["result"]
    return _stopped(g, options, state["lower"], state["best"], why)


def _listen(child: Child, state: dict, deadline: Deadline) -> None:
    """Read the child's messages into ``state`` until its result, the pipe's end or
    ``deadline``."""
    if state["result"] is not None:
        return
    for kind, value in child.messages(deadline):
        if kind == "progress":
            state["lower"], state["best"] = value
            tell(*value)  # passed on to a portfolio, if this run is one of its backends
        elif kind == "status":
            say(value)
        elif kind == ERROR:
            raise value
        else:
            state["result"] = value
            return


def _stopped(g: RegionGraph, options: SolveOptions, lower, best, why: str) -> Result:
    """The bounds a stopped contained run had reported (or the start's, if none)."""
    final_colour, max_moves = options.final_colour, options.max_moves
    if lower is None:
        return unknown(g, final_colour, why)
    fits = best is not None and (max_moves is None or len(best) <= max_moves)
    if fits and lower >= len(best):
        return finish(best, len(best), max_moves, f"lower bound {lower} proved, met by a solution")
    return Result(
        status="feasible" if fits else "unknown",
        solution=best,
        lower_bound=lower,
        upper_bound=None if best is None else len(best),
        solver="",
        proof=why,
    )
