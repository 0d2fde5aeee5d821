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
Full proof in ``encodings/bounds.md`` (Bound 5).

Cost: O(t^2 k n^3 / w) for bound t, k colours and n nodes of a piece, as numpy matrix
products (0.4 s for the 172 regions of KAMI 2's old Threegrid6). Computed once per puzzle
(the searches use the cheaper bounds at every node).

Example::

    >>> from kamicp.regions import from_edges
    >>> g = from_edges([0, 1, 2, 0, 1, 2], [(i, i + 1) for i in range(5)])
    >>> walk_values(g.colour, g.adj, range(6), 3)  # any final colour: 4 moves on abcabc
    [4, 4, 4]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

LEVELS = 200  # a safety cap on t: no board here needs more moves than this


def walk_values(
    colour: Sequence[int], adj: Sequence[Sequence[int]], piece: Sequence[int], k: int
) -> list[int]:
    """For each final colour d (0..k-1): max over pairs x, y of the piece of M(x, y, d).

    ``colour`` and ``adj`` describe a graph whose adjacent nodes differ in colour (a region
    graph); ``piece`` lists the nodes of one connected piece. Each value is a lower bound on
    the moves that bring the piece to colour d.
    """
    index = {v: i for i, v in enumerate(piece)}
    n = len(piece)
    adjacency = np.zeros((n, n), dtype=np.float32)
    for v in piece:
        for u in adj[v]:
            if u in index:
                adjacency[index[v], index[u]] = 1.0
    colours = np.array([colour[v] for v in piece])
    values: list[int | None] = [None] * k
    levels: list[list[np.ndarray]] = []  # levels[t][d]: pairs with M <= t, as float 0/1
    for t in range(LEVELS):
        level = _next_level(levels, colours, k, t)
        _close(levels, level, adjacency, t)
        levels.append(level)
        for d in range(k):
            if values[d] is None and level[d].min() > 0:
                values[d] = t
        if all(v is not None for v in values):
            return values  # type: ignore[return-value]
    raise ValueError("walk bound: more than LEVELS levels (is the piece connected?)")


def _next_level(levels: list, colours: np.ndarray, k: int, t: int) -> list[np.ndarray]:
    """Level t before closing: single nodes of colour d (t = 0), else level t-1 for d and,
    one move later, level t-1 for every other colour (the "1 + min over d'" case)."""
    if t == 0:
        return [np.diag((colours == d).astype(np.float32)) for d in range(k)]
    before = levels[t - 1]
    anyone = np.maximum.reduce(before)
    return [np.maximum(before[d], anyone) for d in range(k)]


def _close(levels: list, level: list[np.ndarray], adjacency: np.ndarray, t: int) -> None:
    """Close level t under joining two walks by an edge, costs adding up to t."""
    for d in range(len(level)):
        while True:
            current = level[d]
            joined = current.copy()
            for a in range(t + 1):
                left = current if a == t else levels[a][d]
                right = current if a == 0 else levels[t - a][d]
                joined = np.maximum(joined, ((left @ adjacency) @ right > 0).astype(np.float32))
            if np.array_equal(joined, current):
                break
            level[d] = joined


def walk_bound(
    colour: Sequence[int],
    adj: Sequence[Sequence[int]],
    pieces: Sequence[Sequence[int]],
    k: int,
    final_colour: int | None = None,
    floors: Sequence[Sequence[int]] | None = None,
) -> int:
    """min over the final colour f of the sum over pieces of the piece's walk value for f.

    Pieces are flooded by separate moves and must end in one common colour f (or
    ``final_colour``). ``floors[i][f]``, if given, is another lower bound for piece i and
    colour f (such as max(radius, colours other than f)); the larger one counts.
    """
    per_piece = [walk_values(colour, adj, piece, k) for piece in pieces]
    if floors is not None:
        per_piece = [
            [max(a, b) for a, b in zip(values, floor, strict=True)]
            for values, floor in zip(per_piece, floors, strict=True)
        ]
    finals = range(k) if final_colour is None else (final_colour,)
    return min(sum(values[f] for values in per_piece) for f in finals)
