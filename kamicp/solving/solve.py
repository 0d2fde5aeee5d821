"""The solve driver: close the gap between a proven lower bound and the best solution.

Every solver goes through :func:`solve`, which

1. computes the best admissible lower bound (:mod:`kamicp.bounds.core`) and a greedy upper bound
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
"""

from __future__ import annotations

import time

from kamicp import bounds
from kamicp.errors import InternalError, KamicpError, WorkerLost
from kamicp.game import rules
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.procs import progress
from kamicp.procs.interruptible import noting_interrupts
from kamicp.procs.isolate import die_with_parent
from kamicp.procs.progress import Seen, say, tell, watched
from kamicp.result import Result, SearchOutcome
from kamicp.search.greedy import WIDTH
from kamicp.solving.horizons import DEFAULT_STRATEGY, Clock, exact, horizon_factory
from kamicp.solving.upper_bound import UPPER_WIDTH, greedy_solution, never, unknown

REFERENCE_SOLVERS = ("bfs", "astar", "idastar", "greedy")
EXACT_SOLVERS = ("cpsat", "sat", "portfolio")
SOLVERS = EXACT_SOLVERS + REFERENCE_SOLVERS
TETRAPOD_DEPTH_SOLVERS = ("idastar", "portfolio")  # the portfolio passes it to its idastar
# The portfolio proves the most: 110-111 of the 115 KAMI 2 story levels at 60 s (sat alone 102,
# idastar 106) and floodit-99 as sat does (README, "Benchmarks"); it costs a second process.
DEFAULT_SOLVER = "portfolio"
# A free-rule board whose start bound is at least this far above its colour bound is
# "deep": there the portfolio gives IDA* both of its processes, as ``idastar --workers 2``,
# and SAT none (BENCHMARKS.md, "Deep boards"). SAT won only where the gap was at most 3.
DEEP_GAP = 6
DEEP_WORKERS = 2  # the portfolio's two processes
# ...and splits IDA*'s iterations over them at once, not after a second on one core (a deep
# board's proof runs long): Bud6 55.3 s against 57.4 s (medians of three, session 40)
DEEP_SPLIT_AFTER = 0.0


def solve(
    g: RegionGraph,
    solver: str = DEFAULT_SOLVER,
    *,
    max_moves: int | None = None,
    time_limit: float | None = None,
    final_colour: int | None = None,
    workers: int = 1,
    node_limit: int | None = None,
    probe: float = 0.0,
    strategy: str = DEFAULT_STRATEGY,
    known: list[Move] | None = None,
    tetrapods: bool = True,
    tetrapod_depth: int | None = None,
    beam_width: int | None = None,
    journal: str | None = None,
) -> Result:
    """Solve ``g`` with ``solver``; with ``max_moves``, decide "solvable in at most N?".

    The result's solution has been replayed; ``optimal`` rests on ``lower_bound == moves``.
    ``probe`` gives the exact models a first IDA* run of at most that many seconds (and a
    quarter of the time limit), see :meth:`Horizons.probe`. ``strategy`` chooses the
    horizons the exact models are asked (:mod:`kamicp.solving.horizons`).
    ``known`` is a solution the caller already has (a designer's, say): it is replayed
    (:class:`kamicp.errors.IllegalMove` if it does not solve the board) and is the first
    upper bound, so what is left is to beat it or to prove that nothing shorter exists.
    ``tetrapods``: ask the tetrapod bound at the start where it can matter (:func:`_tetrapods`;
    the portfolio leaves it to its ``sat`` backend, so that ``idastar`` starts at once).
    ``tetrapod_depth`` (``idastar``): the tetrapod check also at the states at most that
    many moves deep (:func:`kamicp.search.astar.idastar`; for proofs that run for many minutes);
    None (:data:`kamicp.search.astar.AUTO`): where a subtree runs long (with ``workers``, in each
    worker).
    ``beam_width`` (``greedy``): the beam's width, default :data:`kamicp.search.greedy.WIDTH`; a
    wider beam is tried after the quick one and kept where shorter. For the other solvers:
    the width of the beam they start from, at least :data:`UPPER_WIDTH` (:func:`_start_beam`).
    ``journal`` (``idastar``, the portfolio's idastar backend): a journal file of proved
    bounds, read first and written as the search goes (:mod:`kamicp.search.journal`).
    """
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r} (one of {', '.join(SOLVERS)})")
    clock = Clock(time_limit)
    if known is not None:
        rules.verify_solution(g, known, final_colour)
    seen = Seen()  # the bounds told during this solve: kept if it is interrupted
    with watched(seen), noting_interrupts() as interrupts:
        if known is not None:
            tell(None, known)  # the first upper bound, to every listener (--progress too)
        lower = 0  # the start's admissible bound, where one is asked
        deep = False  # the portfolio run as IDA* on both processes (is_deep)
        half = None if time_limit is None else clock.start + time_limit / 2
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
                solver, workers = "idastar", DEEP_WORKERS
            if beam_width is not None and solver != "greedy":
                known = _start_beam(g, final_colour, beam_width, known, lower, half)
            if bounded and tetrapods and solver != "portfolio":
                _tetrapods(g, final_colour, lower, known, max_moves, half)
            if solver in REFERENCE_SOLVERS:
                options = {"workers": workers, "tetrapod_depth": tetrapod_depth, "journal": journal}
                if deep:
                    options["split_after"] = DEEP_SPLIT_AFTER
                result = _reference(
                    g,
                    solver,
                    max_moves,
                    final_colour,
                    node_limit,
                    clock,
                    known,
                    options,
                    beam_width or WIDTH,
                )
            elif solver == "portfolio":
                from kamicp.solving.portfolio import solve_portfolio

                result = solve_portfolio(
                    g,
                    time_limit=clock.left(),
                    max_moves=max_moves,
                    final_colour=final_colour,
                    workers=1,  # one process a backend already: no pool of its own
                    known=known,
                    strategy=strategy,  # for the sat backend
                    tetrapod_depth=tetrapod_depth,  # for the idastar backend
                    journal=journal,  # for the idastar backend
                    start_bound=lower,
                )
            else:
                job = {
                    "g": g,
                    "solver": solver,
                    "workers": workers,
                    "max_moves": max_moves,
                    "final_colour": final_colour,
                    "time_limit": clock.left(),  # what the start's bounds left of it
                    "probe": probe,
                    "strategy": strategy,
                    "known": known,
                }
                if solver in CONTAINED and time_limit is not None and not progress.contained_parent:
                    result = _contained(job)
                else:
                    result = _exact_run(**job)
        except KeyboardInterrupt:
            # The bounds told so far are kept (the exact driver and the contained run also
            # catch it themselves, to keep theirs).
            result = _interrupted(g, final_colour, max_moves, seen)
            result.interrupted = True
        except KamicpError:
            raise
        except Exception as err:
            raise InternalError(_bug(err, solver, seen)) from err
        if deep:
            solver = "portfolio"
            result.proof = f"deep board, {DEEP_WORKERS} processes: {result.proof}"
        if result.solution is not None:
            rules.verify_solution(g, result.solution, final_colour)
        if result.lower_bound < bounds.UNSOLVABLE:
            # what the solver proved last (the refutation that closes an IDA* run is no new
            # threshold, so it was not told), its solution replayed just above: a listener's
            # last bounds are the answer's
            tell(result.lower_bound, result.solution)
    result.solver = solver
    result.seconds = clock.seconds()
    result.interrupted = result.interrupted or bool(interrupts)
    if result.interrupted and result.status == "feasible" and max_moves is None:
        # The horizon drivers answer a stopped run as a time limit ("feasible"); IDA* and
        # the portfolio as _interrupted does. One answer whichever caught it: a solution whose
        # optimality was not proved is "unknown (interrupted)", exit 3, its bounds printed.
        result.status = "unknown"
    if result.interrupted and result.status == "unknown":
        result.proof = "interrupted"
    return result


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
    upper bound a stopped run reports (Threegrid6: 16 at width 32, 15 at width 512)."""
    moves = greedy_solution(g, final_colour, max(width, UPPER_WIDTH), lower, deadline)
    if moves is None or (known is not None and len(known) <= len(moves)):
        return known
    tell(None, moves)
    return moves


def _tetrapods(g, final_colour, lower, known, max_moves, deadline) -> None:
    """The tetrapod bound (Bound 7) of the start, where it can matter: below a solution at
    hand (the quick beam's or ``known``) and up to ``max_moves``. It costs seconds (Bud5,
    78 regions: 13 s), so it is not asked where the tripods already meet that solution;
    once computed, every later lower bound of this solve (and of forked backends) has it."""
    quick = greedy_solution(g, final_colour, WIDTH)
    lengths = [len(m) for m in (quick, known) if m is not None]
    if not lengths or lower >= min(lengths):
        return
    cap = min(lengths) - 1 if max_moves is None else min(min(lengths) - 1, max_moves)
    if lower > cap:
        return
    value = bounds.tetrapods_bound(bounds.contract(g), final_colour, cap, deadline)
    if value > lower:
        tell(value, None)


# --- a hard time limit for backends that cannot be interrupted -----------------------------

CONTAINED = ("sat",)  # CaDiCaL runs in conflict slices; one slice overran a 40 s limit by 10 s
GRACE = 1.0  # seconds past the time limit before a contained run is stopped


def _exact_run(g, solver, workers, max_moves, final_colour, time_limit, probe, strategy, known):
    factory = horizon_factory(solver, workers)
    clock = Clock(time_limit)
    return exact(g, factory, max_moves, final_colour, clock, probe, strategy, known)


def _contained_child(conn, job: dict) -> None:
    die_with_parent()  # a portfolio stops its backends with a kill
    progress.contained_parent.append(conn)
    try:
        conn.send(("result", _exact_run(**job)))
    except BaseException as err:  # reported to the parent, which re-raises it
        conn.send(("error", err))
    conn.close()


def _contained(job: dict) -> Result:
    """Run the exact driver in a forked child, stopped ``GRACE`` s after the time limit.

    The child reports its bounds after every horizon, so a stopped run still returns the
    best lower bound proved and the best solution found (as bounds, never as optimal).
    """
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_contained_child, args=(child, job))
    proc.start()
    child.close()
    state = {"lower": None, "best": None, "result": None}
    why = "time limit: bounds only"
    try:
        _listen(parent, state, time.monotonic() + job["time_limit"] + GRACE)
    except KeyboardInterrupt:
        # The child saw Ctrl-C too (same process group) and answers with its bounds.
        why = "interrupted: bounds only"
        _listen(parent, state, time.monotonic() + 2 * GRACE)
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
    if state["result"] is not None:
        return state["result"]
    return _stopped(job, state["lower"], state["best"], why)


def _listen(conn, state: dict, deadline: float) -> None:
    """Read the child's messages into ``state`` until its result, EOF or ``deadline``."""
    try:
        while state["result"] is None and conn.poll(max(0.0, deadline - time.monotonic())):
            kind, value = conn.recv()
            if kind == "progress":
                state["lower"], state["best"] = value
                tell(*value)  # passed on to a portfolio, if this run is one of its backends
            elif kind == "status":
                say(value)
            elif kind == "error":
                raise value
            else:
                state["result"] = value
    except EOFError:
        pass


def _stopped(job: dict, lower, best, why: str) -> Result:
    """The bounds a stopped contained run had reported (or the start's, if none)."""
    g, final_colour, max_moves = job["g"], job["final_colour"], job["max_moves"]
    if lower is None:
        return unknown(g, final_colour, why)
    fits = best is not None and (max_moves is None or len(best) <= max_moves)
    if fits and lower >= len(best):
        return _finish(best, len(best), max_moves, f"lower bound {lower} proved, met by a solution")
    return Result(
        status="feasible" if fits else "unknown",
        solution=best,
        lower_bound=lower,
        upper_bound=None if best is None else len(best),
        solver="",
        proof=why,
    )


def _interrupted(g: RegionGraph, final_colour, max_moves, seen: Seen) -> Result:
    """The answer of a solve stopped by Ctrl-C: the best bounds told before it (a portfolio's
    backends, IDA*'s thresholds) or found now (the start's bound, a quick beam)."""
    start = unknown(g, final_colour, "interrupted")
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


# --- reference searches --------------------------------------------------------------------


def _reference(
    g, solver, max_moves, final_colour, node_limit, clock, known=None, options=None, width=WIDTH
) -> Result:
    """A reference search (or ``greedy``, whose beam is ``width`` wide); ``options`` go to
    IDA* (:func:`_search`)."""
    if not bounds.solvable(g, rules.start(g), final_colour):
        return never(g, final_colour)
    if solver == "greedy":
        moves = greedy_solution(g, final_colour, width, deadline=clock.deadline)
        if known is not None and (moves is None or len(known) < len(moves)):
            moves = known
        lb = bounds.lower_bound(g, final_colour=final_colour)
        return _finish(moves, lb, max_moves, "lower bound equals the solution's length")
    lower = None
    if solver == "idastar" and known is None:
        # IDA* then only has to refute one move fewer than the beam's solution: where the
        # beam is optimal, its costliest iteration (the one that finds a solution) is saved.
        lower = bounds.lower_bound(g, final_colour=final_colour)
        known = greedy_solution(g, final_colour, lower=lower, deadline=clock.deadline)
        if known is not None:
            tell(None, known)
    if known is not None and max_moves is None:
        return _beat(g, solver, known, final_colour, node_limit, clock, options)
    if known is not None and len(known) <= max_moves:
        if lower is None:
            lower = bounds.lower_bound(g, final_colour=final_colour)
        # the solution may be the user's, the start beam's or the one just found: not "given"
        why = "lower bound equals the solution's length"
        return _finish(known, lower, max_moves, why)
    out = _search(g, solver, max_moves, final_colour, node_limit, clock, options)
    if out.complete and out.moves is None:
        # a solution longer than max_moves (the beam's, replayed) still bounds the optimum
        upper = None if known is None else len(known)
        return Result(
            "infeasible",
            None,
            out.lower_bound,
            upper,
            "",
            proof=f"{solver}: {_exhaustive(options)}",
        )
    if out.complete:
        return Result(
            "optimal",
            out.moves,
            len(out.moves),
            len(out.moves),
            "",
            proof=f"{solver}: {_exhaustive(options)}",
        )
    greedy_moves = greedy_solution(g, final_colour)
    best = out.moves if out.moves is not None else greedy_moves
    if best is not None and out.lower_bound >= len(best):
        # Stopped, but the proved bound already meets a solution (the greedy one, say).
        why = f"{solver}: lower bound {out.lower_bound} proved, met by a solution"
        return _finish(best, len(best), max_moves, why)
    return Result(
        "unknown"
        if best is None or (max_moves is not None and len(best) > max_moves)
        else "feasible",
        best,
        out.lower_bound,
        None if best is None else len(best),
        "",
        proof=f"{solver}: limit reached after {out.nodes} nodes",
    )


def _search(g, solver, max_moves, final_colour, node_limit, clock, options=None) -> SearchOutcome:
    """Run a reference search; ``options`` (``workers``, ``tetrapod_depth``, ``journal``)
    go to IDA*."""
    from kamicp.search.astar import astar
    from kamicp.search.bfs import bfs
    from kamicp.search.idastar import IdaOptions, idastar

    search = {"bfs": bfs, "astar": astar, "idastar": idastar}[solver]
    extra = {}
    if solver == "idastar":  # every threshold it passes is a proved lower bound
        extra["options"] = IdaOptions(
            on_bound=lambda lower: tell(lower, None),
            on_status=lambda text: say(f"{solver}: {text}"),
            **(options or {}),  # processes (kamicp.search.parallel), deep checks
        )
    return search(
        g,
        final_colour=final_colour,
        max_moves=max_moves,
        node_limit=node_limit,
        deadline=clock.deadline,
        **extra,
    )


def _beat(g, solver, known, final_colour, node_limit, clock, options=None) -> Result:
    """A search asked for fewer moves than ``known``: a solution it finds is optimal (the
    searches find a shortest one first); a complete search without one proves ``known``
    optimal."""
    if not known:
        return Result("optimal", known, 0, 0, "", proof="already solved")
    out = _search(g, solver, len(known) - 1, final_colour, node_limit, clock, options)
    if out.moves is not None and out.complete:
        n = len(out.moves)
        return Result("optimal", out.moves, n, n, "", proof=f"{solver}: {_exhaustive(options)}")
    if out.complete:
        why = f"{solver}: no solution of {len(known) - 1} moves ({_exhaustive(options)})"
        if out.nodes == 0 and not (options or {}).get("journal"):
            # the start's bound alone was above len(known) - 1 (not a journal's bound)
            why = f"{solver}: admissible lower bound {out.lower_bound} at the start"
        return Result("optimal", known, len(known), len(known), "", proof=why)
    best = known if out.moves is None or len(out.moves) >= len(known) else out.moves
    return Result(
        "feasible",
        best,
        out.lower_bound,
        len(best),
        "",
        proof=f"{solver}: limit reached after {out.nodes} nodes",
    )


def _exhaustive(options: dict | None) -> str:
    """How a complete search proved its answer, naming the journal whose bounds it used."""
    journal = (options or {}).get("journal")
    if journal is None:
        return "exhaustive search"
    return f"exhaustive search, with the proved bounds of journal {journal}"


def _finish(moves, lb, max_moves, why) -> Result:
    """Status of a solution given a proved lower bound (used by greedy)."""
    ub = None if moves is None else len(moves)
    if ub is not None and ub == lb:
        return Result("optimal", moves, lb, ub, "", proof=why)
    if max_moves is not None and lb > max_moves:
        return Result("infeasible", None, lb, ub, "", proof=f"admissible lower bound {lb}")
    if max_moves is not None and ub is not None and ub <= max_moves:
        return Result("feasible", moves, lb, ub, "", proof="")
    return Result("unknown" if max_moves is not None else "feasible", moves, lb, ub, "")
