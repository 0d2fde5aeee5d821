"""The tetrapod bound: the tripod bound's argument with four ends instead of three.

Meeks and Scott ("Spanning trees and the complexity of flood-filling games", Theory of
Computing Systems 54, 2014; arXiv:1203.2538) proved that flooding a connected graph G with
colour d takes exactly as many moves as flooding the best spanning tree T of G, and a
subtree of T never needs more moves than T (Lemma 3 of ``encodings/bounds.md``). The walk
bound (:mod:`kamicp.bounds.walks`) looks at the path of T between two nodes, the tripod bound
(:mod:`kamicp.bounds.tripods`) at the subtree joining three; here we take the subtree of T that
joins *four* nodes x, y, z, w (a tetrapod: a tree whose leaves are among the four ends), so

    m(G, d) >= Q(x, y, z, w, d) = min over tetrapods H of G with ends x, y, z, w of m(H, d),

with arms that may be walks of G (a larger set, a smaller minimum). On a tree, m obeys the
split recursion m(H, d) = min(min over edges e of m(H1, d) + m(H2, d), 1 + min over d' of
m(H, d')). Cutting an edge u-v of a tetrapod leaves, on each side, a subtree whose leaves
are the ends on that side and the cut node: one end and u (a walk) and a tetrapod with ends
v and the other three, or two ends and u (a tripod) and two ends and v (a tripod). So Q is
the least solution of

    Q(x, y, z, w, d) = min( min over edges u-v of M(x, u, d) + Q(v, y, z, w, d),
                            min over edges u-v of Y(x, y, u, d) + Y(v, z, w, d),
                            1 + min over d' of Q(x, y, z, w, d') ),
    Q(x, y, z, z, d) <= Y(x, y, z, d)   (a tetrapod with two ends in one node is a tripod),

over every order of the ends (a tetrapod has no first end; M the walk values, Y the tripod
values). Full argument in ``encodings/bounds.md`` (Bound 8); ``tests/bounds/test_tetrapods.py``
checks it against BFS (exact on trees with at most four leaves, at most the optimum on
other graphs, at least the tripod bound).

Computed level by level: ``Q[t][d]`` is the boolean 4-cube of the ends with Q <= t. Level t
starts from level t - 1 in any colour, the tripods with two ends in one node, the joins with
a walk of cost 1 .. t - 1 (pair by pair, at the pair's least cost, as for tripods;
not those that another join implies, :func:`_dominated`) and the
joins of two tripods (per end pair and node v at the least cost c of a tripod (x, y, u)
with u next to v, taken for c <= t / 2 only: the join of cost t - c is the same join seen
from the other side, which the permutations supply). It is then closed: on a proper graph
(every region graph) the joins with a cost-0 walk along each end are idempotent and commute
with each other and with the permutations of the ends, so one pass of "union over the 24
permutations, then the join along each end" is the closure (the argument of
:func:`kamicp.bounds.tripods._fill`, with one more end).

Cost: O(t k n^5 / 64) word operations and O(t k n^4) bits for bound t, k colours and n
nodes: seconds on pieces of about 70 regions, tens of seconds and over a gigabyte on 111
(the joins are ordered for the memory and half of them left to the closure:
:func:`_walk_joins`, :func:`_join_ends`). So it is asked at a puzzle's start only where the
tripod bound is below a known solution (:func:`kamicp.solving.solve.solve`), and only on
pieces of at most :data:`kamicp.bounds.pieces.TETRAPOD_NODES` regions.

Example (a tree with four leaves: 2, 5, 6 and 8)::

    >>> from kamicp.game.regions import from_edges
    >>> edges = [(0, 1), (0, 2), (1, 3), (3, 4), (4, 5), (3, 6), (0, 7), (7, 8)]
    >>> tree = from_edges([2, 0, 0, 1, 2, 1, 0, 1, 2], edges)
    >>> from kamicp.bounds.tripods import tripod_values
    >>> tripod_values(tree.colour, tree.adj, range(9), 3)
    [4, 4, 4]
    >>> tetrapod_values(tree.colour, tree.adj, range(9), 3)  # BFS: [4, 5, 5]
    [4, 5, 5]
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from kamicp.bounds.bits import full_row, transpose_block
from kamicp.bounds.cache import BOUND_CACHE
from kamicp.bounds.tripods import packed_tripod_levels
from kamicp.bounds.walks import LEVELS, first_full, packed_walk_levels, piece_arrays
from kamicp.jit import kernel

__all__ = ["CHUNK", "TILE", "keep_levels_memory", "packed_tetrapod_levels", "tetrapod_values"]


def tetrapod_values(
    colour: Sequence[int],
    adj: Sequence[Sequence[int]],
    piece: Sequence[int],
    k: int,
    cap: int | None = None,
    deadline: float | None = None,
    tripod_levels: Iterable[np.ndarray] | None = None,
) -> list[int]:
    """For each final colour d (0..k-1): max over quadruples of the piece of Q(x, y, z, w, d).

    Same contract as :func:`kamicp.bounds.tripods.tripod_values`: each value is a lower bound on
    the moves that bring the piece to colour d, at least the tripod value when complete;
    with ``cap``, a value above ``cap`` is reported as ``cap + 1``; with ``deadline``, no
    level is started after it and the values not reached are reported as the first level
    not computed. ``tripod_levels``, if given, are the piece's tripod levels 0..``cap`` (as
    :func:`kamicp.bounds.tripods.kept_levels` yields them), not computed again.
    """
    last = LEVELS if cap is None else cap
    levels = _tetrapod_levels(colour, adj, piece, k, last, deadline, tripod_levels)
    return first_full(levels, k, cap is not None or deadline is not None)


def _tetrapod_levels(
    colour, adj, piece, k: int, last: int, deadline=None, tripod_levels=None
) -> Iterator:
    """Yield, for level t = 0, 1, ..., ``last``, a boolean vector over the colours d: true
    when every quadruple of the piece has Q(x, y, z, w, d) <= t."""
    n = len(piece)
    full = np.tile(full_row(n, (n + 63) // 64), n * n).reshape(n, n, -1)
    for level in packed_tetrapod_levels(colour, adj, piece, k, last, deadline, tripod_levels):
        yield np.array([(level[d] == full).all() for d in range(k)])


def packed_tetrapod_levels(
    colour, adj, piece, k: int, last: int, deadline=None, tripod_levels=None
) -> Iterator:
    """Yield level t = 0, 1, ..., ``last`` as bits: an array (k, n, n, n, words) of 64-bit
    words whose bit w of [d, x, y, z] is set when Q(x, y, z, w, d) <= t (indices into
    ``piece``). A view of the levels the next ones are built from: read it only.
    ``tripod_levels``: the tripod levels to build on, if already computed."""
    n = len(piece)
    arrays = piece_arrays(colour, adj, piece)
    node_colour, starts, neighbours, proper = arrays
    words = (n + 63) // 64
    # levels kept: all up to a cap (each join may reach back to any of them), else 4 more
    # when needed; each is k n^3 words: a level too many is 38 MB on 78 regions
    size = last + 1 if last < LEVELS else 16
    tripods = np.zeros((size, k, n, n * words), dtype=np.uint64)
    levels = _zeros((size, k, n, n, n, words))
    bar = np.full((k, n, n, n), LEVELS + 1, dtype=np.int32)  # least cost of a tripod join
    walks = packed_walk_levels(arrays, k, last)
    if tripod_levels is None:
        tripod_levels = packed_tripod_levels(colour, adj, piece, k, last, deadline)
    for t, tripod_level in enumerate(tripod_levels):
        if deadline is not None and time.monotonic() >= deadline:
            return
        if t == len(levels):
            tripods = np.concatenate([tripods, np.zeros_like(tripods[:4])])
            levels = np.concatenate([levels, np.zeros_like(levels[:4])])
        tripods[t] = tripod_level
        _, cost = next(walks)  # the walk costs below t are final
        _level(levels, t, tripods, bar, cost, node_colour, starts, neighbours, proper)
        yield levels[t]


def keep_levels_memory(keep: bool) -> None:
    """Keep the levels' memory from one computation to the next (``keep``), or let it go.

    For callers that compute many tetrapod bounds in a row (IDA*'s tetrapod checks): fresh
    memory costs a page fault per page at its first write, about a tenth of a check on
    pieces of 111 regions. The memory (:data:`kamicp.bounds.cache.BOUND_CACHE`) stays held
    between computations, so it is off unless asked.

    Parameters
    ----------
    keep : bool
        Keep the memory from now on (True), or let it go and stop keeping it (False).

    Examples
    --------
    >>> keep_levels_memory(False)
    """
    BOUND_CACHE.keep_memory = keep
    BOUND_CACHE.memory = None


def _zeros(shape: tuple) -> np.ndarray:
    """A zero array of 64-bit words: from the kept memory when it is kept and large enough
    (:func:`keep_levels_memory`), else new."""
    if not BOUND_CACHE.keep_memory:
        return np.zeros(shape, dtype=np.uint64)
    out = BOUND_CACHE.scratch(math.prod(shape)).reshape(shape)
    out.fill(0)
    return out


@kernel
def _level(levels, t, tripods, bar, cost, node_colour, starts, neighbours, proper) -> None:
    """Compute level t in place: level t - 1 in any colour, the tripods with two ends in
    one node, the joins, then the closure (:func:`_symmetrise`, :func:`_join_ends`)."""
    k, n, words = levels.shape[1], levels.shape[2], levels.shape[5]
    arrays = (node_colour, starts, neighbours)
    _new_bar_costs(bar, t, tripods, starts, neighbours)
    triples = _sorted_triples(n)
    if t > 0:
        _one_more_move(levels, t)
    for d in range(k):
        q = levels[t, d]
        _tripods_in(q, tripods[t, d], n, words)
        # a tripod (x, y, u) within c, an edge u-v, a tripod (v, z, w); x <= y only: the
        # join of (y, x) is the same (both tripods are symmetric), and row (y, x, z) gets it
        # from row (x, y, z) when the rows are closed under the orders of the ends
        for x in range(n):
            for y in range(x, n):
                for v in range(n):
                    c = bar[d, x, y, v]
                    if 2 * c <= t:
                        source = tripods[t - c, d, v]
                        for z in range(n):
                            for i in range(words):
                                q[x, y, z, i] |= source[z * words + i]
        _walk_joins(levels, t, d, _walk_join_list(t, d, cost, arrays, proper))
        while True:
            before = q if proper else q.copy()
            _symmetrise(q, triples)
            _join_ends(q, d, node_colour, starts, neighbours)
            if proper or (q == before).all():
                break


@kernel
def _walk_join_list(t, d, cost, arrays, proper):
    """The walk joins of level t, colour d: rows (x, v, c), a walk (x, u) within c, an edge
    u-v, a tetrapod (v, y, z, w) of level t - c; without those another implies."""
    n = cost.shape[1]
    out = np.empty((n * n, 3), dtype=np.int64)
    m = 0
    for x in range(n):
        for v in range(n):
            c = cost[d, x, v]
            if 1 <= c < t and not (proper and _dominated(x, v, c, d, cost, arrays)):
                out[m, 0], out[m, 1], out[m, 2] = x, v, c
                m += 1
    return out[:m]


CHUNK = 64  # words of a row chunk in the walk joins: every join's chunk stays in the caches


@kernel
def _walk_joins(levels, t, d, joins) -> None:
    """Level t, colour d, |= the walk joins: block x takes block v of level t - c.

    Only the rows (x, y, z) with y <= z: a finished level is symmetric in its ends, so row
    (x, z, y) would get the same bits, and the closure's union over the orders of the ends
    (:func:`_symmetrise`) gives them to it. Chunk by chunk of the blocks: one chunk of every
    source is read once for all the joins that need it, where block by block each source
    came back from memory for every x that joins it (n times a level)."""
    k, n, words = levels.shape[1], levels.shape[2], levels.shape[5]
    flat = levels.reshape(levels.shape[0], k, n, -1)
    q = flat[t, d]
    for y in range(n):
        row_end = (y * n + n) * words
        for start in range((y * n + y) * words, row_end, CHUNK):
            end = min(start + CHUNK, row_end)
            for j in range(len(joins)):
                x, v, c = joins[j, 0], joins[j, 1], joins[j, 2]
                source = flat[t - c, d, v]
                for i in range(start, end):
                    q[x, i] |= source[i]


@kernel
def _dominated(x, v, c, d, cost, arrays) -> bool:
    """Is the walk join of x with v at cost c implied by another? It is, on a proper
    graph, when a neighbour u of v has colour d and a cost c' <= c: every finished level
    has v's quadruples among u's (u's join with v along a cost-0 walk), so the join of x
    with u, at cost t - c' >= t - c, brings x all that the join with v would. That join is
    made: c' >= 1 (a cost-0 walk is one node of colour d, which no neighbour of u has),
    and u is not dominated itself (its neighbours have other colours than d). Skipping the
    dominated joins leaves the levels the same bit for bit."""
    node_colour, starts, neighbours = arrays
    for j in range(starts[v], starts[v + 1]):
        u = neighbours[j]
        if node_colour[u] == d and cost[d, x, u] <= c:
            return True
    return False


@kernel
def _one_more_move(levels, t) -> None:
    """levels[t][d] = the union over d' of levels[t - 1][d'] (one more move recolours it).

    Colour by colour over flat rows, which the compiler vectorises (a loop over the quadruples
    with the colours innermost does not vectorise)."""
    k = levels.shape[1]
    before = levels[t - 1].reshape(k, -1)
    now = levels[t].reshape(k, -1)
    size = before.shape[1]
    for j in range(size):
        now[0, j] = before[0, j]
    for d in range(1, k):
        for j in range(size):
            now[0, j] |= before[d, j]
    for d in range(1, k):
        for j in range(size):
            now[d, j] = now[0, j]


@kernel
def _tripods_in(q, tripod, n, words) -> None:
    """(x, y, z, z) is within t when the tripod (x, y, z) is."""
    one = np.uint64(1)
    for x in range(n):
        for y in range(n):
            for z in range(n):
                if (tripod[x, y * words + z // 64] >> np.uint64(z % 64)) & one:
                    q[x, y, z, z // 64] |= one << np.uint64(z % 64)


@kernel
def _new_bar_costs(bar, t, tripods, starts, neighbours) -> None:
    """bar[d, x, y, v] = t for the triples with none yet where a neighbour u of v has
    Y(x, y, u, d) <= t."""
    k, n = bar.shape[0], bar.shape[1]
    words = tripods.shape[3] // n
    one = np.uint64(1)
    for d in range(k):
        for x in range(n):
            for y in range(n):
                for u in range(n):
                    if (tripods[t, d, x, y * words + u // 64] >> np.uint64(u % 64)) & one:
                        for j in range(starts[u], starts[u + 1]):
                            v = neighbours[j]
                            if bar[d, x, y, v] > t:
                                bar[d, x, y, v] = t


TILE = 8  # the symmetrisation visits the triples in tiles of TILE^3, for the cache


@kernel
def _symmetrise(q, triples) -> None:
    """q = the union of its images under the 24 orders of the ends, in two passes over the
    sorted triples (x <= y <= z), each visiting the six orders of a triple at once.

    First the six orders of the first three ends: every order of (x, y, z) gets the union
    of the six rows. Then q is symmetric in them, so a quadruple (x, y, z, w) is in the
    union of the 24 images when, for one of its four ends e placed last, the other three in
    any order are in q with e: e = w is q[x, y, z], e = z is bit z of q[x, y, w], that is
    bit w of the flip f = (z w) q at [x, y, z]; e = y is f[x, z, y], e = x is f[y, z, x].
    f is symmetric in its first two ends (as q is), so only its blocks x <= y are flipped.
    Each row is read and written about twice; swapping whole cubes one order at a time
    would read it about twenty times, mostly with strides."""
    n, words = q.shape[0], q.shape[3]
    for j in range(len(triples)):
        x, y, z = triples[j, 0], triples[j, 1], triples[j, 2]
        for i in range(words):
            row = q[x, y, z, i] | q[x, z, y, i] | q[y, x, z, i]
            row |= q[y, z, x, i] | q[z, x, y, i] | q[z, y, x, i]
            _write_six(q, x, y, z, i, row)
    f = np.zeros_like(q)
    for x in range(n):
        for y in range(x, n):
            transpose_block(q[x, y], 0, f[x, y], n)
    for j in range(len(triples)):
        x, y, z = triples[j, 0], triples[j, 1], triples[j, 2]
        for i in range(words):
            row = q[x, y, z, i] | f[x, y, z, i] | f[x, z, y, i] | f[y, z, x, i]
            _write_six(q, x, y, z, i, row)


@kernel
def _sorted_triples(n):
    """The triples x <= y <= z below n, tile by tile (TILE^3 rows of each order at a time):
    the order in which :func:`_symmetrise` visits them, computed once a level."""
    count = n * (n + 1) * (n + 2) // 6
    out = np.empty((count, 3), dtype=np.int64)
    j = 0
    for tx in range(0, n, TILE):
        for ty in range(tx, n, TILE):
            for tz in range(ty, n, TILE):
                for x in range(tx, min(tx + TILE, n)):
                    for y in range(max(ty, x), min(ty + TILE, n)):
                        for z in range(max(tz, y), min(tz + TILE, n)):
                            out[j, 0], out[j, 1], out[j, 2] = x, y, z
                            j += 1
    return out


@kernel
def _write_six(q, x, y, z, i, row) -> None:
    q[x, y, z, i] = row
    q[x, z, y, i] = row
    q[y, x, z, i] = row
    q[y, z, x, i] = row
    q[z, x, y, i] = row
    q[z, y, x, i] = row


@kernel
def _join_ends(q, d, node_colour, starts, neighbours) -> None:
    """The joins with a cost-0 walk at each end of a q symmetric in its ends (it comes from
    :func:`_symmetrise`): a node x of colour d next to v takes the tetrapods of v, as any of
    its four ends.

    The last two ends first, in one pass over the blocks q[a, b] with a <= b (n rows of a
    few words), all nodes x at once: row x takes row v, then bit x of each row is set where
    the row meets x's neighbours; block (b, a) equals block (a, b) before, so it gets a copy
    after. Then the first two ends, as block ORs. (Pair by pair, the last end would take a
    pass over the whole cube each, from memory on large pieces.) The joins commute (on a
    proper graph; otherwise the caller repeats them until nothing changes), so their order
    does not matter."""
    n, words = q.shape[0], q.shape[3]
    targets = np.zeros(n, dtype=np.int64)
    masks = np.zeros((n, words), dtype=np.uint64)
    m = 0
    for x in range(n):
        if node_colour[x] == d and starts[x] < starts[x + 1]:
            targets[m] = x
            for j in range(starts[x], starts[x + 1]):
                v = neighbours[j]
                masks[m, v // 64] |= np.uint64(1) << np.uint64(v % 64)
            m += 1
    _join_inner_ends(q, targets[:m], masks[:m], starts, neighbours)
    for p in range(m):
        x = targets[p]
        for j in range(starts[x], starts[x + 1]):
            v = neighbours[j]
            q[x] |= q[v]
            q[:, x] |= q[:, v]


@kernel
def _join_inner_ends(q, targets, masks, starts, neighbours) -> None:
    """The third and fourth ends' joins of :func:`_join_ends`, block by block (a <= b,
    block (b, a) a copy)."""
    n, words = q.shape[0], q.shape[3]
    one, zero = np.uint64(1), np.uint64(0)
    for a in range(n):
        for b in range(a, n):
            block = q[a, b]
            for p in range(len(targets)):
                x = targets[p]
                for j in range(starts[x], starts[x + 1]):
                    v = neighbours[j]
                    for i in range(words):
                        block[x, i] |= block[v, i]
            for p in range(len(targets)):
                x = targets[p]
                word, bit = x // 64, one << np.uint64(x % 64)
                for c in range(n):
                    meets = zero
                    for i in range(words):
                        meets |= block[c, i] & masks[p, i]
                    if meets != zero:
                        block[c, word] |= bit
            if b > a:
                q[b, a] = block
