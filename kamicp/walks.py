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
to 9 nodes and 3 colours, and 7 nodes and 4 colours, in ``tests/test_walks.py``):

    m(path, d) = min( min over splits into two adjacent parts A, B of m(A, d) + m(B, d),
                      1 + min over d' of m(path, d') )

with m(one node, d) = 0 if the node has colour d, else 1. Taking the minimum over walks
turns the splits into "a walk from x to u, an edge u-v, a walk from v to y", a least fixed
point computed level by level: ``S[t][d]`` is the boolean matrix of pairs with
M(x, y, d) <= t, and level t is closed under S[a][d] . A . S[t-a][d] (A the adjacency).
Full proof in ``encodings/bounds.md`` (Bound 5). Only the joins with a = 0 or a = t involve
level t itself; the others use finished levels and are computed once per level (semi-naive
evaluation), half of them by symmetry (M(x, y, d) = M(y, x, d)), all colours in one batched
product.

Cost: O(t^2 k n^3) for bound t, k colours and n nodes of a piece, as float32 matrix
products: 9 ms for the 68 regions of KAMI 2's Bud3, 42 ms for the 172 of old Threegrid6
(3.4x and 3.8x faster than the plain fixed point this replaced). The start of every
puzzle uses it; IDA* also asks it (with a cap, :func:`least_walk_value`) for the states a
few moves from the start.

Example::

    >>> from kamicp.regions import from_edges
    >>> g = from_edges([0, 1, 2, 0, 1, 2], [(i, i + 1) for i in range(5)])
    >>> walk_values(g.colour, g.adj, range(6), 3)  # any final colour: 4 moves on abcabc
    [4, 4, 4]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

LEVELS = 200  # a safety cap on t: no board here needs more moves than this


def walk_values(
    colour: Sequence[int],
    adj: Sequence[Sequence[int]],
    piece: Sequence[int],
    k: int,
    cap: int | None = None,
) -> list[int]:
    """For each final colour d (0..k-1): max over pairs x, y of the piece of M(x, y, d).

    ``colour`` and ``adj`` describe a graph whose adjacent nodes differ in colour (a region
    graph); ``piece`` lists the nodes of one connected piece. Each value is a lower bound on
    the moves that bring the piece to colour d. With ``cap``, levels stop at ``cap``: a value
    above it is reported as ``cap + 1`` (still a lower bound, and enough for a search that
    only asks "more than ``cap``?").
    """
    last = LEVELS if cap is None else cap
    return first_full(walk_levels(colour, adj, piece, k, last), k, cap is not None)


def first_full(levels: Iterable[np.ndarray], k: int, stoppable: bool) -> list[int]:
    """For each colour d, the first t whose ``levels[t][d]`` is all nonzero (every pair, or
    triple, within t moves). The levels grow with t, so when they run out first (at a cap or
    a deadline: ``stoppable``) a colour not yet full gets the last level seen + 1, still a
    lower bound; otherwise running out means a disconnected piece and raises. Shared by the
    walk and tripod bounds (:mod:`kamicp.tripods`)."""
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


def piece_matrices(colour, adj, piece, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The piece's adjacency matrix and ``owns[d, x]`` (node x has colour d), float32,
    indexed as ``piece``."""
    index = {v: i for i, v in enumerate(piece)}
    n = len(piece)
    adjacency = np.zeros((n, n), dtype=np.float32)
    for v in piece:
        for u in adj[v]:
            if u in index:
                adjacency[index[v], index[u]] = 1.0
    owns = np.array([[colour[v] == d for v in piece] for d in range(k)], dtype=np.float32)
    return adjacency, owns


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
    return least_full(walk_levels(colour, adj, piece, k, cap), finals, True)


def walk_levels(colour, adj, piece, k: int, last: int):
    """Yield level t = 0, 1, ..., ``last``: an array (k, n, n), [d, x, y] = 1.0 when
    M(x, y, d) <= t, else 0.0, with x and y indexing ``piece``. It is a view of the
    levels the next ones are built from: read it, do not change it."""
    n = len(piece)
    adjacency, owns = piece_matrices(colour, adj, piece, k)
    room = min(last, 24) + 1  # levels kept so far; doubled when needed
    levels = np.zeros((room, k, n, n), dtype=np.float32)
    lefts = np.zeros_like(levels)  # lefts[t] = levels[t] @ adjacency, for the middle terms
    for t in range(min(last, LEVELS) + 1):
        if t == len(levels):
            levels = np.concatenate([levels, np.zeros_like(levels)])
            lefts = np.concatenate([lefts, np.zeros_like(lefts)])
        _start_level(levels, lefts, owns, t)
        _close_ends(levels[t], adjacency, owns)
        np.matmul(levels[t], adjacency, out=lefts[t])
        yield levels[t]


def _start_level(levels: np.ndarray, lefts: np.ndarray, owns: np.ndarray, t: int) -> None:
    """Level t before its end terms are closed: single nodes of colour d (t = 0); else
    level t-1 for d and, one move later, for any other colour (the "1 + min over d'" case),
    and the joins level[a] . A . level[t-a] for 0 < a < t, which use finished levels only
    and so are computed once. M is symmetric (a walk read backwards), so the join for a is
    the transpose of the join for t - a: a <= t / 2 is enough."""
    level = levels[t]
    if t == 0:
        for d, row in enumerate(owns):
            np.fill_diagonal(level[d], row)
        return
    before = levels[t - 1]
    np.maximum(before, before.max(axis=0), out=level)
    half = t // 2
    if half:
        # splits a = 1..half: lefts[a] @ levels[t - a], all colours in one batched product
        joined = np.matmul(lefts[1 : half + 1], levels[t - 1 : t - half - 1 : -1]).max(axis=0)
        np.minimum(joined, 1.0, out=joined)
        np.maximum(level, joined, out=level)
        np.maximum(level, joined.transpose(0, 2, 1), out=level)


def _close_ends(level: np.ndarray, adjacency: np.ndarray, owns: np.ndarray) -> None:
    """Close level t under the joins with a cost-0 end (a = 0 or a = t): a node x of colour
    d, an edge x-u and a walk from u to y of cost <= t give a walk from x to y of cost <= t.
    Only these terms involve level t itself, so only they are iterated to the fixed point."""
    while True:
        grown = np.minimum(adjacency @ level, 1.0) * owns[:, :, None]
        grown = np.maximum(grown, grown.transpose(0, 2, 1))
        if not (grown > level).any():
            return
        np.maximum(level, grown, out=level)


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
