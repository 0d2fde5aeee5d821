"""The solve driver: close the gap between a proven lower bound and the best solution.

:func:`drive` runs one solver on a board:

1. it computes the best admissible lower bound (:mod:`kamicp.bounds`) and a greedy upper
   bound (:mod:`kamicp.solving.upper_bound`: the quick beam, and the width-``UPPER_WIDTH``
   beam where the quick one does not meet the lower bound); ``idastar`` then searches below
   that solution only (:mod:`kamicp.solving.reference`);
2. the exact models (``cpsat``, ``sat``) ask "solvable in at most T?" for horizons chosen by
   the strategy (:mod:`kamicp.solving.horizons`), a time-limited ``sat`` run in a child of
   its own (:mod:`kamicp.solving.contained`); the portfolio is a solver the caller plugs in
   (:func:`kamicp.solving.solve.solve` plugs in :mod:`kamicp.solving.portfolio`, whose
   backends are runs of :func:`drive`);
3. it replays every solution through the rules engine before returning it.

A time limit, the memory limit (:mod:`kamicp.procs.memory`) or Ctrl-C ends the search with
the bounds proved so far (status ``unknown``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from kamicp import bounds, jit
from kamicp.errors import InternalError, KamicpError, WorkerLost
from kamicp.game import rules
from kamicp.game.regions import RegionGraph, distances
from kamicp.procs import memory, progress
from kamicp.procs.deadline import Deadline
from kamicp.procs.interruptible import noting_interrupts
from kamicp.procs.progress import Seen, tell, watched
from kamicp.result import Result
from kamicp.search import pivot_astar
from kamicp.search.greedy import BIG, WIDTH
from kamicp.solving.options import PIVOT_SOLVERS, REFERENCE_SOLVERS, SOLVERS, SolveOptions
from kamicp.solving.reference import solve_reference
from kamicp.solving.upper_bound import UPPER_WIDTH, better_solution, greedy_solution, unknown

__all__ = [
    "DEEP_GAP",
    "DEEP_SPLIT_AFTER",
    "DEEP_WORKERS",
    "FirstStep",
    "MODEL_CELLS",
    "PIVOT_FEW",
    "PIVOT_NODES",
    "PIVOT_NODES_MANY",
    "TOO_LARGE",
    "Portfolio",
    "drive",
    "is_deep",
]

# A free-rule board whose start bound is at least this far above its colour bound is
# "deep": there the portfolio gives IDA* both of its processes, as ``idastar --workers 2``,
# and SAT none (BENCHMARKS.md, "Deep boards": SAT wins only where the gap is at most 3).
DEEP_GAP = 6
DEEP_WORKERS = 2  # the portfolio's two processes
# ...and splits IDA*'s iterations over them at once, not after a second on one core: a deep
# board's proof runs long (BENCHMARKS.md, "Deep boards")
DEEP_SPLIT_AFTER = 0.0

# The portfolio on a pivot-rule board first runs the compiled A* in this process for at most
# this many expansions, and starts its two SAT processes only where that does not settle it:
# with 200,000 on six colours 1,000 random 14x14 boards take 17 s, against 28 s with 20,000
# (BENCHMARKS.md, "Pivot rules: the default route").
PIVOT_NODES = 200_000
# ...and on boards of more colours than PIVOT_FEW, where the A*'s branching is wider and SAT
# proves what it leaves, only this many: the 40 floodit-99 boards that 200,000 leave (31 of
# them of 8 or 10 colours) spent 86.6 s in it, where 20,000 take at most 0.3 s a board.
PIVOT_FEW = 6
PIVOT_NODES_MANY = 20_000

# Boards whose time-indexed model at the first solution's length (regions x moves x colours)
# exceeds this are answered with their bounds and that solution, not handed to the exact
# models, the searches or the portfolio, which outlast any time limit there: memory and time
# against an answer (BENCHMARKS.md, "Big boards": on a 150x150 board, 4.6 million, IDA*'s
# first split ran 30 s past a 1 s limit; a 500x500 board's CP-SAT model was still being
# built after 60 s).
MODEL_CELLS = 1_000_000
TOO_LARGE = "board too large for an exact answer: bounds only"

# A first step the portfolio runs in the calling process before its backends (the compiled
# A* under pivot rules), given a callable to call between its slices -> its answer
FirstStep = Callable[[Callable[[], None]], Result]
# The portfolio as the driver runs it: (board, the backends' options, the start bound, the
# first step or None) -> answer
Portfolio = Callable[[RegionGraph, SolveOptions, int, FirstStep | None], Result]


def drive(
    g: RegionGraph,
    solver: str,
    options: SolveOptions | None = None,
    portfolio: Portfolio | None = None,
) -> Result:
    """Solve ``g`` with ``solver``; with ``options.max_moves``, decide "solvable in at most N?".

    Parameters
    ----------
    g : RegionGraph
        The board.
    solver : str
        One of :data:`kamicp.solving.options.SOLVERS`; ``portfolio`` needs ``portfolio``.
    options : SolveOptions or None
        What is asked (None: the defaults, a proved optimum with no limit).
    portfolio : callable or None
        Runs the portfolio: called as ``portfolio(g, backend_options, start_bound, first)``,
        ``first`` the :data:`FirstStep` on a pivot-rule board (the compiled A*), else None.

    Returns
    -------
    Result
        Its solution replayed; ``optimal`` rests on ``lower_bound == moves``.

    Raises
    ------
    ValueError
        An unknown solver.
    kamicp.errors.IllegalMove
        ``options.known`` does not solve the board.
    kamicp.errors.InternalError
        A bug, or the run ran out of memory or lost a worker (with the bounds proved).
    """
    o = SolveOptions() if options is None else options
    if solver not in SOLVERS or (solver == "portfolio" and portfolio is None):
        raise ValueError(f"unknown solver {solver!r} (one of {', '.join(SOLVERS)})")
    if solver in PIVOT_SOLVERS and g.rules != "pivot":
        raise KamicpError(f"{solver} solves pivot-rule boards only (this board has free rules)")
    clock = Deadline.after(o.time_limit)
    max_moves, final_colour, known = o.max_moves, o.final_colour, o.known
    if known is not None:
        rules.verify_solution(g, known, final_colour)
    seen = Seen()  # the bounds told during this solve: kept if it is interrupted
    with watched(seen), noting_interrupts() as interrupts:
        if known is not None:
            tell(None, known)  # the first upper bound, to every listener (--progress too)
        lower = 0  # the start's admissible bound, where one is asked
        deep = False  # the portfolio run as IDA* on both processes (is_deep)
        half = None if o.time_limit is None else clock.started + o.time_limit / 2
        try:
            # The start's tripod bound (seconds on big boards) is computed once, within half
            # the time limit, and cached: every later lower bound of this solve (and of forked
            # backends) reuses it. BFS, the oracle, uses no bound.
            bounded = g.rules == "free" and solver != "bfs"
            if bounded:
                lower = bounds.lower_bound(g, final_colour=final_colour, deadline=half)
                tell(lower, None)
            deep = solver == "portfolio" and bounded and is_deep(g, lower, final_colour)
            if deep:
                solver = "idastar"
            if o.beam_width is not None and solver != "greedy":
                known = _start_beam(g, final_colour, o.beam_width, known, lower, half)
            if bounded and o.tetrapods and solver != "portfolio":
                _tetrapods(g, final_colour, lower, known, max_moves, half)
            result = _dispatch(g, solver, o, clock, known, lower, deep, portfolio)
        except KeyboardInterrupt:
            # The bounds told so far are kept (the exact driver and the contained run also
            # catch it themselves, to keep theirs).
            result = _interrupted(g, final_colour, max_moves, seen)
            result.interrupted = True
        except KamicpError:
            raise
        except Exception as err:
            if not interrupts:
                raise InternalError(_bug(err, solver, seen)) from err
            # A signal came first, so what failed after it is its doing: a compile it stopped
            # inside an LLVM callback, which swallowed the KeyboardInterrupt, fails at the
            # next compile ("no compiled object yet"). The run answers as interrupted.
            jit.stopped_midway()
            result = _interrupted(g, final_colour, max_moves, seen)
            result.interrupted = True
        if deep:
            solver = "portfolio"
            if result.proof != TOO_LARGE:  # IDA* ran
                result.proof = f"deep board, {DEEP_WORKERS} processes: {result.proof}"
        if result.solution is not None:
            rules.verify_solution(g, result.solution, final_colour)
        if result.lower_bound < bounds.UNSOLVABLE:
            # what the solver proved last (the refutation that closes an IDA* run is no new
            # threshold, so it was not told), its solution replayed just above: a listener's
            # last bounds are the answer's
            tell(result.lower_bound, result.solution)
    result.solver = solver
    result.seconds = clock.elapsed()
    result.interrupted = result.interrupted or bool(interrupts)
    if result.interrupted and result.status == "feasible" and max_moves is None:
        # The horizon drivers answer a stopped run as a time limit ("feasible"); IDA* and
        # the portfolio as _interrupted does. One answer whichever caught it: a solution whose
        # optimality was not proved is "unknown (interrupted)", exit 3, its bounds printed.
        result.status = "unknown"
    if result.interrupted and result.status == "unknown":
        result.proof = "interrupted"
    if memory.reached() and result.status not in ("optimal", "infeasible"):
        result.status = "unknown" if max_moves is None else result.status
        result.proof = f"{memory.note()}: bounds only"
    return result


def _dispatch(g, solver, o, clock, known, lower, deep, portfolio) -> Result:
    """Run ``solver`` (``idastar`` on both processes where the portfolio's board is
    ``deep``) from the start's bound ``lower`` and the solution ``known``."""
    if solver == "pivot-astar":  # any size: it stops between slices of its compiled loop
        return solve_reference(g, solver, o, clock, known)
    if solver != "greedy" and _too_large(g, known, o.final_colour, lower, clock):
        found = unknown(g, o.final_colour, TOO_LARGE, clock.at, lower or None)
        if clock.at is not None and found.solution is not None:  # the rest of the limit
            better = better_solution(g, o.final_colour, found.solution, clock.at)
            if better is not None:
                tell(None, better)
                found = replace(found, solution=better, upper_bound=len(better))
        return found
    if solver in REFERENCE_SOLVERS:
        workers = DEEP_WORKERS if deep else o.workers
        search = {
            "workers": workers,
            "tetrapod_depth": o.tetrapod_depth,
            "journal": o.journal,
            "ray": o.ray,
        }
        if deep:
            search["split_after"] = DEEP_SPLIT_AFTER
        return solve_reference(g, solver, o, clock, known, search)
    if solver == "portfolio":
        # under pivot rules the compiled A* runs first, in this process, and settles the
        # easy boards; the portfolio runs it (:data:`FirstStep`)
        first = partial(_pivot_first, g, o, clock, known) if g.rules == "pivot" else None
        backends = SolveOptions(
            max_moves=o.max_moves,
            time_limit=clock.left(),
            final_colour=o.final_colour,
            workers=1,  # one process a backend already: no pool of its own
            known=known,
            strategy=o.strategy,  # for the sat backend
            tetrapod_depth=o.tetrapod_depth,  # for the idastar backend
            journal=o.journal,  # for the idastar backend
        )
        return portfolio(g, backends, lower, first)
    job = replace(o, time_limit=clock.left(), known=known)  # what the start's bounds left
    # the models' drivers, imported for a model's solve only (a Flood-It solve answered by
    # the A* never loads them, nor IDA* that they import)
    from kamicp.solving import contained

    apart = solver in contained.CONTAINED and not progress.contained_parent
    if apart and o.time_limit is not None:
        return contained.run_contained(g, solver, job)
    return contained.exact_run(g, solver, job)


def _pivot_first(g, o, clock, known, on_slice) -> Result:
    """The portfolio's first step on a pivot-rule board: the compiled A* for at most
    :data:`PIVOT_NODES` expansions (:data:`PIVOT_NODES_MANY` beyond :data:`PIVOT_FEW`
    colours; fewer with ``node_limit``), calling ``on_slice`` between its slices."""
    budget = PIVOT_NODES if g.k <= PIVOT_FEW else PIVOT_NODES_MANY
    budget = budget if o.node_limit is None else min(budget, o.node_limit)
    astar = replace(o, node_limit=budget)
    return solve_reference(g, "pivot-astar", astar, clock, known, {"on_slice": on_slice})


def _too_large(g, known, final_colour, lower, clock) -> bool:
    """Would the exact models' time-indexed model of ``g`` exceed :data:`MODEL_CELLS`?"""
    if g.n * (g.n + 1) * g.k <= MODEL_CELLS:  # no first solution is longer than n + 1 moves
        return False
    # No solution is shorter than the start's bound, the colours but one, or (pivot rules)
    # the pivot's distance to its farthest region: past the limit with no greedy run (the
    # compiled greedy's bitsets are quadratic in regions). A board with no solution is left
    # to the solvers, which prove it.
    floor = len(g.colours_present()) - 1
    if lower < bounds.UNSOLVABLE:
        floor = max(floor, lower)
    if g.rules == "pivot" and len(g.islands) == 1:
        floor = max(floor, max(distances(g, g.pivot).values()))
    if g.n * floor * g.k > MODEL_CELLS:
        return True
    if known is not None:
        moves = len(known)
    elif g.rules == "pivot":  # the compiled greedy: milliseconds where the beam takes seconds
        moves = pivot_astar.quick_length(g, final_colour)
    else:
        found = greedy_solution(g, final_colour, WIDTH, deadline=clock.at)
        moves = None if found is None else len(found)
        if moves is None and clock.expired():
            return True  # no time left for anything but the bounds
    return moves is not None and g.n * moves * g.k > MODEL_CELLS


def _bug(err: Exception, solver: str, seen: Seen) -> str:
    """One line for an exception that is a bug (:class:`kamicp.errors.InternalError`): what
    failed, and the bounds the run had proved and replayed before it, as bounds."""
    low = "?" if seen.lower is None else seen.lower
    high = "?" if seen.best is None else len(seen.best)
    proved = f"proved before it: {low} <= optimum <= {high}"
    if isinstance(err, MemoryError):  # not a bug: a board too large for this machine
        return f"{solver} ran out of memory; {proved}"
    if isinstance(err, WorkerLost):  # not a bug either: a process killed from outside
        return f"{solver} stopped: {err}; {proved}"
    return (
        f"internal error in {solver}: {type(err).__name__}: {err} (a bug in kamicp: please "
        f"report it with the puzzle; KAMICP_TRACEBACK=1 shows where); {proved}"
    )


def is_deep(g: RegionGraph, lower: int, final_colour: int | None = None) -> bool:
    """Is the start bound ``lower`` of ``g`` at least :data:`DEEP_GAP` above its colour
    bound? There the SAT model's colour bound is weak and IDA*'s checks prove the optimum
    (Bud6, Threed5, Threegrid2), so the portfolio runs IDA* alone on both processes. O(n)."""
    return lower - bounds.colour_bound(bounds.contract(g), final_colour) >= DEEP_GAP


def _start_beam(g, final_colour, width, known, lower, deadline) -> list | None:
    """``--beam-width`` for a solver other than greedy: the solution of a beam ``width`` wide
    (at least :data:`UPPER_WIDTH`, the width every exact search starts from), run within
    ``deadline`` (half the time limit) and taken as ``known`` where it is shorter. A better
    first solution saves the search its costliest horizon when it is optimal, and is the
    upper bound a stopped run reports (BENCHMARKS.md, "Wide greedy beams")."""
    moves = greedy_solution(g, final_colour, max(width, UPPER_WIDTH), lower, deadline)
    if moves is None or (known is not None and len(known) <= len(moves)):
        return known
    tell(None, moves)
    return moves


def _tetrapods(g, final_colour, lower, known, max_moves, deadline) -> None:
    """The tetrapod bound (Bound 8) of the start, where it can matter: below a solution at
    hand (the quick beam's or ``known``) and up to ``max_moves``. It costs seconds
    (BENCHMARKS.md, "Start bounds: tripods and tetrapods"), so it is not asked where the
    tripods already meet that solution;
    once computed, every later lower bound of this solve (and of forked backends) has it."""
    quick = greedy_solution(g, final_colour, WIDTH, deadline=deadline)
    lengths = [len(m) for m in (quick, known) if m is not None]
    if not lengths or lower >= min(lengths):
        return
    cap = min(lengths) - 1 if max_moves is None else min(min(lengths) - 1, max_moves)
    if lower > cap:
        return
    value = bounds.tetrapods_bound(bounds.contract(g), final_colour, cap, deadline)
    if value > lower:
        tell(value, None)


def _interrupted(g: RegionGraph, final_colour, max_moves, seen: Seen) -> Result:
    """The answer of a solve stopped by Ctrl-C: the best bounds told before it (a portfolio's
    backends, IDA*'s thresholds) or found now (the start's bound, a quick beam)."""
    # now: no sweep is started, and on a big board no bound is asked again (even the cached
    # ones cost seconds there): the bounds told so far, else the colours but one
    lower = seen.lower
    if lower is None and g.n > BIG[g.rules]:
        lower = len(g.colours_present()) - 1
    try:
        with jit.no_compiling():  # on a first run that would take seconds
            start = unknown(g, final_colour, "interrupted", time.monotonic(), lower)
    except (ImportError, AttributeError, jit.NotCompiled):
        # the interrupt came inside an import (Numba's, on a first run), and the module it
        # left half made cannot run now, or the bounds' loops are not compiled yet: the
        # colours but one
        floor = max(lower or 0, len(g.colours_present()) - 1)
        start = Result("unknown", None, floor, None, "", proof="interrupted")
    lower = max(start.lower_bound, seen.lower or 0)
    best = start.solution
    if seen.best is not None and (best is None or len(seen.best) < len(best)):
        best = seen.best
    high = None if best is None else len(best)
    if max_moves is not None and lower > max_moves:
        why = f"interrupted, lower bound {lower} proved"
        return Result("infeasible", None, lower, high, "", proof=why)
    if best is not None and lower >= len(best):
        why = f"interrupted, lower bound {lower} proved, met by a solution"
        return Result("optimal", best, len(best), len(best), "", proof=why)
    if best is not None and max_moves is not None and len(best) <= max_moves:
        return Result("feasible", best, lower, high, "", proof="interrupted")
    return Result("unknown", best, lower, high, "", proof="interrupted")
