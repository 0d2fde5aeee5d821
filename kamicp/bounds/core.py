"""Admissible lower bounds on the moves still needed, and whether a position can be solved.

Every bound here is proved in ``encodings/bounds.md``; the searches (:mod:`kamicp.search.astar`),
the exact models' driver and ``kamicp info`` rely on them, so each is a lower bound on the
optimum from the given position, never a guess.

- ``colours``: colours present minus one, plus one if a required final colour is absent
  (a move removes at most one colour);
- ``radius`` (any rules): a move contracts a star of the current region graph, which lowers
  its radius by at most one, so each piece needs at least its radius in moves;
- ``islands`` (free rules): pieces never interact, so per-piece bounds add up:
  ``min over the final colour f of sum over pieces of max(radius, colours other than f)``;
- ``walks`` (free rules): by Meeks and Scott's spanning-tree theorem, a piece needs at
  least the moves of the best walk between any two of its nodes, flooded as a path
  (:mod:`kamicp.bounds.walks`); computed once per puzzle, not at every search node;
- ``tripods`` (free rules): the same argument with the subtree joining three nodes
  (:mod:`kamicp.bounds.tripods`); at least ``walks``, one to three moves more on the deep KAMI 2
  levels, and costlier (O(n^4 / 64) word operations per level), so pieces above
  :data:`TRIPOD_NODES` regions keep their walk value;
- ``tetrapods`` (free rules): the same with four nodes (:mod:`kamicp.bounds.tetrapods`); at
  least ``tripods``, O(n^5 / 64) word operations per level, so it is computed only when
  asked (:func:`tetrapods_bound`: the solve driver asks it where the tripods are below a
  known solution) and on pieces of at most :data:`TETRAPOD_NODES` regions; once computed,
  :func:`bound_report` and :func:`lower_bound` include it;
- ``pivot_eccentricity`` and ``pivot_layers`` (pivot rules): the pivot's region grows by
  at most one step of distance per move, and every colour beyond distance ``d`` needs its
  own move after move ``d`` (the layered bound of Flood-It solvers; Clifford, Jalsenius,
  Montanaro and Sach, "The complexity of flood filling games", 2012, for the game).

The bounds work on :class:`Current`, the graph of the *current* regions of a position,
which the searches update move by move (:meth:`Current.play`) instead of rebuilding it.
The searches score a move without even playing it (:func:`islands_bound_after`,
:func:`pivot_layer_bound` with ``colour``): the new radius comes from the old position's
balls (lemma 2 of ``encodings/bounds.md``), so a child costs O(radius) bitset operations
per candidate centre instead of O(radius * edges).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from kamicp.bounds import leaves
from kamicp.bounds.anchored import anchored_values
from kamicp.bounds.tetrapods import tetrapod_values
from kamicp.bounds.tripods import forget_kept_levels, full_colours, kept_levels, tripod_values
from kamicp.bounds.walks import (
    cheapest_final,
    first_full,
    least_full,
    least_walk_value,
    walk_bound,
    walk_values,
)
from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Position, start

UNSOLVABLE = 10**9  # the lower bound of a position that no sequence of moves solves
# Pieces with more regions keep their walk value instead of the tripod value: the tripod
# levels cost O(n^4 / 64) word operations and O(n^3) bits each (11.6 s for all the levels of
# Threegrid5's 173 regions).
TRIPOD_NODES = 200
# Nor pieces whose tripod levels would need more than this many bytes, counted to the walk
# value + 2 levels (a row of 164 cells of 25 colours: 120 levels, 2.0 GB counted, 4.2 GB
# and 55 s taken before this limit; the KAMI 2 levels need at most 32 MB).
TRIPOD_BYTES = 1024**3
# Pieces with more regions are left out of the tetrapod bound: O(n^4) bits a level and colour
# (Threegrid4, 111 regions, 12 levels: 28 s and 1.6 GB; 173 regions would need about 9 GB).
TETRAPOD_NODES = 120
# Nor where its levels would need more than this many bytes ((levels) x k x n^3 words of 64
# bits; Bud5's 17 levels: 0.65 GB, Threegrid4's 13: 1.4 GB); the levels are counted to the
# cap, or to the tripod value + 2 without one.
TETRAPOD_BYTES = 2 * 1024**3
# A capped tetrapod check tries the piece peeled of its central leaves first only when that
# is expected to cost at most this share of the check on the piece it would spare (a miss
# there ends the check, since session 39): Bud6's children 67 -> 54-58 regions, 0.29 by
# :func:`_level_cost`, 0.64x measured against the trim to 64; Threegrid4's 111 -> 108
# would be 0.92.
PEEL_SAVING = 0.8
# IDA*'s checks (``peel``) do not go on to the whole piece after a trim that missed when the
# trim dropped at most this many leaves: the whole piece, those few leaves more, never cut
# there: on Bud2-6 on one process (children of 66-67 regions trimmed to 64), the whole piece
# after a peel or trim that missed cut 0 times in 19, 15.1 s of Bud6's 109.1 s. Side by side
# with 0 (the whole piece always): Bud6 102.6 s against 107.9 s, Bud3 19.8 s against 20.0 s
# (BENCHMARKS.md, "Checks below a miss").
NEAR_WHOLE = 3
ANCHORED = True  # IDA*'s tetrapod checks try the anchored bound first


class Current:
    """The current region graph of a position: one node per current region.

    A node is named by a *representative*, one starting region inside it, so a move on node
    ``v`` is the rules engine's move ``(v, colour)``. ``pos`` is the position (colour of
    every starting region, as bytes), so ``pos[v]`` is node ``v``'s colour; ``adj[v]``
    (frozenset of nodes) and ``members[v]`` (its starting regions) are dicts over the
    nodes. ``islands[i]`` lists the nodes of the board's i-th piece (pieces in the order
    of ``g.islands``); pieces never merge. ``pivot`` is the node holding the pivot region.

    Immutable in use: :meth:`play` returns a new object sharing what did not change. Per
    piece it caches the radius, the balls behind it (:class:`Balls`), and for a position
    reached by a merging move the previous position and the merged star, from which the
    new radius is found cheaply (:func:`piece_radius`).
    """

    __slots__ = (
        "k",
        "pos",
        "adj",
        "members",
        "islands",
        "island_of",
        "pivot",
        "radii",
        "balls",
        "origin",
        "counts",
    )

    def __init__(
        self, k, pos, adj, members, islands, island_of, pivot, radii, balls, origin, counts=None
    ):
        self.k = k
        self.pos = pos
        self.adj = adj
        self.members = members
        self.islands = islands
        self.island_of = island_of
        self.pivot = pivot
        self.radii = radii  # per piece: its radius, or None when not computed yet
        self.balls = balls  # per piece: its Balls, or None
        self.origin = origin  # per piece: (previous Current, merged star) or None
        # per piece: {colour: number of nodes}, or None when not computed yet
        self.counts = [None] * len(islands) if counts is None else counts

    def merged(self, v: int, colour: int) -> list[int]:
        """The nodes that recolouring ``v`` to ``colour`` merges into it (neighbours)."""
        pos = self.pos
        return [u for u in self.adj[v] if pos[u] == colour]

    def pos_after(self, v: int, colour: int) -> bytes:
        """The position after recolouring node ``v`` to ``colour``. O(n)."""
        pos = bytearray(self.pos)
        for r in self.members[v]:
            pos[r] = colour
        return bytes(pos)

    def play(self, v: int, colour: int) -> Current:
        """The current region graph after recolouring node ``v`` to ``colour``.

        The merged node keeps the name ``v``. O(n + N + degrees of the merged nodes) for n
        starting regions and N current ones: the position and the node dicts are copied,
        only touched entries are replaced.
        """
        gone = self.merged(v, colour)
        pos = self.pos_after(v, colour)
        i = self.island_of[v]
        counts = list(self.counts)
        if counts[i] is not None:  # v leaves its colour; v and the merged nodes become one
            here = counts[i] = dict(counts[i])
            old_colour = self.pos[v]
            here[old_colour] -= 1
            if not here[old_colour]:
                del here[old_colour]  # only colours present are keys
            here[colour] = here.get(colour, 0) + 1 - len(gone)
        if not gone:  # the same graph, recoloured: share it and its caches
            return Current(
                self.k,
                pos,
                self.adj,
                self.members,
                self.islands,
                self.island_of,
                self.pivot,
                self.radii,
                self.balls,
                self.origin,
                counts,
            )
        old = self.adj
        adj = dict(old)
        members = dict(self.members)
        gone_set = frozenset(gone)
        around = set(old[v])
        together = list(self.members[v])
        for u in gone:
            around |= old[u]
            together.extend(self.members[u])
            del adj[u]
            del members[u]
        around -= gone_set
        around.discard(v)
        adj[v] = frozenset(around)
        members[v] = tuple(together)
        for w in around:
            if not gone_set.isdisjoint(old[w]):
                adj[w] = (old[w] - gone_set) | {v}
        islands = list(self.islands)
        islands[i] = tuple([u for u in self.islands[i] if u not in gone_set])
        radii = list(self.radii)
        radii[i] = None
        balls = list(self.balls)
        balls[i] = None
        origin = list(self.origin)
        origin[i] = (self, (v, *gone))
        pivot = v if self.pivot in gone_set else self.pivot
        return Current(
            self.k,
            pos,
            adj,
            members,
            tuple(islands),
            self.island_of,
            pivot,
            radii,
            balls,
            origin,
            counts,
        )

    def nodes(self) -> list[int]:
        """All current nodes."""
        return [v for piece in self.islands for v in piece]

    def piece_colours(self, i: int) -> set[int]:
        """Colours present in piece ``i``."""
        return set(self.colour_counts(i))

    def colour_counts(self, i: int) -> dict[int, int]:
        """How many nodes of each colour piece ``i`` has (cached). O(N)."""
        if self.counts[i] is None:
            counts: dict[int, int] = {}
            pos = self.pos
            for v in self.islands[i]:
                counts[pos[v]] = counts.get(pos[v], 0) + 1
            self.counts[i] = counts
        return self.counts[i]

    def is_solved(self, final_colour: int | None = None) -> bool:
        """One colour everywhere (every piece one node, all of one colour)."""
        if any(len(piece) != 1 for piece in self.islands):
            return False
        first = self.pos[self.islands[0][0]]
        return final_colour in (None, first) and all(
            self.pos[piece[0]] == first for piece in self.islands
        )


def contract(g: RegionGraph, pos: Position | None = None) -> Current:
    """The current region graph of ``pos`` (default the start).

    Representatives are the smallest starting region of each current region.
    Complexity: O(n + m) for n starting regions and m edges between them.
    """
    pos = start(g) if pos is None else tuple(pos)
    n = g.n
    rep = [-1] * n
    members = {}
    for r in range(n):
        if rep[r] >= 0:
            continue
        rep[r] = r
        part, stack = [r], [r]
        while stack:
            x = stack.pop()
            for y in g.adj[x]:
                if rep[y] < 0 and pos[y] == pos[r]:
                    rep[y] = r
                    part.append(y)
                    stack.append(y)
        members[r] = tuple(sorted(part))
    adj = {
        r: frozenset(rep[y] for x in part for y in g.adj[x] if rep[y] != r)
        for r, part in members.items()
    }
    island_of = [0] * n
    islands = []
    for i, piece in enumerate(g.islands):
        for r in piece:
            island_of[r] = i
        islands.append(tuple(r for r in piece if rep[r] == r))
    count = len(islands)
    return Current(
        g.k,
        bytes(pos),
        adj,
        members,
        tuple(islands),
        island_of,
        rep[g.pivot],
        [None] * count,
        [None] * count,
        [None] * count,
    )


class Balls:
    """All balls of one piece, level by level: ``levels[d][v]`` is the bitset (bit u for
    node u) of the nodes within distance d of node v, for the piece's nodes v and
    d = 0..radius (entries of other nodes are meaningless). ``full`` is the piece's bitset;
    ``near`` lists the centres and their neighbours.

    Built from scratch (:meth:`grow`) or, after a merging move, from the previous
    position's balls (:meth:`after`), which is several times cheaper.
    """

    __slots__ = ("levels", "full", "near", "radius")

    def __init__(self, levels: list[list[int]], full: int, cur: Current, i: int):
        self.levels = levels
        self.full = full
        self.radius = len(levels) - 1
        top = levels[-1]
        centres = [v for v in cur.islands[i] if top[v] == full]
        self.near = sorted(set(centres).union(*(cur.adj[v] for v in centres)))

    @classmethod
    def grow(cls, cur: Current, i: int) -> Balls:
        """From scratch: ball_{d+1}(v) is the union of ball_d(u) over the closed
        neighbourhood of v. O(radius * (n + m)) bitset operations."""
        nodes = cur.islands[i]
        ball = [0] * len(cur.pos)
        full = 0
        for v in nodes:
            ball[v] = 1 << v
            full |= 1 << v
        around = [(v, tuple(cur.adj[v])) for v in nodes]
        levels = [ball]
        while full not in ball:
            grown = list(ball)
            for v, near in around:
                b = ball[v]
                for u in near:
                    b |= ball[u]
                grown[v] = b
            ball = grown
            levels.append(ball)
        return cls(levels, full, cur, i)

    @classmethod
    def after(
        cls, parent: Balls, star: tuple[int, ...], radius: int, cur: Current, i: int
    ) -> Balls:
        """The balls of ``cur``, reached from ``parent``'s position by contracting ``star``
        (centre first, the merged node keeps its name) into a piece of radius ``radius``.

        Lemma 2 of ``encodings/bounds.md``: for a node c at distance t from the star,
        ball'_d(c) = ball_d(c) when d < t, else ball_d(c) ∪ U_{d-t}, with U_j the union of
        the star's balls of radius j; ball'_d of the merged node is U_d (merged nodes then
        map to the centre). O(radius * n) bitset operations, against O(radius * (n + m))
        for :meth:`grow`.
        """
        old = parent.levels
        smask = 0
        for y in star:
            smask |= 1 << y
        keep = ~(smask ^ (1 << star[0]))
        unions = []
        for d in range(radius + 1):
            u = 0
            for y in star:
                u |= old[d][y]
            unions.append(u)
        reached: list[tuple[int, int]] = []  # (node, its distance to the star)
        levels = []
        for d in range(radius + 1):
            row = list(old[d])
            if d:
                ring = unions[d] & ~unions[d - 1]
                while ring:
                    low = ring & -ring
                    reached.append((low.bit_length() - 1, d))
                    ring ^= low
            for c, t in reached:
                row[c] = (row[c] | unions[d - t]) & keep
            row[star[0]] = unions[d] & keep
            levels.append(row)
        return cls(levels, parent.full & keep, cur, i)


def _balls(cur: Current, i: int) -> Balls:
    if cur.balls[i] is None:
        origin = cur.origin[i]
        if origin is not None and origin[0].balls[i] is not None:
            parent, star = origin
            radius = piece_radius(cur, i)
            cur.balls[i] = Balls.after(parent.balls[i], star, radius, cur, i)
        else:
            cur.balls[i] = Balls.grow(cur, i)
            cur.radii[i] = cur.balls[i].radius
        cur.origin[i] = None  # let the parent go
    return cur.balls[i]


def radius_after(parent: Current, i: int, star: tuple[int, ...]) -> int:
    """The radius of piece ``i`` after contracting ``star`` (centre first) in ``parent``.

    The new radius r' is r or r - 1 (r the old radius), and if it is r - 1 some new centre
    is the contracted node or a neighbour of an old centre (encodings/bounds.md, lemma 2).
    A node c's ball after the contraction is its old ball plus, if it reaches the star
    within t steps, the old balls of radius d - t around the star; so each candidate costs
    O(r) bitset operations with the parent's balls, instead of O(r * edges) from scratch.
    """
    b = _balls(parent, i)
    r = b.radius
    if len(parent.islands[i]) - len(star) + 1 == 1:
        return 0
    if r <= 1:
        return r  # more than one node left, and the radius never grows
    d = r - 1
    level = b.levels
    smask = 0
    for j in star:
        smask |= 1 << j
    unions: dict[int, int] = {}

    def union(j: int) -> int:  # nodes within j of the star, before contraction
        if j not in unions:
            u = 0
            for y in star:
                u |= level[j][y]
            unions[j] = u
        return unions[j]

    if union(d) == b.full:
        return d  # the contracted node itself
    for c in b.near:
        if (smask >> c) & 1:
            continue
        cover = level[d][c]
        for t in range(1, d + 1):
            if level[t][c] & smask:
                cover |= union(d - t)
                break
        if cover == b.full:
            return d
    return r


# --- the bounds ----------------------------------------------------------------------------


def radius_movers(cur: Current, i: int) -> set[int] | None:
    """The nodes of piece ``i`` whose moves can lower its radius (None: any may).

    From lemma 2 of ``encodings/bounds.md``: with r the radius and S ⊆ N[v] the star, the
    radius drops to r - 1 only if the contracted node is a new centre (then v is a centre:
    ecc(v) <= ecc'(s) + 1) or some c in ``Balls.near`` outside S gets ball_{r-1}(c) ∪
    ⋃_{y∈S} ball_{r-1-t}(y) = the piece, t = d(c, S) >= d(c, v) - 1; as each
    ball_{r-1-t}(y) lies in ball_{r+1-d(c,v)}(v), v must have
    ball_{r-1}(c) ∪ ball_{r+1-d(c,v)}(v) = the piece. Any other move keeps the radius, so
    the searches skip its radius computation. O(|near| * n) bitset operations.
    """
    b = _balls(cur, i)
    r = b.radius
    if r <= 1:
        return None
    level, full = b.levels, b.full
    good = 0
    top = level[r]
    for v in cur.islands[i]:
        if top[v] == full:
            good |= 1 << v  # the centres
    for c in b.near:
        # Balls are symmetric (v ∈ B_k(x) iff x ∈ B_k(v)), so the v at distance t from c
        # with B_{r+1-t}(v) ⊇ far are the ring's nodes inside every B_{r+1-t}(x), x far.
        far = full & ~level[r - 1][c]
        far_nodes = []
        while far:
            low = far & -far
            far_nodes.append(low.bit_length() - 1)
            far ^= low
        for t in range(1, r + 1):
            ring = level[t][c] & ~level[t - 1][c] & ~good
            wide = level[r + 1 - t]
            for x in far_nodes:
                ring &= wide[x]
                if not ring:
                    break
            good |= ring
    movers = set()
    while good:
        low = good & -good
        movers.add(low.bit_length() - 1)
        good ^= low
    return movers


def colour_bound(cur: Current, final_colour: int | None = None) -> int:
    """Colours present minus one, plus one when ``final_colour`` is required but absent.

    Proof: a move recolours one region from a to c; afterwards at most a has vanished, so
    the number of colours other than the final one drops by at most one per move. O(n).
    """
    present = {cur.pos[v] for v in cur.nodes()}
    if final_colour is None:
        return len(present) - 1
    return len(present - {final_colour})


def piece_radius(cur: Current, i: int) -> int:
    """The radius of piece ``i`` of the current region graph.

    From scratch, all balls grow together (:class:`Balls`): O(radius * (n + m)) bitset
    operations for the piece's n nodes and m edges. After a merging move, the parent's
    balls give the new radius in O(radius) operations per candidate centre
    (:func:`radius_after`). Cached on ``cur``.
    """
    known = cur.radii[i]
    if known is not None:
        return known
    if len(cur.islands[i]) == 1:
        cur.radii[i] = 0
        return 0
    origin = cur.origin[i]
    if origin is not None:
        parent, star = origin
        cur.radii[i] = radius_after(parent, i, star)
        return cur.radii[i]
    return _balls(cur, i).radius


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
    ``movers``, if given, is :func:`radius_movers` of ``v``'s piece: a move of any other
    node keeps the radius, so it is not recomputed.
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


def _pivot_final(cur: Current, final_colour: int | None) -> int | None:
    """The colour the pivot's piece must end in: the one asked for, or that of the other
    pieces (they cannot change under pivot rules), or None when free to choose."""
    if final_colour is not None:
        return final_colour
    home = cur.island_of[cur.pivot]
    others = {cur.pos[v] for i, piece in enumerate(cur.islands) if i != home for v in piece}
    return next(iter(others)) if len(others) == 1 else None


def pivot_layers(
    cur: Current, source: int | None = None, colour: int | None = None
) -> list[set[int]]:
    """Colours by distance from the pivot node (or ``source``): BFS layers. O(n + m).

    With ``colour``, the layers of the position after recolouring the source to
    ``colour``, without building it: distances from the merged node are distances from
    the merged star (a multi-source BFS), layer 0 has the new colour.
    """
    p = cur.pivot if source is None else source
    start = [p] if colour is None else [p, *cur.merged(p, colour)]
    seen = set(start)
    frontier = start
    layers = [{cur.pos[p] if colour is None else colour}]
    while True:
        nxt = []
        for v in frontier:
            for u in cur.adj[v]:
                if u not in seen:
                    seen.add(u)
                    nxt.append(u)
        if not nxt:
            return layers
        layers.append({cur.pos[u] for u in nxt})
        frontier = nxt


def pivot_eccentricity_bound(cur: Current, final_colour: int | None = None) -> int:
    """Pivot rules: the eccentricity of the pivot node, plus one when the pivot's piece is
    a single node of a colour other than the required final one.

    Proof: the pivot's region is the centre of the star every move contracts, and such a
    contraction lowers the centre's eccentricity by at most one. O(n + m).
    """
    ecc = len(pivot_layers(cur)) - 1
    final = _pivot_final(cur, final_colour)
    if ecc == 0:
        return int(final is not None and final != cur.pos[cur.pivot])
    return ecc


def pivot_layer_bound(
    cur: Current, final_colour: int | None = None, colour: int | None = None
) -> int:
    """Pivot rules: the largest d + |colours at distance > d from the pivot (with the final
    colour)| over 0 <= d < eccentricity.

    Proof: after j moves the pivot's region lies within distance j of where it started, so
    a region at distance > d joins it at move d + 1 or later; a region of colour c joins
    only by a move to c (other regions never change colour), so each colour beyond d needs
    its own move after move d, and so does the final colour (the last move sets it).
    With ``colour``: the bound after recolouring the pivot to ``colour`` (same value as on
    the played position, computed without building it). O(n + m).
    """
    layers = pivot_layers(cur, None, colour)
    final = _pivot_final(cur, final_colour)
    if len(layers) == 1:
        return int(final is not None and final not in layers[0])
    best = 0
    beyond: set[int] = set() if final is None else {final}
    for d in range(len(layers) - 2, -1, -1):  # colours at distance > d, growing as d falls
        beyond |= layers[d + 1]
        best = max(best, d + len(beyond))
    return best


def walks_bound(cur: Current, final_colour: int | None = None, cap: int | None = None) -> int:
    """Free rules: the islands bound with each piece's term raised to its walk value
    (:mod:`kamicp.bounds.walks`, Bound 5 of ``encodings/bounds.md``); at least the islands bound.

    O(t^2 k n^3) numpy work for bound t: meant for a puzzle's start, not every search node.
    """
    floors = _piece_floors(cur)
    return walk_bound(cur.pos, cur.adj, cur.islands, cur.k, final_colour, floors, cap)


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
    (:mod:`kamicp.bounds.tripods`, Bound 6 of ``encodings/bounds.md``), or to its walk value on
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
        values = _piece_tripods(_piece_key(cur, piece), deadline)
        per_piece.append([max(a, b) for a, b in zip(values, floor, strict=True)])
    return cheapest_final(per_piece, cur.k, final_colour)


def _piece_key(cur: Current, piece: list[int]) -> tuple:
    """A piece as (k, colours, edges in local numbering): the key of the bound caches."""
    local = {v: j for j, v in enumerate(piece)}
    return (
        cur.k,
        tuple(cur.pos[v] for v in piece),
        tuple((local[v], local[u]) for v in piece for u in cur.adj[v] if local[v] < local[u]),
    )


def _piece_lists(key: tuple) -> tuple[int, tuple[int, ...], list[list[int]]]:
    """A piece from its cache key (:func:`_piece_key`): k, colours, adjacency lists."""
    k, colours, edges = key
    adj: list[list[int]] = [[] for _ in colours]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    return k, colours, adj


def tetrapods_bound(
    cur: Current,
    final_colour: int | None = None,
    cap: int | None = None,
    deadline: float | None = None,
    cached_only: bool = False,
    peel: bool = False,
) -> int:
    """Free rules: :func:`tripods_bound` with each piece of at most :data:`TETRAPOD_NODES`
    regions raised to its tetrapod value (:mod:`kamicp.bounds.tetrapods`, Bound 7 of
    ``encodings/bounds.md``).

    O(t k n^5 / 64) word operations and O(t k n^4) bits for bound t: asked once, at a
    puzzle's start, and only where the levels fit in :data:`TETRAPOD_BYTES`. ``cap``:
    the levels stop there (a value above it counts as ``cap + 1``; enough to learn whether
    a known solution of ``cap + 1`` moves is optimal); ``deadline``: no level is started
    after it (the piece keeps the levels done). The values are cached per piece with the
    cap they were computed to; ``cached_only`` computes nothing and uses the tripod values
    where nothing is cached (so :func:`lower_bound` reuses what a solve computed).
    ``peel`` (with a cap): try a peeled piece first (:func:`_trimmed_tetrapods`), for
    callers that expect most answers to be "above the cap" (IDA*'s checks); a start bound,
    usually within its cap, would pay for the peeled piece and then the whole one.
    """
    per_piece = []
    for piece, floor in zip(cur.islands, _piece_floors(cur), strict=True):
        key = _piece_key(cur, piece)
        if peel and cap is not None:  # a check: its tripod levels, kept, serve what follows
            values = first_full(full_colours(_kept(key, cap, deadline), len(piece)), cur.k, True)
        else:
            values = list(_piece_tripods(key, deadline))
        levels = 1 + (max(values) + 1 if cap is None else cap)
        words = (len(piece) + 63) // 64
        if len(piece) <= TETRAPOD_NODES and levels * cur.k * len(piece) ** 3 * words * 8 <= (
            TETRAPOD_BYTES
        ):
            quads = _piece_tetrapods(key, cap, deadline, cached_only, peel, piece)
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
    levels = _kept(_piece_key(cur, piece), cap, deadline)
    return least_full(full_colours(levels, len(piece)), finals, True)


def _kept(key: tuple, cap: int, deadline: float | None):
    """The tripod levels 0..``cap`` of the piece ``key`` (``tripods.kept_levels``)."""
    k, colours, adj = _piece_lists(key)
    return kept_levels(key, colours, adj, range(len(colours)), k, cap, deadline)


_TETRAPODS: dict[tuple, tuple[tuple[int, ...], int | None]] = {}  # piece -> (values, cap)


def _piece_tetrapods(
    key: tuple,
    cap: int | None,
    deadline: float | None,
    cached_only: bool,
    peel: bool = False,
    piece: Sequence[int] | None = None,
) -> tuple[int, ...] | None:
    """Tetrapod values of one piece (see :func:`tetrapods_bound`); None when not cached and
    ``cached_only``. A cached entry serves any cap up to the one it was computed to (and
    any cap if none of its values reached that cap)."""
    if key in _TETRAPODS:
        values, done = _TETRAPODS[key]
        if cached_only or done is None or (cap is not None and cap <= done) or max(values) <= done:
            return values
    if cached_only:
        return None
    k, colours, adj = _piece_lists(key)
    values = None
    if peel and cap is not None and ANCHORED:
        # the anchored bound first (Bound 8): about a fifth of the cost, most of the cuts;
        # all above the cap, its values are the capped tetrapod values
        values = _anchored_first(colours, adj, k, cap, piece, _kept(key, cap, deadline))
        values = values if min(values) > cap else None
    if values is None:
        values, enough = _trimmed_tetrapods(colours, adj, k, cap, deadline, peel)
        if values is None or (min(values) <= cap and not enough):
            # a check's tripod levels are kept (the trims' levels pass them by: one piece)
            tripods = _kept(key, cap, deadline) if peel and cap is not None else None
            nodes = range(len(colours))
            whole = tetrapod_values(colours, adj, nodes, k, cap, deadline, tripods)
            values = tuple(max(a, b) for a, b in zip(whole, values or whole, strict=True))
    if deadline is not None and time.monotonic() >= deadline:
        cap = max(values) - 1  # maybe stopped early: good up to the levels done
    if len(_TETRAPODS) >= _TRIPODS_KEPT:
        _TETRAPODS.clear()
    if key in _TETRAPODS:  # both are lower bounds, each exact up to its cap
        old, done = _TETRAPODS[key]
        values = tuple(max(a, b) for a, b in zip(values, old, strict=True))
        cap = None if cap is None or done is None else max(cap, done)
    _TETRAPODS[key] = (values, cap)
    return values


_HELPFUL: dict[tuple[int, int], int] = {}  # anchor pairs (region ids) -> cuts they helped
HINTS = 4  # of those, tried first in a check on a piece holding both regions


def _anchored_first(
    colours: tuple[int, ...],
    adj: list[list[int]],
    k: int,
    cap: int,
    piece: Sequence[int] | None,
    tripod_levels=None,
) -> tuple[int, ...]:
    """The anchored tetrapod values (Bound 8) of a piece, capped at ``cap``. The anchor
    pairs that helped earlier cuts are tried first where both regions are still the names
    of current regions (``piece``: the piece's current region ids, which name the same
    start regions from state to state): the states of one search share their hard ends,
    and a cut then needs 2-3 pairs, not about 10. The order decides only which lower bound
    is computed."""
    local = {} if piece is None else {v: j for j, v in enumerate(piece)}
    ranked = sorted(_HELPFUL, key=lambda p: -_HELPFUL[p])
    known = [p for p in ranked if p[0] in local and p[1] in local]
    first = [(local[a], local[b]) for a, b in known[:HINTS]]
    helped: list[tuple[int, int]] = []
    nodes = range(len(colours))
    values = anchored_values(
        colours, adj, nodes, k, cap, first=first, helped=helped, tripod_levels=tripod_levels
    )
    if piece is not None:
        for a, b in helped:
            pair = (min(piece[a], piece[b]), max(piece[a], piece[b]))
            _HELPFUL[pair] = _HELPFUL.get(pair, 0) + 1
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
    after the peeled piece (on Bud6, session 39, the trim and the whole piece after a
    peeled piece that missed cut 1 state in 16 computations, 14.3 s of 99 s), or after a
    trim that dropped at most :data:`NEAR_WHOLE` leaves (none of 19 cut on Bud2-6, session
    38). A start bound (no ``peel``) goes on to the whole piece."""
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


_TRIPODS: dict[tuple, tuple[int, ...]] = {}  # piece (k, colours, edges) -> its values
_TRIPODS_KEPT = 64  # pieces remembered before the cache is emptied


def forget_cached_bounds() -> None:
    """Empty the cache of :func:`tripods_bound` (a benchmark does, so that each solver run
    pays for its own start bound)."""
    _TRIPODS.clear()
    _TETRAPODS.clear()
    _HELPFUL.clear()
    forget_kept_levels()


def _piece_tripods(key: tuple, deadline: float | None) -> tuple[int, ...]:
    """Tripod values of one piece given as (k, colours, edges in local numbering), at
    least its walk values (alone above :data:`TRIPOD_NODES` nodes, or where the levels
    would need more than :data:`TRIPOD_BYTES`); cached, see :func:`tripods_bound`."""
    if key in _TRIPODS:
        return _TRIPODS[key]
    k, colours, adj = _piece_lists(key)
    n = len(colours)
    walks = walk_values(colours, adj, range(n), k)
    if n > TRIPOD_NODES or _tripod_bytes(n, k, max(walks)) > TRIPOD_BYTES:
        values = walks
    else:
        values = tripod_values(colours, adj, range(n), k, deadline=deadline)
        if deadline is not None and time.monotonic() >= deadline:
            # maybe stopped early, below the walk values (complete tripod values include them)
            values = [max(a, b) for a, b in zip(values, walks, strict=True)]
    if len(_TRIPODS) >= _TRIPODS_KEPT:
        _TRIPODS.clear()
    _TRIPODS[key] = tuple(values)
    return _TRIPODS[key]


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


def estimate(cur: Current, rules: str, final_colour: int | None = None) -> int:
    """The bound the searches use at every node: the best that applies to ``rules``.

    Free rules: the islands bound (it includes the colour and radius bounds). Pivot rules:
    the layer bound (it includes the eccentricity and colour bounds).
    """
    if rules == "pivot":
        return pivot_layer_bound(cur, final_colour)
    return islands_bound(cur, final_colour)


# --- public entry points on (g, pos) ---------------------------------------------------


def solvable(g: RegionGraph, pos: Position | None = None, final_colour: int | None = None) -> bool:
    """Can any sequence of moves solve ``pos`` (ending in ``final_colour`` if given)?

    Free rules: always (flood each piece, then recolour it). Pivot rules: the other pieces
    can never change, so they must already be one colour each, all the same, and equal to
    ``final_colour`` if given; the pivot's piece can then be flooded and recoloured.
    """
    if final_colour is not None and not 0 <= final_colour < g.k:
        return False
    if g.rules != "pivot":
        return True
    pos = start(g) if pos is None else pos
    home = next(i for i, piece in enumerate(g.islands) if g.pivot in piece)
    others = {pos[r] for i, piece in enumerate(g.islands) if i != home for r in piece}
    if final_colour is not None:
        others.add(final_colour)
    return len(others) <= 1


def bound_report(
    g: RegionGraph,
    pos: Position | None = None,
    final_colour: int | None = None,
    walks: bool = True,
    deadline: float | None = None,
) -> dict[str, int]:
    """Every bound that applies to the rules, by name (for ``kamicp info``).

    ``walks=False`` leaves out the walk and tripod bounds, the costly ones (for searches
    that ask at every node); ``deadline`` limits the tripod levels (:func:`tripods_bound`).

    ``unsolvable`` is added (with :data:`UNSOLVABLE`) when no sequence of moves solves it.
    """
    cur = contract(g, pos)
    report = {
        "colours": colour_bound(cur, final_colour),
        "radius": radius_bound(cur),
    }
    if g.rules == "pivot":
        report["pivot_eccentricity"] = pivot_eccentricity_bound(cur, final_colour)
        report["pivot_layers"] = pivot_layer_bound(cur, final_colour)
    else:
        report["islands"] = islands_bound(cur, final_colour)
        if walks:
            report["walks"] = walks_bound(cur, final_colour)
            report["tripods"] = tripods_bound(cur, final_colour, deadline)
            if any(_piece_key(cur, p) in _TETRAPODS for p in cur.islands):
                report["tetrapods"] = tetrapods_bound(cur, final_colour, cached_only=True)
    if not solvable(g, pos, final_colour):
        report["unsolvable"] = UNSOLVABLE
    return report


def lower_bound(
    g: RegionGraph,
    pos: Position | None = None,
    final_colour: int | None = None,
    walks: bool = True,
    deadline: float | None = None,
) -> int:
    """The best admissible lower bound on the moves still needed from ``pos``.

    :data:`UNSOLVABLE` when no sequence of moves solves the position (see :func:`solvable`).
    ``walks=False``: without the walk and tripod bounds (cheaper, for use at every search
    node).
    """
    return max(bound_report(g, pos, final_colour, walks, deadline).values())
