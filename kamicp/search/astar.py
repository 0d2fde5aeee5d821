"""A*: an optimal solution guided by admissible bounds, over the children of
:class:`~kamicp.search.base.Search`.

Memory: A* stores every generated position (IDA*, :mod:`kamicp.search.ida.search`, only a table).

Examples
--------
>>> from kamicp.game.regions import from_edges
>>> g = from_edges([0, 1, 2, 1, 0, 2, 1], [(i, i + 1) for i in range(6)])
>>> out = astar(g)
>>> out.complete, len(out.moves)
(True, 4)
"""

from __future__ import annotations

import heapq
import itertools

from kamicp.bounds import UNSOLVABLE, contract, solvable
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Move
from kamicp.procs.deadline import LimitReached
from kamicp.result import SearchOutcome
from kamicp.search.base import INF, Search
from kamicp.search.moves import state_key

__all__ = ["astar"]


def astar(
    g: RegionGraph,
    final_colour: int | None = None,
    max_moves: int | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
) -> SearchOutcome:
    """An optimal solution by A* with re-opening (admissible, not necessarily consistent,
    bounds), or what was proved when a limit stopped it.

    Same contract as :func:`kamicp.search.bfs.bfs`; when stopped, ``lower_bound`` is the least
    f = g + h still open (some state on an optimal path is open with its optimal g).
    ``node_limit`` counts expansions. Memory: every generated position.
    """
    if not solvable(g, None, final_colour):
        return SearchOutcome(None, UNSOLVABLE, True, 0)
    s = Search(g, final_colour, node_limit, deadline)
    root = contract(g)
    h0 = s.bound(root, 0)
    if max_moves is not None and h0 > max_moves:
        return SearchOutcome(None, h0, True, 0)
    key0 = state_key(root, 0)
    best_g = {key0: 0}
    parent: dict[bytes, tuple[bytes, Move] | None] = {key0: None}
    counter = itertools.count()
    heap = [(h0, 0, next(counter), key0, root.pos, 0)]
    cut = INF  # least f of a child dropped for exceeding max_moves
    try:
        while heap:
            f, gc, _, key, pos, first = heapq.heappop(heap)
            if gc > best_g[key]:
                continue  # a stale entry: the state was reached more cheaply since
            cur = contract(g, tuple(pos))
            if cur.is_solved(final_colour):
                path = _path(parent, key)
                return SearchOutcome(path, len(path), True, s.nodes)
            s.tick()
            for child in s.children(cur, first):
                h, move, nxt = child.bound, child.move, child.first
                fc = gc + 1 + h
                if fc >= INF:
                    continue
                if max_moves is not None and fc > max_moves:
                    cut = min(cut, fc)
                    continue
                ckey = s.key_of(cur, child)
                if gc + 1 < best_g.get(ckey, INF):
                    best_g[ckey] = gc + 1
                    parent[ckey] = (key, move)
                    position = cur.pos_after(*move)
                    heapq.heappush(heap, (fc, gc + 1, next(counter), ckey, position, nxt))
    except LimitReached:
        open_f = min((e[0] for e in heap if e[1] <= best_g[e[3]]), default=INF)
        return SearchOutcome(None, min(open_f, cut, f), False, s.nodes)
    if max_moves is not None:
        return SearchOutcome(None, min(cut, UNSOLVABLE), True, s.nodes)
    return SearchOutcome(None, UNSOLVABLE, True, s.nodes)


def _path(parent: dict, key: bytes) -> list[Move]:
    out = []
    while parent[key] is not None:
        key, move = parent[key]
        out.append(move)
    out.reverse()
    return out
