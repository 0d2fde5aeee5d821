"""State-space search over region graphs: BFS (the oracle), A*, IDA* (one process or
many) and the greedy beams.

The modules, from the ground up: :mod:`~kamicp.search.bfs` and :mod:`~kamicp.search.greedy`
stand alone; :mod:`~kamicp.search.moves` (the moves tried and the restrictions proved in
``encodings/bounds.md``) and :mod:`~kamicp.search.astar` (A* and the search base) serve
:mod:`~kamicp.search.ida` (IDA* on one process), whose costly checks follow
:mod:`~kamicp.search.checks` and :mod:`~kamicp.search.rental`, and which writes to a
:mod:`~kamicp.search.journal` and groups states by :mod:`~kamicp.search.isomorphs`;
:mod:`~kamicp.search.parallel` and :mod:`~kamicp.search.workers` split its iterations over
processes; :mod:`~kamicp.search.idastar` is the entry that picks one or the other.
"""

__all__: list[str] = []
