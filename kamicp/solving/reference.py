"""The searches as solvers: BFS, A*, IDA* below the beam's solution, greedy, and the compiled
A* of pivot rules.

Each search starts from the beam's solution (:mod:`kamicp.solving.upper_bound`) where it
has none: it is then asked for one move fewer, so a complete search without a solution
proves the beam's solution optimal, and a solution it finds is optimal (the searches
find a shortest one first).
"""

from __future__ import annotations

import importlib

from kamicp import bounds
from kamicp.game import rules
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.plural import count, count_moves
from kamicp.procs.deadline import Deadline
from kamicp.procs.progress import say, tell
from kamicp.result import Result, SearchOutcome
from kamicp.search.greedy import WIDTH
from kamicp.solving.options import SolveOptions
from kamicp.solving.upper_bound import finish, greedy_solution, never

__all__ = ["SEARCHES", "solve_reference"]

# Each search's module and function, imported when a solve asks for it.
SEARCHES = {
    "bfs": ("kamicp.search.bfs", "bfs"),
    "astar": ("kamicp.search.astar", "astar"),
    "idastar": ("kamicp.search.ida", "idastar"),
    "pivot-astar": ("kamicp.search.pivot_astar", "pivot_astar"),
}


def solve_reference(
    g: RegionGraph,
    solver: str,
    options: SolveOptions,
    clock: Deadline,
    known: list[Move] | None = None,
    search: dict | None = None,
) -> Result:
    """Solve ``g`` with a search (``bfs``, ``astar``, ``idastar``, ``pivot-astar``) or ``greedy``.

    Parameters
    ----------
    g : RegionGraph
        The board.
    solver : str
        One of :data:`kamicp.solving.options.REFERENCE_SOLVERS`.
    options : SolveOptions
        ``max_moves``, ``final_colour``, ``node_limit`` and (``greedy``) ``beam_width``
        are used.
    clock : Deadline
        When the search stops.
    known : list of moves or None
        A replayed solution to beat (the searches are then asked for fewer moves); it
        replaces ``options.known``, which the caller may have improved on.
    search : dict or None
        Keywords for IDA* (``workers``, ``tetrapod_depth``, ``journal``, ``split_after``)
        or for the compiled A* (``on_slice``).

    Returns
    -------
    Result
        Its solution replayed where the beam found it; ``solver`` is left empty.
    """
    max_moves, final_colour, node_limit = (
        options.max_moves,
        options.final_colour,
        options.node_limit,
    )
    width = options.beam_width or WIDTH
    if not bounds.solvable(g, rules.start(g), final_colour):
        return never(g, final_colour)
    if solver == "greedy":
        moves = greedy_solution(g, final_colour, width, deadline=clock.at)
        if known is not None and (moves is None or len(known) < len(moves)):
            moves = known
        lb = bounds.lower_bound(g, final_colour=final_colour)
        return finish(moves, lb, max_moves, "lower bound equals the solution's length")
    lower = None
    if solver == "idastar" and known is None:
        # IDA* then only has to refute one move fewer than the beam's solution: where the
        # beam is optimal, its costliest iteration (the one that finds a solution) is saved.
        lower = bounds.lower_bound(g, final_colour=final_colour)
        known = greedy_solution(g, final_colour, lower=lower, deadline=clock.at)
        if known is not None:
            tell(None, known)
    if known is not None and max_moves is None:
        return _beat(g, solver, known, final_colour, node_limit, clock, search)
    if known is not None and len(known) <= max_moves:
        if lower is None:
            lower = bounds.lower_bound(g, final_colour=final_colour)
        # the solution may be the user's, the start beam's or the one just found: not "given"
        why = "lower bound equals the solution's length"
        return finish(known, lower, max_moves, why)
    out = _search(g, solver, max_moves, final_colour, node_limit, clock, search)
    if out.complete and out.moves is None:
        # a solution longer than max_moves (the beam's, replayed) still bounds the optimum
        upper = None if known is None else len(known)
        return Result(
            "infeasible",
            None,
            out.lower_bound,
            upper,
            "",
            proof=f"{solver}: {_exhaustive(search)}",
        )
    if out.complete:
        return Result(
            "optimal",
            out.moves,
            len(out.moves),
            len(out.moves),
            "",
            proof=f"{solver}: {_exhaustive(search)}",
        )
    # the beam only where neither the search nor the caller has a solution, and only within
    # the time limit: a wide beam takes seconds on big boards
    best = out.moves if out.moves is not None else known
    if best is None:
        best = greedy_solution(g, final_colour, deadline=clock.at)
    if best is not None and out.lower_bound >= len(best):
        # Stopped, but the proved bound already meets a solution (the greedy one, say).
        why = f"{solver}: lower bound {out.lower_bound} proved, met by a solution"
        return finish(best, len(best), max_moves, why)
    return Result(
        "unknown"
        if best is None or (max_moves is not None and len(best) > max_moves)
        else "feasible",
        best,
        out.lower_bound,
        None if best is None else len(best),
        "",
        proof=f"{solver}: limit reached after {count(out.nodes, 'node')}",
    )


def _search(g, solver, max_moves, final_colour, node_limit, clock, options=None) -> SearchOutcome:
    """Run a reference search; ``options`` (``workers``, ``tetrapod_depth``, ``journal``)
    go to IDA*, ``on_slice`` to the compiled A*."""
    # the solver's module imported now, not with this one: a Flood-It solve never loads
    # IDA* (16 ms of a 0.2 s process); the function looked up at each call, where a test may
    # stand in for one
    module, name = SEARCHES[solver]
    found = importlib.import_module(module)
    search = getattr(found, name)
    extra = {}
    if solver == "pivot-astar":  # the least f left open is a proved lower bound
        extra["on_bound"] = lambda lower: tell(lower, None)
        extra.update(options or {})
    if solver == "idastar":  # every threshold it passes is a proved lower bound
        extra["options"] = found.IdaOptions(
            on_bound=lambda lower: tell(lower, None),
            on_status=lambda text: say(f"{solver}: {text}"),
            **(options or {}),  # processes (kamicp.search.parallel), deep checks
        )
    return search(
        g,
        final_colour=final_colour,
        max_moves=max_moves,
        node_limit=node_limit,
        deadline=clock.at,
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
        why = f"{solver}: no solution of {count_moves(len(known) - 1)} ({_exhaustive(options)})"
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
        proof=f"{solver}: limit reached after {count(out.nodes, 'node')}",
    )


def _exhaustive(options: dict | None) -> str:
    """How a complete search proved its answer, naming the journal whose bounds it used."""
    journal = (options or {}).get("journal")
    if journal is None:
        return "exhaustive search"
    return f"exhaustive search, with the proved bounds of journal {journal}"
