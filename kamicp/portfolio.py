"""The portfolio: SAT and IDA* side by side in processes; the first proof wins.

Each process runs the whole search of :func:`kamicp.solve.solve` with its own backend (so
the SAT solver keeps its learnt clauses from horizon to horizon). IDA* is in because it
proves the deep KAMI 2 levels the models do not (Threed5, Threegrid2, Bud2: 11-37 s against
time-outs of SAT at 60 s), SAT because it proves the wide ones and every Flood-It board.
CP-SAT is left out by default: on 2 cores a third process only time-slices, and CP-SAT was
3.3x slower than SAT (median, KAMI 2 levels needing over 0.5 s) and proved 10 of 21
Flood-It boards to SAT's 21 (README); ``backends`` puts it back. The first
process to finish with a proved status (optimal or infeasible) wins and the others are
stopped. When neither finishes in time, the bounds of both are combined: the larger lower
bound and the shorter solution.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from multiprocessing.connection import wait

from kamicp.regions import RegionGraph
from kamicp.result import Result

BACKENDS = ("sat", "idastar")
PROVED = ("optimal", "infeasible")


def _run(conn, g, backend, kwargs) -> None:
    from kamicp.solve import solve

    try:
        conn.send(solve(g, backend, **kwargs))
    except Exception as err:  # reported to the parent, which keeps the other backend's answer
        conn.send(err)
    conn.close()


def solve_portfolio(
    g: RegionGraph,
    time_limit: float | None = None,
    backends: tuple[str, ...] = BACKENDS,
    **kwargs,
) -> Result:
    """Run every backend of ``backends`` in parallel on ``g``; see the module docstring.

    ``kwargs`` go to :func:`kamicp.solve.solve` (``max_moves``, ``final_colour``, ``workers``).
    """
    ctx = mp.get_context("fork")
    procs, conns = {}, {}
    for backend in backends:
        parent, child = ctx.Pipe(duplex=False)
        # Not daemons: a backend may start a process of its own (``sat`` runs contained).
        proc = ctx.Process(
            target=_run, args=(child, g, backend, {"time_limit": time_limit, **kwargs})
        )
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
                    answer = conn.recv()
                except EOFError:
                    answer = None
                name = conns.pop(conn)
                if isinstance(answer, Exception):
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
    return _combine(results, g, errors)


def _combine(results: list[Result], g: RegionGraph, errors: list[str] = ()) -> Result:
    """No backend proved its answer alone: keep the best bounds of all (which may meet)."""
    from kamicp import bounds

    lower = max([r.lower_bound for r in results], default=bounds.lower_bound(g))
    with_moves = [r for r in results if r.solution is not None]
    best = min(with_moves, key=lambda r: len(r.solution)) if with_moves else None
    status = "unknown" if best is None else best.status
    proof = "no backend finished: bounds of all"
    if best is not None and lower >= len(best.solution) and best.status == "feasible":
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
