"""How a capped tetrapod check on one piece is kept cheap, and the piece's tetrapod values.

IDA*'s checks ask whether a piece's tetrapod values are all above a cap, and most answers
are "yes". So a check tries the cheaper bounds that may already say so, in order: the
anchored bound (:mod:`kamicp.bounds.anchored`, Bound 9), then the tetrapod values of a
smaller piece left by removing leaves (:mod:`kamicp.bounds.leaves`, Lemma 4), and only then
the piece itself. All of them are built on the piece's tripod levels, computed once per
check (:func:`kept_tripod_levels`). The values are cached with the cap they were computed
to (:data:`kamicp.bounds.cache.BOUND_CACHE`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

import numpy as np

from kamicp.bounds import leaves
from kamicp.bounds.anchored import anchored_values
from kamicp.bounds.cache import BOUND_CACHE, piece_lists
from kamicp.bounds.tetrapods import tetrapod_values
from kamicp.bounds.tripods import kept_levels

__all__ = [
    "ANCHORED",
    "HINTS",
    "NEAR_WHOLE",
    "PEEL_SAVING",
    "kept_tripod_levels",
    "piece_tetrapods",
]

# A capped check tries the piece peeled of its central leaves first only when that is
# expected to cost at most this share of the check on the piece it would spare (a miss
# there ends the check); :func:`_level_cost` underestimates a peeled check's share, so the
# threshold is loose (BENCHMARKS.md, "Peeled tetrapod checks": Bud6's children peeled to
# 53-57 regions, a median check of 0.505 s against 0.788 s trimmed).
PEEL_SAVING = 0.8
# A check does not go on to the whole piece after a trim that missed when the trim dropped
# at most this many leaves: the whole piece, a few leaves more, then cut 0 times in 19
# (BENCHMARKS.md, "Checks below a miss").
NEAR_WHOLE = 3
ANCHORED = True  # a check tries the anchored bound first
# Anchor pairs that helped earlier cuts tried first in a check on a piece holding both
# regions, most often the ones that cut again (BENCHMARKS.md, "Anchored tetrapod checks": Bud6
# `--tetrapod-depth 5`, medians 64.7 s against 68.9 s).
HINTS = 4


def kept_tripod_levels(key: tuple, cap: int, deadline: float | None) -> Iterator[np.ndarray]:
    """The tripod levels 0..``cap`` of the piece ``key``, kept for the bounds the same
    check asks next (:func:`kamicp.bounds.tripods.kept_levels`)."""
    k, colours, adj = piece_lists(key)
    return kept_levels(key, colours, adj, range(len(colours)), k, cap, deadline)


def piece_tetrapods(
    key: tuple,
    cap: int | None,
    deadline: float | None,
    cached_only: bool,
    peel: bool = False,
    piece: Sequence[int] | None = None,
) -> tuple[int, ...] | None:
    """Tetrapod values of one piece (see :func:`~kamicp.bounds.pieces.tetrapods_bound`); None
    when not cached and ``cached_only``. A cached entry serves any cap up to the one it was
    computed to (and any cap if none of its values reached that cap)."""
    if key in BOUND_CACHE.tetrapods:
        values, done = BOUND_CACHE.tetrapods[key]
        if cached_only or done is None or (cap is not None and cap <= done) or max(values) <= done:
            return values
    if cached_only:
        return None
    k, colours, adj = piece_lists(key)
    values = None
    if peel and cap is not None and ANCHORED:
        # the anchored bound first (Bound 9): about a fifth of the cost, most of the cuts;
        # all above the cap, its values are the capped tetrapod values
        values = _anchored_first(
            colours, adj, k, cap, piece, kept_tripod_levels(key, cap, deadline)
        )
        values = values if min(values) > cap else None
    if values is None:
        values, enough = _trimmed_tetrapods(colours, adj, k, cap, deadline, peel)
        if values is None or (min(values) <= cap and not enough):
            # a check's tripod levels are kept (the trims' levels pass them by: one piece)
            tripods = kept_tripod_levels(key, cap, deadline) if peel and cap is not None else None
            nodes = range(len(colours))
            whole = tetrapod_values(colours, adj, nodes, k, cap, deadline, tripods)
            values = tuple(max(a, b) for a, b in zip(whole, values or whole, strict=True))
    if deadline is not None and time.monotonic() >= deadline:
        cap = max(values) - 1  # maybe stopped early: good up to the levels done
    return BOUND_CACHE.keep_tetrapods(key, values, cap)


def _anchored_first(
    colours: tuple[int, ...],
    adj: list[list[int]],
    k: int,
    cap: int,
    piece: Sequence[int] | None,
    tripod_levels=None,
) -> tuple[int, ...]:
    """The anchored tetrapod values (Bound 9) of a piece, capped at ``cap``. The anchor
    pairs that helped earlier cuts are tried first where both regions are still the names
    of current regions (``piece``: the piece's current region ids, which name the same
    start regions from state to state): the states of one search share their hard ends,
    and a cut then needs 2-3 pairs, not about 10. The order decides only which lower bound
    is computed."""
    local = {} if piece is None else {v: j for j, v in enumerate(piece)}
    ranked = BOUND_CACHE.ranked_pairs()
    known = [p for p in ranked if p[0] in local and p[1] in local]
    first = [(local[a], local[b]) for a, b in known[:HINTS]]
    helped: list[tuple[int, int]] = []
    nodes = range(len(colours))
    values = anchored_values(
        colours, adj, nodes, k, cap, first=first, helped=helped, tripod_levels=tripod_levels
    )
    if piece is not None:
        for a, b in helped:
            BOUND_CACHE.note_helpful(piece[a], piece[b])
    return tuple(values)


def _trimmed_tetrapods(
    colours: tuple[int, ...], adj: list[list[int]], k: int, cap: int | None, deadline, peel: bool
) -> tuple[tuple[int, ...] | None, bool]:
    """The tetrapod values, capped at ``cap``, of a smaller piece left by removing leaves,
    lower bounds on the piece's moves (``encodings/bounds.md``, "Lemma 4"): with ``peel``,
    and where it is expected to cost at most :data:`PEEL_SAVING` of the trim's, the piece
    peeled of its central leaves for as long as its diameter and radius stay
    (:func:`kamicp.bounds.leaves.peeled`, trimmed too if still above a multiple of 64 regions);
    else the piece without just the central leaves that save one word per bit row
    (:func:`kamicp.bounds.leaves.trimmed`). None without a cap (the values must then be the
    piece's own) or when nothing is removed. The second of the pair returned says whether
    the caller should stop there even if a value is within the cap (a check, ``peel``):
    after the peeled piece (the trim and the whole piece after it rarely cut), or after a
    trim that dropped at most :data:`NEAR_WHOLE` leaves. A start bound (no ``peel``) goes on
    to the whole piece."""
    if cap is None:
        return None, False
    trim = leaves.trimmed(colours, adj)
    part = trim
    peeled = leaves.peeled(colours, adj) if peel else None
    if peeled:
        peeled = leaves.trimmed(*peeled) or peeled
        if _level_cost(len(peeled[0])) <= PEEL_SAVING * _level_cost(
            len(trim[0] if trim else colours)
        ):
            part = peeled
    if part is None:
        return None, False
    part_colours, part_adj = part
    values = tuple(
        tetrapod_values(part_colours, part_adj, range(len(part_colours)), k, cap, deadline)
    )
    near = part is trim and len(colours) - len(trim[0]) <= NEAR_WHOLE
    return values, peel and (part is not trim or near)


def _level_cost(n: int) -> int:
    """How the tetrapod levels' work grows with a piece's size: n^3 rows of ceil(n / 64)
    words (each joined along its n nodes, the same factor for every piece compared)."""
    return n**3 * -(-n // leaves.WORD)
