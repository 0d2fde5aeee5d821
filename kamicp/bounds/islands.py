"""The bounds read off each piece's colours and radius: cheap enough for every search node.

- colours: colours present minus one, plus one if a required final colour is absent (a move
  removes at most one colour);
- radius (any rules): each piece needs at least its radius in moves (:mod:`kamicp.bounds.radius`);
- islands (free rules): pieces never interact, so per-piece bounds add up:
  ``min over the final colour f of sum over pieces of max(radius, colours other than f)``.

The searches score a move without playing it (:func:`islands_bound_after`).
"""

from __future__ import annotations

from kamicp.bounds.position import Current
from kamicp.bounds.radius import piece_radius, radius_after

__all__ = ["colour_bound", "islands_bound", "islands_bound_after", "radius_bound"]


def colour_bound(cur: Current, final_colour: int | None = None) -> int:
    """Colours present minus one, plus one when ``final_colour`` is required but absent.

    Proof: a move recolours one region from a to c; afterwards at most a has vanished, so
    the number of colours other than the final one drops by at most one per move. O(n).
    """
    present = {cur.pos[v] for v in cur.nodes()}
    if final_colour is None:
        return len(present) - 1
    return len(present - {final_colour})


def radius_bound(cur: Current) -> int:
    """The largest radius over the pieces (a piece alone needs that many moves)."""
    return max(piece_radius(cur, i) for i in range(len(cur.islands)))


def islands_bound(cur: Current, final_colour: int | None = None) -> int:
    """Free rules: min over the final colour f of the sum over pieces of
    max(radius, number of the piece's colours other than f).

    Proof: each move acts inside one piece, so the moves split by piece; a piece brought to
    colour f needs at least its radius (star contractions) and at least its colours other
    than f (one removed per move). The final colour is common to all pieces; a colour
    absent everywhere is never the best choice, so only present ones are tried.
    O(n + m) after a merging move (see :func:`piece_radius`).
    """
    count = len(cur.islands)
    if count == 1:  # the common case: the final colour only matters if it is absent
        colours = cur.piece_colours(0)
        rest = len(colours) - 1 if final_colour in colours or final_colour is None else len(colours)
        return max(piece_radius(cur, 0), rest)
    radii = [piece_radius(cur, i) for i in range(count)]
    colours = [cur.piece_colours(i) for i in range(count)]
    finals = set().union(*colours) if final_colour is None else (final_colour,)
    return min(
        sum(max(r, len(cs) - (f in cs)) for r, cs in zip(radii, colours, strict=True))
        for f in finals
    )


def islands_bound_after(
    cur: Current,
    v: int,
    colour: int,
    final_colour: int | None = None,
    movers: set[int] | None = None,
) -> tuple[int, int]:
    """The islands bound of the position after recolouring node ``v`` to ``colour``, and
    the new radius of ``v``'s piece, without building that position.

    Equal to ``islands_bound(cur.play(v, colour), final_colour)``: the radius comes from
    ``cur``'s balls (:func:`radius_after`), the colours from ``cur``'s colour counts, the
    other pieces are unchanged. O(r * candidates + k) after ``cur``'s caches are built.
    ``movers``, if given, is :func:`~kamicp.bounds.radius.radius_movers` of ``v``'s piece: a
    move of any other node keeps the radius, so it is not recomputed.
    """
    i = cur.island_of[v]
    gone = cur.merged(v, colour)
    if gone and (movers is None or v in movers):
        radius = radius_after(cur, i, (v, *gone))
    else:
        radius = piece_radius(cur, i)
    counts = dict(cur.colour_counts(i))
    old = cur.pos[v]
    counts[old] -= 1
    counts[colour] = counts.get(colour, 0) + 1 - len(gone)
    after = {c for c, n in counts.items() if n > 0}
    if len(cur.islands) == 1:
        rest = len(after) - 1 if final_colour in after or final_colour is None else len(after)
        return max(radius, rest), radius
    radii = [piece_radius(cur, j) if j != i else radius for j in range(len(cur.islands))]
    colours = [cur.piece_colours(j) if j != i else after for j in range(len(cur.islands))]
    finals = set().union(*colours) if final_colour is None else (final_colour,)
    bound = min(
        sum(max(r, len(cs) - (f in cs)) for r, cs in zip(radii, colours, strict=True))
        for f in finals
    )
    return bound, radius
