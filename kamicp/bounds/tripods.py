"""The tripod bound: the walk bound's argument with three ends instead of two.

Meeks and Scott ("Spanning trees and the complexity of flood-filling games", Theory of
Computing Systems 54, 2014; arXiv:1203.2538) proved that flooding a connected graph G with
colour d takes exactly as many moves as flooding the best spanning tree T of G, and a
subtree of T never needs more moves than T (Lemma 3 of ``encodings/bounds.md``). The walk
bound (:mod:`kamicp.bounds.walks`) looks at the path of T between two nodes; here we look at the
subtree of T that joins *three* nodes x, y, z: a tripod (three paths from a centre, some
possibly empty). Every tripod of T is a tripod of G, so

    m(G, d) >= Y(x, y, z, d) = min over tripods H of G with ends x, y, z of m(H, d),

where, as for walks, the arms may be walks of G (a larger set, a smaller minimum). On a
tree, m obeys the split recursion that Bound 6 uses on paths,

    m(H, d) = min( min over edges e of m(H1, d) + m(H2, d),  1 + min over d' of m(H, d') ),

H1 and H2 the two subtrees left when e is removed; ``tests/bounds/test_tripods.py`` checks it
against BFS on random trees. Cutting an edge of the arm towards x leaves a walk from x to
some u and a tripod with ends v, y, z (u-v the edge), so Y is the least solution of

    Y(x, y, z, d) = min( min over edges u-v of M(x, u, d) + Y(v, y, z, d)  (and for y, z),
                         1 + min over d' of Y(x, y, z, d') ),
    Y(x, y, y, d) <= M(x, y, d)   (a tripod with an empty arm is a path).

It is computed level by level as for walks: ``Y[t][d]`` is the boolean cube of triples
with Y <= t, closed under (M[a][d] . A) . Y[t-a][d] for a = 0..t, then under the six
permutations of the ends (a tripod has no first end). Full argument in
``encodings/bounds.md`` (Bound 7).

Cost: O(t k n^4 / 64) word operations (each pair x, v joins once per level, as bits) and
O(t k n^3) bits of memory for bound t, k colours and n nodes. The levels are kept as 64-bit
words and built by small loops compiled with Numba (``_start``, ``_or_swapped``,
``_join_ends``, ``_flip``) on the walk levels (:mod:`kamicp.bounds.walks`, which also supply
the ``cost`` of each pair): a check on a piece of about 70 regions takes hundredths of a
second, ten times less than the same levels from NumPy array operations. It is asked at
a puzzle's start and, in IDA*, at the depths where a check is expected to pay
(:mod:`kamicp.search.ida.checks`).

Example::

    >>> from kamicp.game.regions import from_edges
    >>> arms = [(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)]  # three arms from node 0
    >>> star = from_edges([0, 1, 0, 1, 0, 2, 0], arms)
    >>> tripod_values(star.colour, star.adj, range(7), 3)  # walks: [2, 3, 3]; BFS: [3, 4, 4]
    [3, 4, 4]
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

import numpy as np

from kamicp.bounds.bits import full_row, transpose_block, unpack_bits
from kamicp.bounds.cache import BOUND_CACHE
from kamicp.bounds.walks import (
    LEVELS,
    first_full,
    least_full,
    one_more_move,
    packed_walk_levels,
    piece_arrays,
)
from kamicp.jit import kernel

__all__ = [
    "forget_kept_levels",
    "full_colours",
    "kept_levels",
    "least_costs",
    "least_tripod_value",
    "packed_tripod_levels",
    "tripod_values",
    "unpack_level",
]


def tripod_values(
    colour: Sequence[int],
    adj: Sequence[Sequence[int]],
    piece: Sequence[int],
    k: int,
    cap: int | None = None,
    deadline: float | None = None,
) -> list[int]:
    """For each final colour d (0..k-1): max over triples of the piece of Y(x, y, z, d).

    Same contract as :func:`kamicp.bounds.walks.walk_values`: each value is a lower bound on the
    moves that bring the piece to colour d, at least the walk value; with ``cap``, a value
    above ``cap`` is reported as ``cap + 1``. With ``deadline`` (a ``time.monotonic()``
    value) no level is started after it: the values not reached by then are reported as the
    first level not computed (still lower bounds, possibly below the walk values).
    """
    last = LEVELS if cap is None else cap
    levels = _tripod_levels(colour, adj, piece, k, last, deadline)
    return first_full(levels, k, cap is not None or deadline is not None)


def least_tripod_value(
    colour: Sequence[int],
    adj: Sequence[Sequence[int]],
    piece: Sequence[int],
    k: int,
    finals: Sequence[int],
    cap: int | None = None,
    deadline: float | None = None,
) -> int:
    """min over d in ``finals`` of :func:`tripod_values` (d), or ``cap + 1`` if above
    ``cap``: stops at the first level where an allowed final colour covers every triple,
    which saves the costliest levels when only the piece's own bound is wanted. With
    ``deadline``: the first level not computed by then (a lower bound, maybe a weak one)."""
    last = LEVELS if cap is None else cap
    levels = _tripod_levels(colour, adj, piece, k, last, deadline)
    return least_full(levels, finals, cap is not None or deadline is not None)


def _tripod_levels(colour, adj, piece, k: int, last: int, deadline=None) -> Iterator[np.ndarray]:
    """Yield, for level t = 0, 1, ..., ``last``, a boolean vector over the colours d: true
    when every triple of the piece has Y(x, y, z, d) <= t. No level is started after
    ``deadline``."""
    return full_colours(packed_tripod_levels(colour, adj, piece, k, last, deadline), len(piece))


def full_colours(levels: Iterator[np.ndarray], n: int) -> Iterator[np.ndarray]:
    """For each level of :func:`packed_tripod_levels` (of a piece of ``n`` nodes), a boolean
    vector over the colours d: true when every triple has Y(x, y, z, d) <= t."""
    full = np.tile(full_row(n, (n + 63) // 64), n)  # a row holding every (y, z)
    for level in levels:
        yield (level == full).all(axis=(1, 2))


def kept_levels(
    key: tuple, colour, adj, piece, k: int, last: int, deadline: float | None = None
) -> Iterator[np.ndarray]:
    """Yield the levels of :func:`packed_tripod_levels` 0, 1, ..., ``last``, computing only those
    not kept from earlier calls with the same ``key`` (a caller's name for the piece: the
    same key must mean the same colours, adjacency and ``k``).

    One check of IDA* asks three bounds of one piece with one cap: the tripod value, then
    the anchored tetrapod bound (:mod:`kamicp.bounds.anchored`), then maybe the tetrapod bound
    (:mod:`kamicp.bounds.tetrapods`); each is built on the same tripod levels. Only the last piece
    is kept (a check's levels take megabytes). No level is started after
    ``deadline``; the levels yielded are read-only."""
    kept = BOUND_CACHE.last_levels  # [key, levels computed (copies), their source]
    if not kept or kept[0] != key:
        kept[:] = [key, [], packed_tripod_levels(colour, adj, piece, k, LEVELS)]
    done, source = kept[1], kept[2]
    for t in range(last + 1):
        if t == len(done):
            if deadline is not None and time.monotonic() >= deadline:
                return
            level = next(source, None)
            if level is None:
                return  # LEVELS reached (a disconnected piece; first_full says so)
            done.append(level.copy())
        yield done[t]


def forget_kept_levels() -> None:
    """Let go of the levels :func:`kept_levels` keeps (a benchmark's runs each pay their own)."""
    BOUND_CACHE.last_levels.clear()


def packed_tripod_levels(
    colour, adj, piece, k: int, last: int, deadline=None, every_join: bool = False
) -> Iterator[np.ndarray]:
    """Yield level t = 0, 1, ..., ``last`` as bits: an array (k, n, n * words) of 64-bit
    words, row [d, x] holding, for each y, ``words`` words whose bit z is set when
    Y(x, y, z, d) <= t (x, y, z indexing ``piece``; :func:`unpack_level` gives booleans).
    It is a view of the levels the next ones are built from: read it, do not change it.

    Level t starts from level t - 1 in any colour (one more move), the paths (x, y, y) of
    the walk levels and the joins with 0 < a < t, and is then closed (:func:`_fill`). The
    joins (M[a] . A) . Y[t - a] are done pair by pair: for each pair (x, v),
    ``cost[d, x, v]`` = the least a with a walk from x to a neighbour u of v within a moves
    (M(x, u, d) <= a). A pair with cost a contributes Y[t - a](v, ., .) to row x at level t;
    with a larger a the contribution would come from an older, smaller level, already
    included. So each level ORs at most n^2 rows of n^2 bits per colour: O(k n^4 / 64) word
    operations instead of the O(t k n^4) of matrix products. The joins at a pair's least
    cost over the colours are left out (:func:`least_costs`: they follow from the others),
    about half, unless ``every_join`` (for the tests, which compare both).
    """
    n = len(piece)
    arrays = piece_arrays(colour, adj, piece)
    node_colour, starts, neighbours, proper = arrays
    words = (n + 63) // 64
    levels = np.zeros((min(last, 15) + 1, k, n, n * words), dtype=np.uint64)  # doubled when needed
    for t, (walks, cost) in enumerate(packed_walk_levels(arrays, k, last)):
        if deadline is not None and time.monotonic() >= deadline:
            return
        if t == len(levels):
            levels = np.concatenate([levels, np.zeros_like(levels)])
        least = np.full((n, n), -1, dtype=cost.dtype) if every_join else least_costs(cost)
        _fill(levels, t, cost, least, walks, node_colour, starts, neighbours, proper)
        yield levels[t]


def unpack_level(level: np.ndarray, n: int) -> np.ndarray:
    """A level from :func:`packed_tripod_levels` as booleans (k, n, n, n), [d, x, y, z]."""
    return unpack_bits(level.reshape(level.shape[0], n, n, -1), n)


@kernel
def _fill(levels, t, cost, least, walks, node_colour, starts, neighbours, proper) -> None:
    """Compute level t in place from the levels before it: the start S (:func:`_start`),
    closed under the six permutations of the ends (a tripod has no first end) and under the
    splits with a cost-0 arm, J_x, J_y, J_z: a node x of colour d, an edge x-v and a tripod
    (v, y, z) within t give the tripod (x, y, z) within t, and the same at the y and z
    ends. Only the latter involve level t itself.

    Along one axis the join is the boolean matrix I + D_d A (D_d: the nodes of colour d).
    On a ``proper`` graph (no two adjacent nodes of one colour: every region graph)
    D_d A D_d A = 0, so each join is idempotent; joins along different axes commute, and
    their product J = J_x J_y J_z commutes with every permutation s of the ends (s J s^-1
    permutes the factors). So one pass gives the fixed point J P(S), P the union over the
    permutations; S is symmetric in y and z, so P(S) = S + (x y) S + (x z) S. Bits run
    along z, so J_x and J_y are word operations, and J_z = (x z) J_x (x z) is one after a
    transposition of bits, which also supplies (x z) S: with B = S + (x y) S,
    X = J_x (x z) J_x J_y B = (x z) J B, and X + (x y) X = J ((x z) S + (x z)(x y) S +
    (x y)(x z) S + (y z) S) = J P(S), since (y z) S = S. Other graphs repeat the pass (S
    then symmetric) until nothing changes.
    """
    _start(levels, t, cost, least, walks)
    level = levels[t]
    flipped = np.zeros_like(level[0])
    while True:
        before = level if proper else level.copy()  # compared only on other graphs
        for d in range(level.shape[0]):
            _or_swapped(level[d])
            _join_ends(level[d], d, node_colour, starts, neighbours, True)
            _flip(level[d], flipped)
            _join_ends(flipped, d, node_colour, starts, neighbours, False)
            _or_swapped(flipped)
            level[d] = flipped
        if proper or (level == before).all():
            return


@kernel
def _start(levels, t, cost, least, walks) -> None:
    """Level t before its closure: level t - 1 in any colour, the paths (x, y, y) with
    M(x, y, d) <= t, and the joins with 0 < a < t, which use finished levels only: only
    those of a cost above the pair's least (:func:`least_costs`)."""
    level = levels[t]
    k, n, width = level.shape
    words = width // n
    if t > 0:
        one_more_move(levels, t)
    for d in range(k):
        for x in range(n):
            for y in range(n):
                if (walks[d, x, y // 64] >> np.uint64(y % 64)) & np.uint64(1):
                    level[d, x, y * words + y // 64] |= np.uint64(1) << np.uint64(y % 64)
    for d in range(k):
        for x in range(n):
            row = level[d, x]
            for v in range(n):
                a = cost[d, x, v]
                if 1 <= a < t and a > least[x, v]:  # the other joins follow (least_costs)
                    source = levels[t - a, d, v]
                    for i in range(width):
                        row[i] |= source[i]


@kernel
def least_costs(cost) -> np.ndarray:
    """least[x, v] = min over colours d of cost[d, x, v]. The joins of a pair (x, v) at
    this least cost are left out: they follow from the closure and from joins of smaller
    costs. (A walk from x to a neighbour u of v that floods in that least number of moves
    in colour d cannot end by recolouring a walk flooded in fewer moves, which would cost
    one more; so it splits at an edge into two walks whose moves add up to it, or is a node
    of colour d. Argument in ``encodings/bounds.md``, "Joins that end with a recolouring".)
    Each cost is the least or one more (a walk flooded in m moves in some colour is flooded
    in m + 1 in any), so about half of the joins are left out."""
    k, n, _ = cost.shape
    least = cost[0].copy()
    for d in range(1, k):
        for x in range(n):
            for v in range(n):
                least[x, v] = min(least[x, v], cost[d, x, v])
    return least


@kernel
def _or_swapped(level) -> None:
    """level |= (x y) level, in place: block y of row x with block x of row y."""
    n, width = level.shape
    words = width // n
    for x in range(n):
        for y in range(x + 1, n):
            for w in range(words):
                both = level[x, y * words + w] | level[y, x * words + w]
                level[x, y * words + w] = both
                level[y, x * words + w] = both


@kernel
def _join_ends(level, d, node_colour, starts, neighbours, both_ends) -> None:
    """J_x (and J_y if ``both_ends``) for colour d, in place: a node x of colour d takes the
    tripods of its neighbours v, as the first end (row x takes row v) and as the second
    (in every row, block x takes block v)."""
    n, width = level.shape
    words = width // n
    for x in range(n):
        if node_colour[x] != d:
            continue
        for j in range(starts[x], starts[x + 1]):
            v = neighbours[j]
            for i in range(width):
                level[x, i] |= level[v, i]
            if both_ends:
                for a in range(n):
                    for w in range(words):
                        level[a, x * words + w] |= level[a, v * words + w]


@kernel
def _flip(level, out) -> None:
    """out = (x z) level: bit x of block y of row z = bit z of block y of row x. Each block
    y is an n x n bit matrix (:func:`kamicp.bounds.bits.transpose_block`)."""
    n, width = level.shape
    words = width // n
    for y in range(n):
        transpose_block(level, y * words, out, n)
