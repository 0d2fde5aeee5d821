"""The portfolio: SAT and IDA* side by side in processes (under pivot rules, SAT raising the
horizon and SAT lowering it); the first proof wins.

Each process runs the whole search of :func:`kamicp.solving.driver.drive` with its own
backend (so the SAT solver keeps its learnt clauses from horizon to horizon). IDA* is in
because it proves the deep KAMI 2 levels the models do not (Threed5, Threegrid2, Bud2), SAT
because it proves the wide ones and every Flood-It board the compiled A* leaves
(:data:`PIVOT_BACKENDS`). CP-SAT is left out by default: on 2 cores a third process only
time-slices, and CP-SAT is slower than SAT (BENCHMARKS.md, "CP-SAT on the story set": a
median ratio of 3.3 on the KAMI 2 levels needing over 0.5 s); ``backends`` puts it back.
Under pivot rules the caller's first step, the compiled A*, runs in this process before
them (``first``), and ``sat-down`` starts beside it where it runs long (:data:`HEAD_START`).
The first process to finish with a proved status (optimal or infeasible) wins and the others
are stopped. While they run, the backends also report every lower bound they prove (IDA*:
each threshold it passes; SAT: each refuted horizon) and every solution they find; as soon as
one backend's lower bound meets another's solution (or, with ``max_moves``, exceeds it) the
answer is proved and both are stopped. The caller's admissible start bound counts as one
of those lower bounds (and settles ``max_moves`` below it before any backend starts), and
the backends start from it (``SolveOptions.lower``: no SAT horizon below it). When
neither finishes in time, the bounds of both are combined: the larger lower bound and the
shorter solution.

On a deep free-rule board (:func:`kamicp.solving.driver.is_deep`: a start bound at least 6 above
the colour bound) :func:`kamicp.solving.solve.solve` starts no portfolio: it gives both processes to
IDA* (``idastar --workers 2``), which on the deep boards measured proved as many as the
two backends, in less time in total (BENCHMARKS.md, "Deep boards").
"""

from __future__ import annotations

import multiprocessing as mp
from dataclasses import replace

from kamicp import bounds
from kamicp.game.regions import RegionGraph
from kamicp.plural import count_moves
from kamicp.procs import progress
from kamicp.procs.child import ERROR, Child, adopt_orphans, answer, ready
from kamicp.procs.deadline import Deadline
from kamicp.procs.progress import say, tell
from kamicp.result import Result
from kamicp.solving.driver import FirstStep, drive
from kamicp.solving.options import SolveOptions

__all__ = [
    "BACKENDS",
    "GRACE",
    "HEAD_START",
    "HEAD_START_AFTER",
    "PIVOT_BACKENDS",
    "PROVED",
    "STRATEGY_BACKENDS",
    "Told",
    "combine",
    "solve_portfolio",
]

BACKENDS = ("sat", "idastar")
# Under pivot rules both processes run SAT: one raises the horizon from the lower bound
# (``up``), the other lowers it below the best solution (``down``), so the refutations and
# the search for shorter solutions run side by side. The compiled A* runs first, in the
# calling process (kamicp.solving.driver.PIVOT_NODES), and settles the easy boards; on 22
# floodit-99 boards that it leaves, this pair took 0.75x the time of SAT beside the A*
# (BENCHMARKS.md, "Pivot rules: the default route").
PIVOT_BACKENDS = ("sat-up", "sat-down")
# Backends that are a solver asking its horizons in a strategy of its own
# (kamicp.solving.horizons.STRATEGIES), by name.
STRATEGY_BACKENDS = {"sat-up": ("sat", "up"), "sat-down": ("sat", "down")}
# Under pivot rules the caller's first step, the compiled A*, runs in this process; where it
# has not settled the board after HEAD_START_AFTER seconds, the backends of HEAD_START start
# beside it on the idle core, the others when it ends. A backend started before the A*'s
# bound is known asks a weaker bound of its own first, which changes its path: the delay
# keeps the boards the A* ends quickly on the usual route (floodit-99's boards of more than
# six colours leave it within 0.15 s) and gives the head start where it runs long (the five
# six-colour floodit-99 boards it leaves after 0.8-1.1 s: 9.7 s in all against 10.9 s).
HEAD_START = ("sat-down",)
HEAD_START_AFTER = 0.2
PROVED = ("optimal", "infeasible")
# Seconds a backend may take past the time limit to answer; then it is stopped and the bounds
# it told while running are what counts, so the command ends within a second of its limit
# (a SAT backend stops within one conflict slice, BENCHMARKS.md "Limits found and mended").
GRACE = 0.5


def _start(
    g: RegionGraph, backend: str, backends: tuple[str, ...], options: SolveOptions, bound: int
) -> Child:
    """Fork the process of ``backend`` (one of ``backends``), started from the proved lower
    bound ``bound``."""
    # Not a daemon: a backend may start a process of its own (``sat`` runs contained). One
    # backend asks the costly tetrapod bound (seconds) while the other starts: sat, which
    # rarely proves the deep levels where it pays, while idastar finds their solutions.
    tetrapods = backend == "sat" or "sat" not in backends and backend == backends[0]
    own = replace(options, tetrapods=tetrapods, lower=max(options.lower, bound))
    solver = backend
    if backend in STRATEGY_BACKENDS:
        solver, strategy = STRATEGY_BACKENDS[backend]
        own = replace(own, strategy=strategy)
    return Child(mp.get_context("fork"), _backend, (g, solver, own))


def _backend(conn, g: RegionGraph, backend: str, options: SolveOptions) -> None:
    progress.portfolio_parent.append(conn)  # proved bounds are sent on as they come (tell)
    # an exception is reported to the parent, which keeps the other backend's answer
    answer(conn, lambda: drive(g, backend, options), catch=Exception)


def solve_portfolio(
    g: RegionGraph,
    options: SolveOptions | None = None,
    backends: tuple[str, ...] = BACKENDS,
    start_bound: int = 0,
    first: FirstStep | None = None,
) -> Result:
    """Run every backend of ``backends`` in parallel on ``g``; see the module docstring.

    Parameters
    ----------
    g : RegionGraph
        The board.
    options : SolveOptions or None
        What every backend is asked (``time_limit``, ``max_moves``, ``final_colour``,
        ``workers``, ``known``, ...); ``tetrapods`` is set per backend.
    backends : tuple of str
        The solvers run side by side.
    start_bound : int
        An admissible lower bound the caller already proved (the start's tripod bound,
        say); the proof names it when it is what a backend's solution meets.
    first : callable or None
        A first step run in this process before the backends (the compiled A* under pivot
        rules): its proved answer is the answer, else its bounds are the backends' start.
        The backends of :data:`HEAD_START` start beside it once it has run
        :data:`HEAD_START_AFTER` seconds.

    Returns
    -------
    Result
        The first proved answer, or the best bounds of all (:func:`combine`).
    """
    options = SolveOptions() if options is None else options
    time_limit = options.time_limit
    told = Told(options.max_moves)
    settled = told.add("admissible bound", start_bound, None) if start_bound else None
    if options.known is not None:
        settled = told.add("given", None, options.known)
    if settled is not None:  # a given solution meets the bound, or the bound exceeds max_moves
        return settled
    limit = Deadline.after(time_limit)  # the backends' own limit, each from its start
    deadline = Deadline.after(None if time_limit is None else time_limit + GRACE)
    # A backend killed below leaves its contained SAT run to this process, which reaps it
    # (Child.stop): its CPU time and memory count in this process's, not init's.
    adopt_orphans()
    children: dict[Child, str] = {}
    started: list[Child] = []  # every one is stopped at the end, answered or not

    def start(names: tuple[str, ...], bound: int, known: list | None) -> None:
        for backend in names:
            own = replace(options, known=known, time_limit=limit.left())
            child = _start(g, backend, backends, own, bound)
            children[child] = backend
            started.append(child)

    results: list[Result] = []
    errors: list[str] = []
    try:
        if first is not None:
            early = tuple(b for b in backends if b in HEAD_START)
            clock = Deadline.after(HEAD_START_AFTER)

            def head_start() -> None:
                if early and not started and clock.expired():
                    start(early, start_bound, options.known)

            found = first(head_start)
            if found.status in PROVED or limit.expired():
                return found
            # what it proved is the other backends' start
            start_bound = max(start_bound, found.lower_bound)
            settled = told.add("admissible bound", start_bound, None)
            if found.solution is not None:
                settled = told.add("first step", None, found.solution)
            if settled is not None:
                return settled
            known = None if told.best is None else told.best[0]
            start(tuple(b for b in backends if b not in children.values()), start_bound, known)
        else:
            start(backends, start_bound, options.known)
        while children:
            answered = ready(list(children), deadline)
            if not answered:
                break
            for child in answered:
                kind, value = child.receive() or ("gone", None)
                name = children[child]
                if kind == "status":
                    say(value)  # how a backend's search stands, passed on as it is
                    continue
                if kind == "progress":
                    tell(*value)  # to whoever watches this solve (``kamicp solve --progress``)
                    met = told.add(name, *value)
                    if met is not None:
                        return met
                    continue
                del children[child]
                if kind == ERROR:
                    errors.append(f"{name}: {type(value).__name__}: {value}")
                if isinstance(value, Result):
                    if not value.proof.startswith(value.solver):
                        value.proof = f"{value.solver}: {value.proof}"
                    results.append(value)
                    if value.status in PROVED:
                        return value
    finally:
        for child in started:
            child.stop()
    return combine(results + told.results(), g, errors, options.max_moves)


class Told:
    """The bounds the backends reported while running (each a proved lower bound or a
    replayed solution of the whole board). When one backend's lower bound meets another's
    solution the optimum is proved and nobody needs to finish."""

    def __init__(self, max_moves: int | None = None):
        self.max_moves = max_moves
        self.lower: tuple[int, str] | None = None
        self.best: tuple[list, str] | None = None

    def add(self, name: str, lower: int | None, best: list | None) -> Result | None:
        """Take one report; the final answer if the bounds now settle it."""
        if lower is not None and (self.lower is None or lower > self.lower[0]):
            self.lower = (lower, name)
        if best is not None and (self.best is None or len(best) < len(self.best[0])):
            self.best = (best, name)
        if self.lower is None:
            return None
        lower, by = self.lower
        moves, found_by = self.best if self.best is not None else (None, "")
        if self.max_moves is not None and lower > self.max_moves:
            return Result(
                status="infeasible",
                solution=None,
                lower_bound=lower,
                upper_bound=None if moves is None else len(moves),
                solver="portfolio",
                proof=f"lower bound {lower} ({by}) above {count_moves(self.max_moves)}",
            )
        if moves is None or lower < len(moves):
            return None
        return Result(
            status="optimal",
            solution=moves,
            lower_bound=len(moves),
            upper_bound=len(moves),
            solver="portfolio",
            proof=f"lower bound {lower} ({by}) meets a solution ({found_by})",
        )

    def results(self) -> list[Result]:
        """What was told, as results of their own (for the final combination)."""
        if self.lower is None and self.best is None:
            return []
        moves = None if self.best is None else self.best[0]
        return [
            Result(
                status="unknown" if moves is None else "feasible",
                solution=moves,
                lower_bound=0 if self.lower is None else self.lower[0],
                upper_bound=None if moves is None else len(moves),
                solver="portfolio",
            )
        ]


def combine(
    results: list[Result], g: RegionGraph, errors: list[str] = (), max_moves: int | None = None
) -> Result:
    """No backend proved its answer alone: keep the best bounds of all (which may meet).

    The status follows from the combined bounds, not from the backend that found the
    solution (a backend stopped early reports its beam's solution as "unknown").

    Parameters
    ----------
    results : list of Result
        The backends' answers (and what they told, :meth:`Told.results`).
    g : RegionGraph
        The board (its admissible bound when there is no result).
    errors : list of str
        The backends' errors, named in the proof.
    max_moves : int or None
        The horizon asked, if any.

    Returns
    -------
    Result
        The larger lower bound and the shorter solution, ``solver="portfolio"``.
    """
    lower = max([r.lower_bound for r in results], default=bounds.lower_bound(g))
    with_moves = [r for r in results if r.solution is not None]
    best = min(with_moves, key=lambda r: len(r.solution)) if with_moves else None
    fits = best is not None and (max_moves is None or len(best.solution) <= max_moves)
    status = "feasible" if fits else "unknown"
    proof = "no backend finished: bounds of all"
    if fits and lower >= len(best.solution):
        status, proof = "optimal", f"lower bound {lower} of one backend meets a solution"
    if errors:
        proof += "; errors: " + "; ".join(errors)
    return Result(
        status=status,
        solution=None if best is None else best.solution,
        lower_bound=lower,
        upper_bound=None if best is None else len(best.solution),
        solver="portfolio",
        proof=proof,
    )
