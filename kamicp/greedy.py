"""Greedy solutions: a quick upper bound on the optimum, on boards of any size.

- pivot rules: flood from the pivot; each move picks the colour that absorbs a whole colour
  if one can, else the one absorbing the most regions, then the most cells (the usual
  Flood-It greedy); a final recolouring if the board must end in another colour;
- free rules: the same flood from several centres of each piece (nodes of least
  eccentricity), and on small pieces also a free-move greedy that plays the move leaving
  the smallest admissible bound; each piece takes whichever costs least for the final
  colour, and the final colour is chosen to minimise the total.

Every move of the flood merges at least one region, so a piece of n regions takes at most
n - 1 moves plus one final recolouring: the greedy always terminates with a solution when
one exists (pivot rules with pieces the pivot cannot reach: None).
Complexity: floods cost O(moves * (n + m)); the centres cost one BFS per node of a piece.
"""

from __future__ import annotations

from kamicp.bounds import Current, contract, piece_radius, solvable
from kamicp.regions import RegionGraph
from kamicp.rules import Move

CENTRES = 8  # flood from this many of the most central nodes of each piece
LOCAL_LIMIT = 40  # pieces of at most this many regions also get the free-move greedy


def greedy(g: RegionGraph, final_colour: int | None = None) -> list[Move] | None:
    """A solution (not necessarily optimal), or None when the board cannot be solved."""
    if not solvable(g, None, final_colour):
        return None
    cur = contract(g)
    if g.rules == "pivot":
        home = cur.island_of[cur.pivot]
        final = final_colour
        for i, piece in enumerate(cur.islands):
            if i != home:
                final = cur.colour[piece[0]]
        moves, end = flood(cur, cur.pivot, final)
        if final is not None and end != final:
            moves.append((cur.pivot, final))
        return moves
    options = [_piece_options(cur, i) for i in range(len(cur.islands))]
    finals = range(g.k) if final_colour is None else (final_colour,)

    def cost(f: int) -> int:
        return sum(min(len(m) + (end != f) for m, end in opts) for opts in options)

    best = min(finals, key=cost)
    out: list[Move] = []
    for i, opts in enumerate(options):
        m, end = min(opts, key=lambda o: len(o[0]) + (o[1] != best))
        out.extend(m)
        if end != best:
            out.append((cur.islands[i][0], best))
    return out


def flood(cur: Current, v: int, prefer: int | None = None) -> tuple[list[Move], int]:
    """Flood the piece holding node ``v`` from ``v`` (pivot-style), greedily.

    Returns the moves and the colour the piece ends in. Each move recolours the growing
    region (always named ``v``) to a colour of one of its neighbours, choosing by
    (whole colour absorbed, regions absorbed, cells absorbed, ``prefer`` last).
    """
    piece = cur.islands[cur.island_of[v]]
    remaining: dict[int, int] = {}
    for u in piece:
        if u != v:
            remaining[cur.colour[u]] = remaining.get(cur.colour[u], 0) + 1
    moves: list[Move] = []
    while cur.adj[v]:
        count: dict[int, int] = {}
        cells: dict[int, int] = {}
        for u in cur.adj[v]:
            c = cur.colour[u]
            count[c] = count.get(c, 0) + 1
            cells[c] = cells.get(c, 0) + len(cur.members[u])
        c = max(count, key=lambda c: (count[c] == remaining[c], count[c], cells[c], c == prefer))
        remaining[c] -= count[c]
        moves.append((v, c))
        cur = cur.play(v, c)
    return moves, cur.colour[v]


def central_nodes(cur: Current, i: int, limit: int = CENTRES) -> list[int]:
    """Up to ``limit`` nodes of piece ``i`` of least eccentricity (one BFS per node)."""
    piece = cur.islands[i]
    ecc = {}
    for v in piece:
        seen = {v}
        frontier = [v]
        depth = 0
        while True:
            nxt = [u for w in frontier for u in cur.adj[w] if u not in seen]
            if not nxt:
                break
            seen.update(nxt)
            frontier = list(set(nxt))
            depth += 1
        ecc[v] = depth
    return sorted(piece, key=lambda v: ecc[v])[:limit]


def _piece_options(cur: Current, i: int) -> list[tuple[list[Move], int]]:
    """Candidate ways to finish piece ``i``: (moves, colour it ends in)."""
    piece = cur.islands[i]
    if len(piece) == 1:
        return [([], cur.colour[piece[0]])]
    options = [flood(cur, v) for v in central_nodes(cur, i)]
    if len(piece) <= LOCAL_LIMIT:
        options.append(_local(cur, i))
    return options


def _local(cur: Current, i: int) -> tuple[list[Move], int]:
    """Free-move greedy on piece ``i``: the merging move leaving the least bound (radius,
    colours) for the piece, then the fewest regions, until the piece is one region. Each
    move merges, so at most n - 1 moves."""
    moves: list[Move] = []
    while len(cur.islands[i]) > 1:
        best = None
        for v in cur.islands[i]:
            for c in {cur.colour[u] for u in cur.adj[v]}:
                child = cur.play(v, c)
                bound = max(piece_radius(child, i), len(child.piece_colours(i)) - 1)
                score = (bound, len(child.islands[i]))
                if best is None or score < best[0]:
                    best = (score, (v, c), child)
        moves.append(best[1])
        cur = best[2]
    return moves, cur.colour[cur.islands[i][0]]
