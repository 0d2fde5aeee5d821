"""The anchored tetrapod bound: tetrapods with two of their four ends fixed.

The tetrapod bound (:mod:`kamicp.bounds.tetrapods`, Bound 8 of ``encodings/bounds.md``) takes
the maximum over every quadruple of ends of Q(x, y, z, w, d), the least moves that bring
some tetrapod of G with those ends to colour d (Meeks and Scott, "Spanning trees and the
complexity of flood-filling games", Theory of Computing Systems 54, 2014; arXiv:1203.2538:
a subtree of a spanning tree never needs more moves than G). Computing all n^4
quadruples costs O(t k n^5 / 64) word operations. But a cut needs only one quadruple per
final colour, and those quadruples keep returning to a handful of nodes: the ends of the
triples that the tripod bound (:mod:`kamicp.bounds.tripods`) finds hardest.

So here two ends z, w are fixed ("anchors") and x, y range over the piece. The split
recursion of Bound 8 cuts the tetrapod at one edge u-v. Cutting the arm of x (or y) leaves
a walk and a tetrapod whose ends are again of the form (., ., z, w); cutting between the
pairs leaves two tripods (the tripod values Y of every triple are known); only a cut on
the arm of z (or w) leaves a tetrapod (x, y, v, w) outside the table, and there any of its
four sub-tripods is a lower bound (a subtree never needs more moves). So

    R(x, y, d) = min( C(x, y, d),
                      min over edges u-v of M(x, u, d) + R(v, y, d)   (and for y),
                      1 + min over d' of R(x, y, d') ),
    C(x, y, d) = min( Y(x, y, u) + Y(v, z, w),  Y(x, z, u) + Y(v, y, w),
                      Y(x, w, u) + Y(v, y, z)   over edges u-v,
                      M(z, u) + max(Y(x, y, v), Y(x, y, w), Y(x, v, w), Y(y, v, w))
                      (and the same for w)   over edges u-v,
                      the tripod left when two ends coincide ),

(all in colour d) has R(x, y, d) <= Q(x, y, z, w, d) <= m(G, d): by induction over the
tree H and the moves m(H, d) of a best tetrapod, each case of the split recursion on H is
one of these terms at values no larger (full argument: ``encodings/bounds.md``, Bound 9).
Every added term only lowers R, so the relaxation of the z and w arms costs strength,
never soundness. With every node an anchor, R's maximum met the tetrapod bound on 362 of
362 random graphs of 1-12 nodes (never above it).

R is computed like a shortest path (Dijkstra with a bucket per level, costs 0 .. t): per
anchor pair O(k n^3) steps, tables of O(k n^3) small integers for Y. The anchor pairs of a
colour are the pairs of ends of its triples of the highest tripod value, the most frequent
first; each pair is tried for the colour lowest so far (at most :data:`PAIRS`), and the
computation stops once every colour is above the cap. A check costs a fraction of Bound 8's
and cuts most of what Bound 8 cuts, so it is tried first (BENCHMARKS.md, "Anchored tetrapod
checks": 79% of the cuts at 0.153 s a check, where Bound 8 takes about 0.5 s).

Example (the tree of ``kamicp.bounds.tetrapods``; with every node an anchor it meets Bound 8)::

    >>> from kamicp.game.regions import from_edges
    >>> edges = [(0, 1), (0, 2), (1, 3), (3, 4), (4, 5), (3, 6), (0, 7), (7, 8)]
    >>> tree = from_edges([2, 0, 0, 1, 2, 1, 0, 1, 2], edges)
    >>> anchored_values(tree.colour, tree.adj, range(9), 3, 10, anchors=range(9))
    [4, 5, 5]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from kamicp.bounds.tripods import packed_tripod_levels
from kamicp.bounds.walks import packed_walk_levels, piece_arrays
from kamicp.jit import kernel

__all__ = ["CANDIDATES", "PAIRS", "anchored_values", "least_levels", "pair_values"]

PAIRS = 24  # anchor pairs tried at most per check
CANDIDATES = 12  # anchor pairs kept per colour, most frequent first


def anchored_values(
    colour: Sequence[int],
    adj: Sequence[Sequence[int]],
    piece: Sequence[int],
    k: int,
    cap: int,
    anchors: Sequence[int] | None = None,
    first: Sequence[tuple[int, int]] = (),
    helped: list[tuple[int, int]] | None = None,
    tripod_levels: Iterable[np.ndarray] | None = None,
) -> list[int]:
    """For each final colour d: max over the anchor pairs (z, w) and all x, y of
    R(x, y, d), a lower bound on the moves that bring the piece to colour d (at most the
    tetrapod value); a value above ``cap`` is reported as ``cap + 1``. Stops as soon as
    every colour is above ``cap`` (the answer a search's cut needs).

    The pairs: for each colour, the most frequent pairs of ends among its hardest
    triples (:func:`_pairs`), at most :data:`PAIRS` in all, each tried for the colour
    lowest so far; or, given ``anchors`` (indices into ``piece``), every pair of them.
    The pairs ``first`` (say, those that cut similar states) are tried before the others;
    ``helped``, if given, receives each pair that brought a colour above the cap;
    ``tripod_levels``, if given, are the piece's tripod levels 0..``cap`` (computed once for
    several bounds: :func:`kamicp.bounds.tripods.kept_levels`)."""
    if cap < 0:
        return [0] * k  # every value is above a negative cap
    piece = list(piece)
    arrays = piece_arrays(colour, adj, piece)
    _, starts, neighbours, _ = arrays
    if tripod_levels is None:
        tripod_levels = packed_tripod_levels(colour, adj, piece, k, cap)
    tripods = np.array(list(tripod_levels), dtype=np.uint64)
    if len(tripods) <= cap:
        # given levels stopped at a deadline before the cap: the check is over, and what
        # the levels done would give is not worth computing (nothing known is sound)
        return [0] * k
    *_, (_, cost) = packed_walk_levels(arrays, k, cap)  # the last level's costs: all up to cap
    n = len(piece)
    words = (n + 63) // 64
    y = np.empty((k, n, n, n), dtype=np.int16)
    least_levels(tripods.reshape(len(tripods), k, n, n, words), n, y)
    walk_cost = cost.astype(np.int16)
    best = np.zeros(k, dtype=np.int64)
    tried: set[tuple[int, int]] = set()
    if anchors is None:
        candidates, pairs = [_pairs(y[d]) for d in range(k)], PAIRS
    else:
        every = [(a, b) for i, a in enumerate(anchors) for b in anchors[i:]]
        candidates, pairs = [list(every) for _ in range(k)], len(every)
    queue = [(min(p), max(p)) for p in first]
    while len(tried) < pairs and best.min() <= cap:
        if queue:
            z, w = queue.pop(0)
            if (z, w) in tried:
                continue
        else:  # the next untried pair of the colour lowest so far
            d = int(np.argmin(best))
            while candidates[d] and candidates[d][0] in tried:
                candidates[d].pop(0)
            if not candidates[d]:
                break  # nothing left to try for d: the cut cannot come
            z, w = candidates[d].pop(0)
        tried.add((z, w))
        values = pair_values(y, walk_cost, z, w, cap, starts, neighbours)
        if helped is not None and ((values > cap) & (best <= cap)).any():
            helped.append((z, w))
        best = np.maximum(best, values)
    return [int(v) for v in best]


def _pairs(y: np.ndarray) -> list[tuple[int, int]]:
    """Anchor pairs for one colour: the pairs of ends of its triples of the highest tripod
    value, the most frequent first (ties by node numbers), at most :data:`CANDIDATES`.

    Counted with NumPy: levels stopped at a deadline leave most triples at the highest
    value, too many for a Python loop to count after a time limit."""
    n = y.shape[0]
    ends = np.argwhere(y == y.max())
    codes = np.concatenate(
        [
            np.minimum(ends[:, i], ends[:, j]) * n + np.maximum(ends[:, i], ends[:, j])
            for i, j in ((0, 1), (0, 2), (1, 2))
        ]
    )
    pairs, counts = np.unique(codes, return_counts=True)
    order = np.lexsort((pairs, -counts))[:CANDIDATES]
    return [(int(pairs[i]) // n, int(pairs[i]) % n) for i in order]


@kernel
def least_levels(levels, n, out) -> None:
    """out[d, x, y, z] = the first level whose bit z of [d, x, y] is set (levels are
    nested), or the number of levels if none is."""
    count = levels.shape[0]
    k = levels.shape[1]
    for d in range(k):
        for x in range(n):
            for yy in range(n):
                for z in range(n):
                    word, bit = z >> 6, np.uint64(1) << np.uint64(z & 63)
                    lo, hi = 0, count  # the first set level lies in [lo, hi]
                    while lo < hi:
                        mid = (lo + hi) >> 1
                        if levels[mid, d, x, yy, word] & bit:
                            hi = mid
                        else:
                            lo = mid + 1
                    out[d, x, yy, z] = lo


@kernel
def pair_values(y, cost, z, w, cap, starts, neighbours):
    """Per colour d: max over x, y of R(x, y, d) for anchors z, w, above ``cap`` reported
    as ``cap + 1``. ``cost[d, x, v]`` = min over neighbours u of v of M(x, u, d)."""
    k, n = y.shape[0], y.shape[1]
    top = cap + 1
    r = np.full((k, n, n), top, dtype=np.int16)
    for d in range(k):
        _constants(y[d], cost[d], z, w, starts, neighbours, r[d], top)
    # Dijkstra with one bucket per value 0..cap: a stack of the entries set to the value
    # being settled (cost-0 joins add to it), each entry settled once
    settled = np.zeros((k, n, n), dtype=np.bool_)
    stack = np.empty((k * n * n + 1, 3), dtype=np.int64)
    for t in range(top):
        size = 0
        for d in range(k):
            for x in range(n):
                for yy in range(n):
                    if r[d, x, yy] == t and not settled[d, x, yy]:
                        stack[size, 0], stack[size, 1], stack[size, 2] = d, x, yy
                        size += 1
                        settled[d, x, yy] = True
        while size > 0:
            size -= 1
            d, x, yy = stack[size, 0], stack[size, 1], stack[size, 2]
            for e in range(k):  # one more move: any colour
                if r[e, x, yy] > t + 1:
                    r[e, x, yy] = t + 1
            for v in range(n):  # a walk from v to a neighbour of x (or of yy)
                a = t + cost[d, v, x]
                if a < r[d, v, yy]:
                    r[d, v, yy] = a
                    if a == t:
                        stack[size, 0], stack[size, 1], stack[size, 2] = d, v, yy
                        size += 1
                        settled[d, v, yy] = True
                b = t + cost[d, v, yy]
                if b < r[d, x, v]:
                    r[d, x, v] = b
                    if b == t:
                        stack[size, 0], stack[size, 1], stack[size, 2] = d, x, v
                        size += 1
                        settled[d, x, v] = True
    values = np.zeros(k, dtype=np.int64)
    for d in range(k):
        values[d] = min(top, r[d].max())
    return values


@kernel
def _constants(y, cost, z, w, starts, neighbours, c, top) -> None:
    """C(x, y) in one colour (see the module's docstring), values above ``top`` cut to it."""
    n = y.shape[0]
    near = np.empty(n, dtype=np.int16)  # min over neighbours v of u of Y(v, z, w)
    for u in range(n):
        m = top
        for i in range(starts[u], starts[u + 1]):
            m = min(m, y[neighbours[i], z, w])
        near[u] = m
    for x in range(n):
        for yy in range(n):
            m = c[x, yy]
            for u in range(n):
                m = min(m, y[x, yy, u] + near[u])
            c[x, yy] = m
    side = np.empty((n, n), dtype=np.int16)  # [u, yy] = min over v next to u of Y(v, yy, b)
    for turn in range(2):
        a, b = (z, w) if turn == 0 else (w, z)
        for u in range(n):
            for yy in range(n):
                m = top
                for i in range(starts[u], starts[u + 1]):
                    m = min(m, y[neighbours[i], yy, b])
                side[u, yy] = m
        for x in range(n):
            for yy in range(n):
                m = c[x, yy]
                for u in range(n):
                    m = min(m, y[x, a, u] + side[u, yy])
                c[x, yy] = m
        # a cut on a's arm: a walk from a, and a tetrapod (x, yy, v, b) bounded by its
        # sub-tripods
        for x in range(n):
            for yy in range(n):
                m = c[x, yy]
                fixed = y[x, yy, b]
                for v in range(n):
                    walk = cost[a, v]
                    if walk >= m:
                        continue
                    low = max(max(fixed, y[x, yy, v]), max(y[x, v, b], y[yy, v, b]))
                    m = min(m, walk + low)
                c[x, yy] = m
    for x in range(n):  # two ends in one node: a tripod
        c[x, x] = min(c[x, x], y[x, z, w])
        c[z, x] = min(c[z, x], y[z, x, w])
        c[x, z] = min(c[x, z], y[x, z, w])
        c[w, x] = min(c[w, x], y[w, x, z])
        c[x, w] = min(c[x, w], y[x, w, z])
        if z == w:
            for yy in range(n):
                c[x, yy] = min(c[x, yy], y[x, yy, z])
    for x in range(n):
        for yy in range(n):
            c[x, yy] = min(c[x, yy], top)
