"""The costly bounds of the free rules: each piece's walk, tripod and tetrapod values.

By Meeks and Scott's spanning-tree theorem a piece needs at least the moves of the best
subtree joining any two (walks, :mod:`kamicp.bounds.walks`), three (tripods,
:mod:`kamicp.bounds.tripods`) or four (tetrapods, :mod:`kamicp.bounds.tetrapods`) of its
nodes. Each bound here is the islands bound with every piece's term raised to that value;
the values are cached per piece (:data:`kamicp.bounds.cache.BOUND_CACHE`), and pieces too
large for the levels keep the value of the bound below.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from kamicp.bounds.cache import BOUND_CACHE, piece_key, piece_lists
from kamicp.bounds.capped import kept_tripod_levels, piece_tetrapods
from kamicp.bounds.position import Current
from kamicp.bounds.radius import piece_radius
from kamicp.bounds.tripods import full_colours, tripod_values
from kamicp.bounds.walks import (
    cheapest_final,
    first_full,
    least_full,
    least_walk_value,
    walk_bound,
    walk_values,
)

__all__ = [
    "TETRAPOD_BYTES",
    "TETRAPOD_NODES",
    "TRIPOD_BYTES",
    "TRIPOD_NODES",
    "WALK_NODES",
    "kept_tripod_value",
    "tetrapods_bound",
    "tripods_bound",
    "walks_bound",
    "walks_bound_capped",
]

# Pieces above this many regions have no walk value (their radius and colours bound them):
# the walk levels cost O(k n^2) memory and O(t k n^2) work (BENCHMARKS.md, "Big boards":
# 1.1 s and 40 MB on a piece of 1,323 regions, where the walk value is the radius + 2).
WALK_NODES = 1500
# Pieces above this many regions keep their walk value: the tripod levels cost
# O(n^4 / 64) word operations and O(n^3) bits a level (0.21 s on 173 regions: BENCHMARKS.md,
# "Start bounds: tripods and tetrapods").
TRIPOD_NODES = 200
# Nor pieces whose tripod levels, counted to the walk value + 2, would need more bytes than
# this: memory against a bound that only raises the walk value (BENCHMARKS.md, "Start bounds:
# tripods and tetrapods": a row of 164 cells in 25 colours, 4.2 GB without the guard).
TRIPOD_BYTES = 1024**3
# Pieces above this many regions are left out of the tetrapod bound: O(n^4) bits a level and
# colour (BENCHMARKS.md, "Start bounds: tripods and tetrapods": 1.6 GB for 111 regions).
TETRAPOD_NODES = 120
# Nor where its levels ((levels) x k x n^3 words of 64 bits, counted to the cap, or to the
# tripod value + 2 without one) would need more bytes than this: memory against a bound that
# only raises the tripod value (BENCHMARKS.md, "Start bounds: tripods and tetrapods").
TETRAPOD_BYTES = 2 * 1024**3


def walks_bound(
    cur: Current,
    final_colour: int | None = None,
    cap: int | None = None,
    deadline: float | None = None,
) -> int:
    """Free rules: the islands bound with each piece's term raised to its walk value
    (:mod:`kamicp.bounds.walks`, Bound 6 of ``encodings/bounds.md``); at least the islands bound.

    O(t k n^2) compiled work for bound t: meant for a puzzle's start, not every search node.
    Without ``cap`` the values are cached per piece, and pieces above :data:`WALK_NODES`
    regions keep the islands bound's term; ``deadline`` (a ``time.monotonic()`` value) stops
    the levels there, the piece keeping the levels done (as for :func:`tripods_bound`).
    """
    floors = _piece_floors(cur)
    if cap is not None:
        return walk_bound(cur.pos, cur.adj, cur.islands, cur.k, final_colour, floors, cap)
    per_piece = []
    for piece, floor in zip(cur.islands, floors, strict=True):
        values = _piece_walks(piece_key(cur, piece), deadline)
        per_piece.append([max(a, b) for a, b in zip(values, floor, strict=True)])
    return cheapest_final(per_piece, cur.k, final_colour)


def _piece_walks(key: tuple, deadline: float | None) -> tuple[int, ...]:
    """Walk values of one piece (:func:`piece_key`), cached; zeros above
    :data:`WALK_NODES` regions, and the levels done when ``deadline`` passes first."""
    if key in BOUND_CACHE.walks:
        return BOUND_CACHE.walks[key]
    k, colours, adj = piece_lists(key)
    n = len(colours)
    values = [0] * k if n > WALK_NODES else walk_values(colours, adj, range(n), k, None, deadline)
    BOUND_CACHE.walks[key] = tuple(values)
    return BOUND_CACHE.walks[key]


def _piece_floors(cur: Current) -> list[list[int]]:
    """[i][f]: the islands bound's term for piece i and final colour f, max(radius, colours
    other than f); the walk and tripod bounds raise each term to their own value."""
    floors = []
    for i in range(len(cur.islands)):
        radius, colours = piece_radius(cur, i), cur.piece_colours(i)
        floors.append([max(radius, len(colours - {f})) for f in range(cur.k)])
    return floors


def tripods_bound(
    cur: Current, final_colour: int | None = None, deadline: float | None = None
) -> int:
    """Free rules: the islands bound with each piece's term raised to its tripod value
    (:mod:`kamicp.bounds.tripods`, Bound 7 of ``encodings/bounds.md``), or to its walk value on
    pieces above :data:`TRIPOD_NODES` regions.

    O(t k n^4 / 64) word operations for bound t (:mod:`kamicp.bounds.tripods`): for a puzzle's
    start, not for every search node. The first computation of a piece is cached and decides
    its effort: with ``deadline`` (a ``time.monotonic()`` value; one in the past means "only
    what is cached") the tripod levels stop there and the piece keeps the best of its walk
    value and the levels done, and later calls reuse that (so the lower bounds of one
    time-limited solve stay within its limit).
    """
    per_piece = []
    for piece, floor in zip(cur.islands, _piece_floors(cur), strict=True):
        values = _piece_tripods(piece_key(cur, piece), deadline)
        per_piece.append([max(a, b) for a, b in zip(values, floor, strict=True)])
    return cheapest_final(per_piece, cur.k, final_colour)


def tetrapods_bound(
    cur: Current,
    final_colour: int | None = None,
    cap: int | None = None,
    deadline: float | None = None,
    cached_only: bool = False,
    peel: bool = False,
) -> int:
    """Free rules: :func:`tripods_bound` with each piece of at most :data:`TETRAPOD_NODES`
    regions raised to its tetrapod value (:mod:`kamicp.bounds.tetrapods`, Bound 8 of
    ``encodings/bounds.md``).

    O(t k n^5 / 64) word operations and O(t k n^4) bits for bound t: asked once, at a
    puzzle's start, and only where the levels fit in :data:`TETRAPOD_BYTES`. ``cap``:
    the levels stop there (a value above it counts as ``cap + 1``; enough to learn whether
    a known solution of ``cap + 1`` moves is optimal); ``deadline``: no level is started
    after it (the piece keeps the levels done). The values are cached per piece with the
    cap they were computed to; ``cached_only`` computes nothing and uses the tripod values
    where nothing is cached (so :func:`~kamicp.bounds.lower.lower_bound` reuses what a solve
    computed). ``peel`` (with a cap): try a peeled piece first
    (:func:`~kamicp.bounds.capped.piece_tetrapods`), for callers that expect most answers to
    be "above the cap" (IDA*'s checks); a start bound, usually within its cap, would pay for
    the peeled piece and then the whole one.
    """
    per_piece = []
    for piece, floor in zip(cur.islands, _piece_floors(cur), strict=True):
        key = piece_key(cur, piece)
        if peel and cap is not None:  # a check: its tripod levels, kept, serve what follows
            values = first_full(
                full_colours(kept_tripod_levels(key, cap, deadline), len(piece)), cur.k, True
            )
        else:
            values = list(_piece_tripods(key, deadline))
        levels = 1 + (max(values) + 1 if cap is None else cap)
        words = (len(piece) + 63) // 64
        if len(piece) <= TETRAPOD_NODES and levels * cur.k * len(piece) ** 3 * words * 8 <= (
            TETRAPOD_BYTES
        ):
            quads = piece_tetrapods(key, cap, deadline, cached_only, peel, piece)
            values = [max(a, b) for a, b in zip(values, quads or values, strict=True)]
        per_piece.append([max(a, b) for a, b in zip(values, floor, strict=True)])
    return cheapest_final(per_piece, cur.k, final_colour)


def kept_tripod_value(
    cur: Current, piece: list[int], finals: Sequence[int], cap: int, deadline: float | None
) -> int:
    """min over ``finals`` of the piece's tripod values, ``cap + 1`` if above ``cap``
    (:func:`kamicp.bounds.tripods.least_tripod_value`), from levels kept for the bounds a check
    asks next of the same piece (:func:`tetrapods_bound` with ``peel``): a check then
    computes the piece's tripod levels once, not three or four times."""
    levels = kept_tripod_levels(piece_key(cur, piece), cap, deadline)
    return least_full(full_colours(levels, len(piece)), finals, True)


def _piece_tripods(key: tuple, deadline: float | None) -> tuple[int, ...]:
    """Tripod values of one piece given as (k, colours, edges in local numbering), at
    least its walk values (alone above :data:`TRIPOD_NODES` nodes, or where the levels
    would need more than :data:`TRIPOD_BYTES`); cached, see :func:`tripods_bound`."""
    if key in BOUND_CACHE.tripods:
        return BOUND_CACHE.tripods[key]
    k, colours, adj = piece_lists(key)
    n = len(colours)
    walks = _piece_walks(key, deadline)
    if n > TRIPOD_NODES or _tripod_bytes(n, k, max(walks)) > TRIPOD_BYTES:
        values = walks
    else:
        values = tripod_values(colours, adj, range(n), k, deadline=deadline)
        if deadline is not None and time.monotonic() >= deadline:
            # maybe stopped early, below the walk values (complete tripod values include them)
            values = [max(a, b) for a, b in zip(values, walks, strict=True)]
    return BOUND_CACHE.keep_tripods(key, values)


def _tripod_bytes(n: int, k: int, walk_value: int) -> int:
    """The memory the tripod levels of a piece of ``n`` regions would take, counted to its
    walk value + 2 levels (k n^2 rows of ceil(n / 64) words a level)."""
    return (walk_value + 2) * k * n * n * ((n + 63) // 64) * 8


def walks_bound_capped(cur: Current, final_colour: int | None, cap: int) -> int:
    """:func:`walks_bound` where only "above ``cap``?" matters: exact up to ``cap``, else
    some bound above it. On one piece only the walk values are computed, and only until one
    of the allowed final colours is reached (the radius and colour terms are left to the
    cheap bounds the search also asks)."""
    if len(cur.islands) > 1:
        return walks_bound(cur, final_colour, cap)
    finals = range(cur.k) if final_colour is None else (final_colour,)
    return least_walk_value(cur.pos, cur.adj, cur.islands[0], cur.k, finals, cap)
