"""The tripod bound: the walk bound's argument with three ends instead of two.

Meeks and Scott ("Spanning trees and the complexity of flood-filling games", Theory of
Computing Systems 54, 2014; arXiv:1203.2538) proved that flooding a connected graph G with
colour d takes exactly as many moves as flooding the best spanning tree T of G, and a
subtree of T never needs more moves than T (Lemma 3 of ``encodings/bounds.md``). The walk
bound (:mod:`kamicp.walks`) looks at the path of T between two nodes; here we look at the
subtree of T that joins *three* nodes x, y, z: a tripod (three paths from a centre, some
possibly empty). Every tripod of T is a tripod of G, so

    m(G, d) >= Y(x, y, z, d) = min over tripods H of G with ends x, y, z of m(H, d),

where, as for walks, the arms may be walks of G (a larger set, a smaller minimum). On a
tree, m obeys the split recursion that Bound 5 uses on paths,

    m(H, d) = min( min over edges e of m(H1, d) + m(H2, d),  1 + min over d' of m(H, d') ),

H1 and H2 the two subtrees left when e is removed; ``tests/test_tripods.py`` checks it
against BFS on random trees. Cutting an edge of the arm towards x leaves a walk from x to
some u and a tripod with ends v, y, z (u-v the edge), so Y is the least solution of

    Y(x, y, z, d) = min( min over edges u-v of M(x, u, d) + Y(v, y, z, d)  (and for y, z),
                         1 + min over d' of Y(x, y, z, d') ),
    Y(x, y, y, d) <= M(x, y, d)   (a tripod with an empty arm is a path).

It is computed level by level as for walks: ``Y[t][d]`` is the boolean cube of triples
with Y <= t, closed under (M[a][d] . A) . Y[t-a][d] for a = 0..t, then under the six
permutations of the ends (a tripod has no first end). Full argument in
``encodings/bounds.md`` (Bound 6).

Cost: O(t k n^4 / 64) word operations (each pair x, v joins once per level, as bits) and
O(t k n^3) bits of memory for bound t, k colours and n nodes; measured 0.4 s for Bud4's 72
regions and about 2.7 s for Threegrid4's 111 (float32 matrix products, the first version:
2.6 s and 6.2 s). It is asked at a puzzle's start and, in IDA*, once an iteration has run
for a while, at the depths where a check is expected to pay (:mod:`kamicp.astar`).

Example::

    >>> from kamicp.regions import from_edges
    >>> arms = [(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)]  # three arms from node 0
    >>> star = from_edges([0, 1, 0, 1, 0, 2, 0], arms)
    >>> tripod_values(star.colour, star.adj, range(7), 3)  # walks: [2, 3, 3]; BFS: [3, 4, 4]
    [3, 4, 4]
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

import numpy as np

from kamicp.walks import LEVELS, first_full, least_full, piece_matrices, walk_levels


def tripod_values(
    colour: Sequence[int],
    adj: Sequence[Sequence[int]],
    piece: Sequence[int],
    k: int,
    cap: int | None = None,
    deadline: float | None = None,
) -> list[int]:
    """For each final colour d (0..k-1): max over triples of the piece of Y(x, y, z, d).

    Same contract as :func:`kamicp.walks.walk_values`: each value is a lower bound on the
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
    """Yield level t = 0, 1, ..., ``last``: a boolean array (k, n, n, n), [d, x, y, z]
    true when Y(x, y, z, d) <= t, with x, y, z indexing ``piece``; no level is started
    after ``deadline``.

    The joins (M[a] . A) . Y[t - a] over a = 1..t-1 are done pair by pair: for each pair
    (x, v), ``cost[d, x, v]`` = the least a with a walk from x to a neighbour u of v within
    a moves (M(x, u, d) <= a). A pair with cost a contributes Y[t - a](v, ., .) to row x at
    level t; with a larger a the contribution would come from an older, smaller level,
    already included. So each level ORs at most n^2 rows of n^2 bits per colour (levels
    are kept as bits, 64 to a word): O(k n^4 / 64) word operations instead of the
    O(t k n^4) of matrix products (4-7x faster on the KAMI 2 levels measured).
    """
    n = len(piece)
    adjacency, owns = piece_matrices(colour, adj, piece, k)
    width = (n + 63) // 64 * 8  # bytes per packed row: whole 64-bit words
    cost = np.full((k, n, n), LEVELS + 1, dtype=np.int32)
    # the pairs of the a = 0 joins: x of colour d, v a neighbour of x
    ends = [np.nonzero((owns[d][:, None] > 0) & (adjacency > 0)) for d in range(k)]
    proper = not any((owns[d][:, None] * owns[d][None, :] * adjacency).any() for d in range(k))
    packed = np.zeros((8, k, n, n, width), dtype=np.uint8)  # packed[t]: level t, z as bits
    diagonal = _pack(np.eye(n, dtype=bool), width)  # row y: bit y

    def late() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    for t, walks in enumerate(walk_levels(colour, adj, piece, k, last)):
        if late():
            return
        if t == len(packed):
            packed = np.concatenate([packed, np.zeros_like(packed)])
        cost[((walks @ adjacency) > 0) & (cost > t)] = t
        # Y(x, y, y) <= M(x, y): a path; as bits, bit y of row (x, y)
        rows = np.where((walks > 0)[..., None], diagonal, np.uint8(0))
        if t > 0:
            before = packed[t - 1]
            rows |= before
            rows |= np.bitwise_or.reduce(before, axis=0)  # one more move: any d'
            for d in range(k):  # the splits that use finished levels only (0 < a < t)
                xs, vs = np.nonzero((cost[d] >= 1) & (cost[d] < t))
                _or_rows(rows[d], xs, packed[t - cost[d][xs, vs], d, vs])
        level = _close(rows, ends, n, width, late, proper)
        if level is None:
            return
        packed[t] = _pack(level, width)
        yield level


def _pack(level: np.ndarray, width: int) -> np.ndarray:
    """The last axis as bits, padded to ``width`` bytes."""
    bits = np.packbits(level, axis=-1)
    out = np.zeros(level.shape[:-1] + (width,), dtype=np.uint8)
    out[..., : bits.shape[-1]] = bits
    return out


def _unpack(rows: np.ndarray, n: int) -> np.ndarray:
    return np.unpackbits(rows, axis=-1, count=n).astype(bool)


def _or_rows(target: np.ndarray, xs: np.ndarray, sources: np.ndarray) -> None:
    """target[x] |= OR of sources[i] over the i with xs[i] = x (``xs`` sorted), as 64-bit
    words."""
    if len(xs) == 0:
        return
    starts = np.flatnonzero(np.r_[True, xs[1:] != xs[:-1]])
    merged = np.bitwise_or.reduceat(sources.view(np.uint64), starts, axis=0)
    target[xs[starts]] |= merged.view(np.uint8)


def _close(rows: np.ndarray, ends, n: int, width: int, late, proper: bool) -> np.ndarray | None:
    """Level t from S = ``rows`` (packed over z; the joins at the x end only, so S is
    symmetric in y and z), closed under the six permutations of the ends (a tripod has no
    first end) and under the splits with a cost-0 arm, J_x, J_y, J_z: a node x of colour d,
    an edge x-v and a tripod (v, y, z) within t give the tripod (x, y, z) within t, and the
    same at the y and z ends. Only the latter involve level t itself. None if ``late()``
    stopped it before the fixed point.

    Along one axis the join is the boolean matrix I + D_d A (D_d: the nodes of colour d).
    On a ``proper`` graph (no two adjacent nodes of one colour: every region graph)
    D_d A D_d A = 0, so each join is idempotent; joins along different axes commute, and
    their product J = J_x J_y J_z commutes with every permutation s of the ends (s J s^-1
    permutes the factors). So one pass gives the fixed point J P(S) = P(J S), P the union
    over the permutations, here P(S) = S + (x y) S + (x z) S. Bits run along z, so J_x and
    J_y are row operations on the packed level, and J_z = (x z) J_x (x z) is one after a
    transposition. With B = S + (x y) S and X = J_x (x z) J_x J_y B = (x z) J B, X + (x y) X
    = J ((x z) S + (x z)(x y) S + (x y)(x z) S + (y z) S) = J P(S), since (y z) S = S.
    Other graphs repeat the pass (S then symmetric) until nothing changes.
    """
    k = rows.shape[0]
    before = None if proper else _unpack(rows, n)
    while True:
        rows |= rows.swapaxes(1, 2)  # symmetric in x and y
        for d, (xs, vs) in enumerate(ends):  # J_x, then J_y, on rows packed over z
            _or_rows(rows[d], xs, rows[d, vs])
            by_y = rows[d].swapaxes(0, 1)
            _or_rows(by_y, xs, by_y[vs])
        # (x z), as rows of n * n bools read as 64-bit words, then J_x once more
        flipped = np.zeros((k, n, (n * n + 7) // 8 * 8), dtype=bool)
        flipped[:, :, : n * n] = _unpack(rows, n).transpose(0, 3, 2, 1).reshape(k, n, n * n)
        for d, (xs, vs) in enumerate(ends):
            _or_rows(flipped[d].view(np.uint8), xs, flipped[d, vs].view(np.uint8))
        level = flipped[:, :, : n * n].reshape(k, n, n, n)
        np.logical_or(level, level.transpose(0, 2, 1, 3), out=level)  # X + (x y) X
        if proper or not (level & ~before).any():
            return level
        if late():
            return None
        before, rows = level, _pack(level, width)
