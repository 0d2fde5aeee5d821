"""IDA*, on one process or many workers: the public entry.

The package, from the ground up: :mod:`~kamicp.search.ida.checks` and
:mod:`~kamicp.search.ida.rental` (where the costly bounds are asked),
:mod:`~kamicp.search.ida.journal` (proved bounds kept in a file),
:mod:`~kamicp.search.ida.search` (the one-process search), :mod:`~kamicp.search.ida.tasks`
(a worker's side of a parallel proof: tasks that split), :mod:`~kamicp.search.ida.engine`
(the coordinator), and its workers as local processes (:mod:`~kamicp.search.ida.local`) or
Ray actors (:mod:`~kamicp.search.ida.cluster`). :func:`idastar` picks one process or many
as ``options.workers`` and ``options.ray`` say.

Examples
--------
>>> from kamicp.game.regions import from_edges
>>> g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)])
>>> out = idastar(g)
>>> out.complete, len(out.moves), out.lower_bound
(True, 4, 4)
>>> idastar(g, max_moves=3).moves is None
True
"""

from __future__ import annotations

from kamicp.game.regions import RegionGraph
from kamicp.result import SearchOutcome
from kamicp.search.ida.engine import parallel_idastar
from kamicp.search.ida.search import DEFAULTS, IdaOptions, serial_idastar

__all__ = ["IdaOptions", "idastar"]


def idastar(
    g: RegionGraph,
    final_colour: int | None = None,
    max_moves: int | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
    *,
    lower: int | None = None,
    options: IdaOptions = DEFAULTS,
) -> SearchOutcome:
    """An optimal solution by IDA* with a transposition table, or what was proved.

    Each iteration searches depth-first within a threshold that is a proved lower bound (the
    start's bound, then the least bound that exceeded the previous threshold), so the first
    solution found is optimal. Free rules: the first threshold is also at least the start's
    walk bound (where walk checks are asked) and its tetrapod bound if a driver computed it.

    Parameters
    ----------
    g : RegionGraph
        The board.
    final_colour : int or None
        The colour the board must end in, if required.
    max_moves : int or None
        Look for solutions of at most this many moves only.
    node_limit : int or None
        States expanded before the search stops.
    deadline : float or None
        A ``time.monotonic()`` value at which the search stops.
    lower : int or None
        A *proved* lower bound on the optimum (say, the horizon after the last one a SAT
        model refuted): the iterations below it, which could only fail, are skipped.
    options : IdaOptions
        Checks, processes, journal and watchers (:class:`kamicp.search.ida.IdaOptions`).

    Returns
    -------
    SearchOutcome
        As :func:`kamicp.search.bfs.bfs`: found, ``complete=True`` and ``moves`` optimal;
        none within ``max_moves``, ``moves=None`` and ``lower_bound = max_moves + 1`` or
        more; stopped by ``node_limit`` or ``deadline``, ``complete=False`` and
        ``lower_bound`` the current threshold.

    Notes
    -----
    Memory: the table of proved bounds, cleared when it holds
    :data:`~kamicp.search.ida.checks.TABLE_LIMIT` entries. Time: exponential in the optimum in
    the worst case; the bounds and move restrictions are what keep it practical.
    """
    many = options.workers > 1 or options.ray is not None
    search = parallel_idastar if many else serial_idastar
    return search(g, final_colour, max_moves, node_limit, deadline, lower=lower, options=options)
