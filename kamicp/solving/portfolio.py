"""The portfolio: SAT and IDA* side by side in processes; the first proof wins.

Each process runs the whole search of :func:`kamicp.solving.solve.solve` with its own backend (so
the SAT solver keeps its learnt clauses from horizon to horizon). IDA* is in because it
proves the deep KAMI 2 levels the models do not (Threed5, Threegrid2, Bud2: 11-37 s against
time-outs of SAT at 60 s), SAT because it proves the wide ones and every Flood-It board.
CP-SAT is left out by default: on 2 cores a third process only time-slices, and CP-SAT was
3.3x slower than SAT (median, KAMI 2 levels needing over 0.5 s) and proved 10 of 21
Flood-It boards to SAT's 21 (BENCHMARKS.md); ``backends`` puts it back. The first
process to finish with a proved status (optimal or infeasible) wins and the others are
stopped. While they run, the backends also report every lower bound they prove (IDA*: each
threshold it passes; SAT: each refuted horizon) and every solution they find; as soon as one
backend's lower bound meets another's solution (or, with ``max_moves``, exceeds it) the
answer is proved and both are stopped. The caller's admissible start bound counts as one
of those lower bounds (and settles ``max_moves`` below it before any backend starts). When
neither finishes in time, the bounds of both are combined: the larger lower bound and the
shorter solution.

On a deep free-rule board (:func:`kamicp.solving.solve.is_deep`: a start bound at least 6 above
the colour bound) :func:`kamicp.solving.solve.solve` starts no portfolio: it gives both processes to
IDA* (``idastar --workers 2``), which on the deep boards measured proved as many as the
two backends, in less time in total (BENCHMARKS.md, "Deep boards").
"""

from __future__ import annotations

import multiprocessing as mp
import time
from multiprocessing.connection import wait

from kamicp.game.regions import RegionGraph
from kamicp.procs.progress import say, tell
from kamicp.result import Result

BACKENDS = ("sat", "idastar")
PROVED = ("optimal", "infeasible")


def _run(conn, g, backend, kwargs) -> None:
    from kamicp.procs import progress
    from kamicp.solving import solve

    progress.portfolio_parent.append(conn)  # proved bounds are sent on as they come (tell)
    try:
        conn.send(("result", solve.solve(g, backend, **kwargs)))
    except Exception as err:  # reported to the parent, which keeps the other backend's answer
        conn.send(("error", err))
    conn.close()


def solve_portfolio(
    g: RegionGraph,
    time_limit: float | None = None,
    backends: tuple[str, ...] = BACKENDS,
    start_bound: int = 0,
    **kwargs,
) -> Result:
    """Run every backend of ``backends`` in parallel on ``g``; see the module docstring.

    ``kwargs`` go to ``solve.solve`` (``max_moves``, ``final_colour``, ``workers``).
    ``start_bound``: an admissible lower bound the caller already proved (the start's
    tripod bound, say); the proof names it when it is what a backend's solution meets.
    """
    told = _Told(kwargs.get("max_moves"))
    settled = told.add("admissible bound", start_bound, None) if start_bound else None
    if kwargs.get("known") is not None:
        settled = told.add("given", None, kwargs["known"])
    if settled is not None:  # a given solution meets the bound, or the bound exceeds max_moves
        return settled
    ctx = mp.get_context("fork")
    procs, conns = {}, {}
    for backend in backends:
        parent, child = ctx.Pipe(duplex=False)
        # Not daemons: a backend may start a process of its own (``sat`` runs contained).
        # One backend asks the costly tetrapod bound (seconds) while the other starts: sat,
        # which rarely proves the deep levels where it pays, while idastar finds their
        # solutions (Bud3 with idastar asking it: 43.2 s, 13 s of them the tetrapods)
        tetrapods = backend == "sat" or "sat" not in backends and backend == backends[0]
        options = {"time_limit": time_limit, "tetrapods": tetrapods, **kwargs}
        proc = ctx.Process(target=_run, args=(child, g, backend, options))
        proc.start()
        child.close()
        procs[parent], conns[parent] = proc, backend
    deadline = None if time_limit is None else time.monotonic() + time_limit + 10
    results: list[Result] = []
    errors: list[str] = []
    try:
        while conns:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = wait(list(conns), timeout=left)
            if not ready:
                break
            for conn in ready:
                try:
                    kind, answer = conn.recv()
                except EOFError:
                    kind, answer = "gone", None
                name = conns[conn]
                if kind == "status":
                    say(answer)  # how a backend's search stands, passed on as it is
                    continue
                if kind == "progress":
                    tell(*answer)  # to whoever watches this solve (``kamicp solve --progress``)
                    met = told.add(name, *answer)
                    if met is not None:
                        return met
                    continue
                del conns[conn]
                if kind == "error":
                    errors.append(f"{name}: {type(answer).__name__}: {answer}")
                if isinstance(answer, Result):
                    if not answer.proof.startswith(answer.solver):
                        answer.proof = f"{answer.solver}: {answer.proof}"
                    results.append(answer)
                    if answer.status in PROVED:
                        return answer
    finally:
        for proc in procs.values():
            if proc.is_alive():
                proc.kill()
            proc.join()
    return _combine(results + told.results(), g, errors, kwargs.get("max_moves"))


class _Told:
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
                proof=f"lower bound {lower} ({by}) above {self.max_moves} moves",
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


def _combine(
    results: list[Result], g: RegionGraph, errors: list[str] = (), max_moves: int | None = None
) -> Result:
    """No backend proved its answer alone: keep the best bounds of all (which may meet).

    The status follows from the combined bounds, not from the backend that found the
    solution (a backend stopped early reports its beam's solution as "unknown")."""
    from kamicp import bounds

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
