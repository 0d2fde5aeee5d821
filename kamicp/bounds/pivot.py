"""The bounds of the pivot rules (Flood-It): how far the pivot's region must grow.

The pivot's region grows by at most one step of distance per move, and every colour beyond
distance ``d`` needs its own move after move ``d`` (the layered bound of Flood-It solvers;
Clifford, Jalsenius, Montanaro and Sach, "The complexity of flood filling games", 2012, for
the game).
"""

from __future__ import annotations

from kamicp.bounds.position import Current
from kamicp.game.regions import RegionGraph

__all__ = [
    "pivot_eccentricity_bound",
    "pivot_final",
    "pivot_final_colour",
    "pivot_layer_bound",
    "pivot_layers",
]


def pivot_final_colour(g: RegionGraph, final_colour: int | None) -> tuple[bool, int | None]:
    """Under pivot rules, whether the board can be solved at all, and the colour the pivot's
    piece must end in: the pieces without the pivot never change, so each must be one region
    and all of one colour, which then is the final colour (and must be ``final_colour`` if
    that is given).

    Parameters
    ----------
    g : RegionGraph
        A pivot-rule board.
    final_colour : int or None
        The colour asked for, or None for any.

    Returns
    -------
    (bool, int or None)
        Solvable, and the final colour (None: free to choose). O(n + m).

    Examples
    --------
    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 2], [(0, 1)], rules="pivot")  # region 2 apart, colour 2
    >>> pivot_final_colour(g, None), pivot_final_colour(g, 1)
    ((True, 2), (False, None))
    """
    piece = set(g.pivot_island)
    rest = [r for r in range(g.n) if r not in piece]
    others = {g.colour[r] for r in rest}
    if len(others) > 1 or len(rest) > len(g.islands) - 1:
        return False, None
    if others:
        (c,) = others
        if final_colour is not None and final_colour != c:
            return False, None
        return True, c
    return True, final_colour


def pivot_final(cur: Current, final_colour: int | None) -> int | None:
    """:func:`pivot_final_colour` of a position under search: the colour the pivot's piece
    must end in, the one asked for or that of the other pieces, or None when free to choose
    (the position is solvable)."""
    if final_colour is not None:
        return final_colour
    home = cur.island_of[cur.pivot]
    others = {cur.pos[v] for i, piece in enumerate(cur.islands) if i != home for v in piece}
    return next(iter(others)) if len(others) == 1 else None


def pivot_layers(
    cur: Current, source: int | None = None, colour: int | None = None
) -> list[set[int]]:
    """Colours by distance from the pivot node (or ``source``): BFS layers. O(n + m).

    With ``colour``, the layers of the position after recolouring the source to
    ``colour``, without building it: distances from the merged node are distances from
    the merged star (a multi-source BFS), layer 0 has the new colour.
    """
    p = cur.pivot if source is None else source
    start = [p] if colour is None else [p, *cur.merged(p, colour)]
    seen = set(start)
    frontier = start
    layers = [{cur.pos[p] if colour is None else colour}]
    while True:
        nxt = []
        for v in frontier:
            for u in cur.adj[v]:
                if u not in seen:
                    seen.add(u)
                    nxt.append(u)
        if not nxt:
            return layers
        layers.append({cur.pos[u] for u in nxt})
        frontier = nxt


def pivot_eccentricity_bound(cur: Current, final_colour: int | None = None) -> int:
    """Pivot rules: the eccentricity of the pivot node, plus one when the pivot's piece is
    a single node of a colour other than the required final one.

    Proof: the pivot's region is the centre of the star every move contracts, and such a
    contraction lowers the centre's eccentricity by at most one. O(n + m).
    """
    ecc = len(pivot_layers(cur)) - 1
    final = pivot_final(cur, final_colour)
    if ecc == 0:
        return int(final is not None and final != cur.pos[cur.pivot])
    return ecc


def pivot_layer_bound(
    cur: Current, final_colour: int | None = None, colour: int | None = None
) -> int:
    """Pivot rules: the largest d + |colours at distance > d from the pivot (with the final
    colour)| over 0 <= d < eccentricity.

    Proof: after j moves the pivot's region lies within distance j of where it started, so
    a region at distance > d joins it at move d + 1 or later; a region of colour c joins
    only by a move to c (other regions never change colour), so each colour beyond d needs
    its own move after move d, and so does the final colour (the last move sets it).
    With ``colour``: the bound after recolouring the pivot to ``colour`` (same value as on
    the played position, computed without building it). O(n + m).
    """
    layers = pivot_layers(cur, None, colour)
    final = pivot_final(cur, final_colour)
    if len(layers) == 1:
        return int(final is not None and final not in layers[0])
    best = 0
    beyond: set[int] = set() if final is None else {final}
    for d in range(len(layers) - 2, -1, -1):  # colours at distance > d, growing as d falls
        beyond |= layers[d + 1]
        best = max(best, d + len(beyond))
    return best
