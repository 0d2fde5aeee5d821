"""The best lower bound on a position, and whether any sequence of moves solves it.

:func:`estimate` is the bound the searches ask at every node; :func:`bound_report` and
:func:`lower_bound` gather every bound that applies to a position (``kamicp info``, the start
of a solve), the costly ones included.
"""

from __future__ import annotations

from kamicp.bounds.cache import BOUND_CACHE, piece_key
from kamicp.bounds.islands import colour_bound, islands_bound, radius_bound
from kamicp.bounds.pieces import tetrapods_bound, tripods_bound, walks_bound
from kamicp.bounds.pivot import pivot_eccentricity_bound, pivot_layer_bound
from kamicp.bounds.position import Current, contract
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Position, start

__all__ = ["UNSOLVABLE", "bound_report", "estimate", "lower_bound", "solvable"]

UNSOLVABLE = 10**9  # the lower bound of a position that no sequence of moves solves


def estimate(cur: Current, rules: str, final_colour: int | None = None) -> int:
    """The bound the searches use at every node: the best that applies to ``rules``.

    Free rules: the islands bound (it includes the colour and radius bounds). Pivot rules:
    the layer bound (it includes the eccentricity and colour bounds).
    """
    if rules == "pivot":
        return pivot_layer_bound(cur, final_colour)
    return islands_bound(cur, final_colour)


def solvable(g: RegionGraph, pos: Position | None = None, final_colour: int | None = None) -> bool:
    """Can any sequence of moves solve ``pos`` (ending in ``final_colour`` if given)?

    Free rules: always (flood each piece, then recolour it). Pivot rules: the other pieces
    can never change, so they must already be one colour each, all the same, and equal to
    ``final_colour`` if given; the pivot's piece can then be flooded and recoloured.
    """
    if final_colour is not None and not 0 <= final_colour < g.k:
        return False
    if g.rules != "pivot":
        return True
    pos = start(g) if pos is None else pos
    others = {pos[r] for piece in g.islands if piece is not g.pivot_island for r in piece}
    if final_colour is not None:
        others.add(final_colour)
    return len(others) <= 1


def bound_report(
    g: RegionGraph,
    pos: Position | None = None,
    final_colour: int | None = None,
    walks: bool = True,
    deadline: float | None = None,
) -> dict[str, int]:
    """Every bound that applies to the rules, by name (for ``kamicp info``).

    ``walks=False`` leaves out the walk and tripod bounds, the costly ones (for searches
    that ask at every node); ``deadline`` limits the walk and tripod levels
    (:func:`walks_bound`, :func:`tripods_bound`).

    ``unsolvable`` is added (with :data:`UNSOLVABLE`) when no sequence of moves solves it.
    """
    cur = contract(g, pos)
    report = {
        "colours": colour_bound(cur, final_colour),
        "radius": radius_bound(cur),
    }
    if g.rules == "pivot":
        report["pivot_eccentricity"] = pivot_eccentricity_bound(cur, final_colour)
        report["pivot_layers"] = pivot_layer_bound(cur, final_colour)
    else:
        report["islands"] = islands_bound(cur, final_colour)
        if walks:
            report["walks"] = walks_bound(cur, final_colour, deadline=deadline)
            report["tripods"] = tripods_bound(cur, final_colour, deadline)
            if any(piece_key(cur, p) in BOUND_CACHE.tetrapods for p in cur.islands):
                report["tetrapods"] = tetrapods_bound(cur, final_colour, cached_only=True)
    if not solvable(g, pos, final_colour):
        report["unsolvable"] = UNSOLVABLE
    return report


def lower_bound(
    g: RegionGraph,
    pos: Position | None = None,
    final_colour: int | None = None,
    walks: bool = True,
    deadline: float | None = None,
) -> int:
    """The best admissible lower bound on the moves still needed from ``pos``.

    :data:`UNSOLVABLE` when no sequence of moves solves the position (see :func:`solvable`).
    ``walks=False``: without the walk and tripod bounds (cheaper, for use at every search
    node).
    """
    return max(bound_report(g, pos, final_colour, walks, deadline).values())
