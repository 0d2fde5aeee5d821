"""The walk bound: a free-rules lower bound from the paths of a spanning tree.

Meeks and Scott ("Spanning trees and the complexity of flood-filling games", Theory of
Computing Systems 54, 2014; arXiv:1203.2538) proved that flooding a connected graph G with
colour d takes exactly as many moves as flooding the best spanning tree T of G. In a tree,
every move restricted to a subtree is a move of the subtree (or nothing), so the path of T
between any two nodes x and y needs no more moves than T. That path is a walk from x to y
in G, hence

    m(G, d) >= M(x, y, d) = min over walks W from x to y in G of m(W, d)

for every pair x, y, where m(W, d) floods the path whose colours are those along W. On a
path, the moves needed obey an interval recursion (checked against BFS on every path of up
to 9 nodes and 3 colours, and 7 nodes and 4 colours, in ``tests/bounds/test_walks.py``):

    m(path, d) = min( min over splits into two adjacent parts A, B of m(A, d) + m(B, d),
                      1 + min over d' of m(path, d') )

with m(one node, d) = 0 if the node has colour d, else 1. Taking the minimum over walks
turns the splits into "a walk from x to u, an edge u-v, a walk from v to y", a least fixed
point computed level by level: ``S[t][d]`` is the boolean matrix of pairs with
M(x, y, d) <= t, and level t is closed under S[a][d] . A . S[t-a][d] (A the adjacency).
Full proof in ``encodings/bounds.md`` (Bound 6). Only the joins with a = 0 or a = t involve
level t itself; the others use finished levels and are done once per level (semi-naive
evaluation), pair by pair: ``cost[d, x, v]``, the least a with M(x, u, d) <= a for a
neighbour u of v, says that row v of level t - a joins row x; a larger a would bring an
older, smaller row.

Cost: O(t k n^3 / 64) word operations for bound t, k colours and n nodes of a piece: the
levels are bit matrices (:mod:`kamicp.bounds.bits`) built by loops compiled with Numba, which
beat float32 matrix products several times over and share no BLAS threads with another
process. The start of every puzzle
uses it; IDA* also asks it (with a cap, :func:`least_walk_value`) for the states a few
moves from the start, and the tripod levels (:mod:`kamicp.bounds.tripods`) are built on it.

Example::

    >>> from kamicp.game.regions import from_edges
    >>> g = from_edges([0, 1, 2, 0, 1, 2], [(i, i + 1) for i in range(5)])
    >>> walk_values(g.colour, g.adj, range(6), 3)  # any final colour: 4 moves on abcabc
    [4, 4, 4]
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from kamicp.bounds.bits import full_row, transpose_bits, unpack_bits
from kamicp.jit import kernel

__all__ = [
    "LEVELS",
    "cheapest_final",
    "first_full",
    "least_full",
    "least_walk_value",
    "one_more_move",
    "packed_walk_levels",
    "piece_arrays",
    "walk_bound",
    "walk_levels",
    "walk_values",
]

LEVELS = 200  # a safety cap on t: no board here needs more moves than this


def walk_values(
    colour: Sequence[int],
    adj: Sequence[Sequence[int]],
    piece: Sequence[int],
    k: int,
    cap: int | None = None,
    deadline: float | None = None,
) -> list[int]:
    """For each final colour d (0..k-1): max over pairs x, y of the piece of M(x, y, d).

    ``colour`` and ``adj`` describe a graph whose adjacent nodes differ in colour (a region
    graph); ``piece`` lists the nodes of one connected piece. Each value is a lower bound on
    the moves that bring the piece to colour d. With ``cap``, levels stop at ``cap``: a value
    above it is reported as ``cap + 1`` (still a lower bound, and enough for a search that
    only asks "more than ``cap``?"). With ``deadline`` (a ``time.monotonic()`` value) no
    level is started after it; a value not reached by then is the levels done + 1.
    """
    last = LEVELS if cap is None else cap
    levels = _full_flags(colour, adj, piece, k, last)
    if deadline is not None:
        levels = _until(levels, deadline)
    return first_full(levels, k, cap is not None or deadline is not None)


def _until(levels: Iterator, deadline: float) -> Iterator:
    """The items of ``levels`` until ``deadline`` (a ``time.monotonic()`` value) passes."""
    while time.monotonic() < deadline:
        try:
            yield next(levels)
        except StopIteration:
            return


def first_full(levels: Iterable[np.ndarray], k: int, stoppable: bool) -> list[int]:
    """For each colour d, the first t whose ``levels[t][d]`` is all nonzero (every pair, or
    triple, within t moves). The levels grow with t, so when they run out first (at a cap or
    a deadline: ``stoppable``) a colour not yet full gets the last level seen + 1, still a
    lower bound; otherwise running out means a disconnected piece and raises. Shared by the
    walk and tripod bounds (:mod:`kamicp.bounds.tripods`)."""
    values: list[int | None] = [None] * k
    t = -1
    for t, level in enumerate(levels):
        for d in range(k):
            if values[d] is None and level[d].all():
                values[d] = t
        if all(v is not None for v in values):
            return values  # type: ignore[return-value]
    if not stoppable:
        raise ValueError("more than LEVELS levels (is the piece connected?)")
    return [t + 1 if v is None else v for v in values]


def least_full(levels: Iterable[np.ndarray], finals: Sequence[int], stoppable: bool) -> int:
    """The first t at which some colour of ``finals`` is full (see :func:`first_full`), or
    the last level seen + 1 when the levels run out first (``stoppable``; else it raises)."""
    t = -1
    for t, level in enumerate(levels):
        if any(level[d].all() for d in finals):
            return t
    if not stoppable:
        raise ValueError("more than LEVELS levels (is the piece connected?)")
    return t + 1


def piece_arrays(colour, adj, piece) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """The piece for the compiled loops, nodes indexed as ``piece``: each node's colour, its
    neighbours in compressed rows (those of node x are ``neighbours[starts[x]:starts[x + 1]]``,
    in increasing order) and whether the graph is proper (no two neighbours share a colour,
    as in every region graph)."""
    index = {v: i for i, v in enumerate(piece)}
    node_colour = np.array([colour[v] for v in piece], dtype=np.int64)
    rows = [sorted(index[u] for u in adj[v] if u in index) for v in piece]
    starts = np.zeros(len(rows) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(row) for row in rows])
    neighbours = np.array([u for row in rows for u in row], dtype=np.int64)
    proper = all(node_colour[x] != node_colour[u] for x, row in enumerate(rows) for u in row)
    return node_colour, starts, neighbours, proper


def cheapest_final(per_piece: Sequence[Sequence[int]], k: int, final_colour: int | None) -> int:
    """min over the final colour f (or ``final_colour``) of the sum over pieces of their
    bound for f: pieces are flooded by separate moves and end in one common colour."""
    finals = range(k) if final_colour is None else (final_colour,)
    return min(sum(values[f] for values in per_piece) for f in finals)


def least_walk_value(
    colour: Sequence[int],
    adj: Sequence[Sequence[int]],
    piece: Sequence[int],
    k: int,
    finals: Sequence[int],
    cap: int,
) -> int:
    """min over d in ``finals`` of :func:`walk_values` (d), or ``cap + 1`` if that is above
    ``cap``: the question a search asks at a node ("can this piece be flooded, in one of
    these colours, within ``cap`` moves?"). Stops at the first level where some d in
    ``finals`` covers every pair, so it is cheaper than :func:`walk_values`.
    """
    return least_full(_full_flags(colour, adj, piece, k, cap), finals, True)


def walk_levels(colour, adj, piece, k: int, last: int) -> Iterator[np.ndarray]:
    """Yield level t = 0, 1, ..., ``last`` as booleans (k, n, n): [d, x, y] is true when
    M(x, y, d) <= t, x and y indexing ``piece``. For tests and readers; the bounds use the
    bits of :func:`packed_walk_levels`."""
    for level, _ in packed_walk_levels(piece_arrays(colour, adj, piece), k, last):
        yield unpack_bits(level, len(piece))


def _full_flags(colour, adj, piece, k: int, last: int) -> Iterator[np.ndarray]:
    """Yield, for level t = 0, 1, ..., ``last``, a boolean vector over the colours d: true
    when every pair of the piece has M(x, y, d) <= t."""
    n = len(piece)
    full = full_row(n, (n + 63) // 64)
    for level, _ in packed_walk_levels(piece_arrays(colour, adj, piece), k, last):
        yield (level == full).all(axis=(1, 2))


def packed_walk_levels(arrays: tuple, k: int, last: int) -> Iterator[tuple]:
    """Yield (level, cost) for t = 0, 1, ..., ``last``, for the piece given by ``arrays``
    (:func:`piece_arrays`, built once by the caller, who may need them too). ``level`` is
    an array (k, n, words) of 64-bit words (:mod:`kamicp.bounds.bits`), bit y of row [d, x] set
    when M(x, y, d) <= t;
    ``cost[d, x, v]`` is the least a <= t with M(x, u, d) <= a for some neighbour u of v
    (``LEVELS + 1`` while there is none). Both are the arrays the next levels are built from:
    read them, do not change them.

    Level t starts from level t - 1 in any colour (one more move) and the joins with
    0 < a < t, done pair by pair: a pair (x, v) of cost a contributes row v of level t - a
    to row x (a larger a would bring an older, smaller row). It is then closed under the
    joins with a cost-0 end (:func:`_close`)."""
    node_colour, starts, neighbours, proper = arrays
    n = len(node_colour)
    words = (n + 63) // 64
    cost = np.full((k, n, n), LEVELS + 1, dtype=np.int32)
    levels = np.zeros((min(last, 15) + 1, k, n, words), dtype=np.uint64)  # doubled when needed
    for t in range(min(last, LEVELS) + 1):
        if t == len(levels):
            levels = np.concatenate([levels, np.zeros_like(levels)])
        _walk_level(levels, t, cost, node_colour, starts, neighbours, proper)
        yield levels[t], cost


@kernel
def _walk_level(levels, t, cost, node_colour, starts, neighbours, proper) -> None:
    """Compute level t in place from the levels before it, then the pairs of cost t."""
    level = levels[t]
    k, n, words = level.shape
    if t == 0:  # a single node: no move if it has the colour
        for x in range(n):
            level[node_colour[x], x, x // 64] |= np.uint64(1) << np.uint64(x % 64)
    else:
        one_more_move(levels, t)
        for d in range(k):
            for x in range(n):
                for v in range(n):
                    a = cost[d, x, v]
                    if 1 <= a < t:
                        for i in range(words):
                            level[d, x, i] |= levels[t - a, d, v, i]
    flipped = np.zeros((n, words), dtype=np.uint64)
    for d in range(k):
        _close(level[d], flipped, d, node_colour, starts, neighbours, proper)
    _new_costs(level, t, cost, starts, neighbours)


@kernel
def one_more_move(levels, t) -> None:
    """levels[t][d] = the union over d' of levels[t - 1][d'] (any shape of rows): what is
    within t - 1 moves for some final colour is within t for every colour, one more move
    recolouring the whole. Shared with :mod:`kamicp.bounds.tripods`."""
    k, n, width = levels[t].shape
    for x in range(n):
        for i in range(width):
            any_colour = np.uint64(0)
            for d in range(k):
                any_colour |= levels[t - 1, d, x, i]
            for d in range(k):
                levels[t, d, x, i] = any_colour


@kernel
def _close(matrix, flipped, d, node_colour, starts, neighbours, proper) -> None:
    """Close one colour's level under the joins with a cost-0 end: a node x of colour d, an
    edge x-u and a walk from u to y within t give a walk from x to y within t (J_x, the
    matrix I + D_d A on the left), and the same at the y end (J_y, on the right). The start
    S is symmetric (the join for a is the transpose of the join for t - a, as M and A are
    symmetric), and on a proper graph D_d A D_d A = 0, so J_x is idempotent and J_x S J_y
    is closed and symmetric: one pass, J_x (J_x S)^T. Other graphs repeat the pass until
    nothing changes (each pass keeps the level symmetric)."""
    while True:
        before = matrix.copy() if not proper else matrix
        _join_rows(matrix, d, node_colour, starts, neighbours)
        transpose_bits(matrix, flipped)
        _join_rows(flipped, d, node_colour, starts, neighbours)
        matrix[:] = flipped
        if proper or (matrix == before).all():
            return


@kernel
def _join_rows(matrix, d, node_colour, starts, neighbours) -> None:
    """J_x in place: a node x of colour d takes the walks of its neighbours (row x |= row v)."""
    for x in range(matrix.shape[0]):
        if node_colour[x] == d:
            for j in range(starts[x], starts[x + 1]):
                matrix[x] |= matrix[neighbours[j]]


@kernel
def _new_costs(level, t, cost, starts, neighbours) -> None:
    """cost[d, x, v] = t for the pairs with none yet where a neighbour u of v has
    M(x, u, d) <= t."""
    k, n, _ = level.shape
    for d in range(k):
        for x in range(n):
            for v in range(n):
                if cost[d, x, v] > t:
                    for j in range(starts[v], starts[v + 1]):
                        u = neighbours[j]
                        if (level[d, x, u // 64] >> np.uint64(u % 64)) & np.uint64(1):
                            cost[d, x, v] = t
                            break


def walk_bound(
    colour: Sequence[int],
    adj: Sequence[Sequence[int]],
    pieces: Sequence[Sequence[int]],
    k: int,
    final_colour: int | None = None,
    floors: Sequence[Sequence[int]] | None = None,
    cap: int | None = None,
) -> int:
    """min over the final colour f of the sum over pieces of the piece's walk value for f.

    Pieces are flooded by separate moves and must end in one common colour f (or
    ``final_colour``). ``floors[i][f]``, if given, is another lower bound for piece i and
    colour f (such as max(radius, colours other than f)); the larger one counts. ``cap``
    as for :func:`walk_values` (per piece): the result is then exact up to ``cap`` and
    otherwise some lower bound above it.
    """
    per_piece = [walk_values(colour, adj, piece, k, cap) for piece in pieces]
    if floors is not None:
        per_piece = [
            [max(a, b) for a, b in zip(values, floor, strict=True)]
            for values, floor in zip(per_piece, floors, strict=True)
        ]
    return cheapest_final(per_piece, k, final_colour)
