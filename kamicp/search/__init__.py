"""State-space search over region graphs: BFS (the oracle), A*, IDA* (one process or
many) and the greedy beams.

The modules, from the ground up: :mod:`~kamicp.search.bfs` and :mod:`~kamicp.search.greedy`
stand alone; :mod:`~kamicp.search.moves` (the moves tried and the restrictions proved in
``encodings/bounds.md``) and :mod:`~kamicp.search.base` (the search base, a state's children)
serve :mod:`~kamicp.search.astar` and :mod:`kamicp.search.ida`, IDA* on one process or many
workers (its own package), which groups states by :mod:`~kamicp.search.isomorphs`; the
compiled Flood-It search is :mod:`~kamicp.search.pivot_astar`.
"""

__all__: list[str] = []
