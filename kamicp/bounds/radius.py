"""The radius of a piece, from its balls, and how a move changes it.

A move contracts a star of the current region graph, which lowers a piece's radius by at
most one, so a piece needs at least its radius in moves. The searches ask the radius at
every node: :class:`Balls` holds every ball of a piece level by level, and after a merging
move the new balls and radius come from the old ones (lemma 2 of ``encodings/bounds.md``)
at O(radius) bitset operations per candidate centre instead of O(radius * edges).
"""

from __future__ import annotations

from kamicp.bounds.position import Current

__all__ = [
    "BALL_NODES",
    "Balls",
    "piece_balls",
    "piece_radius",
    "radius_after",
    "radius_movers",
    "swept_radius",
]

# Pieces above this many nodes get a lower bound on their radius from breadth-first sweeps
# (:func:`swept_radius`) instead of their balls, which take radius * n^2 bits (BENCHMARKS.md,
# "Big boards": 116 MB on 5,226 regions, hundreds of GB on a 500x500 board); the sweeps
# there give the exact radius or up to two below it (33 for 34 on 5,226 regions).
BALL_NODES = 6000
SWEEPS = 4  # breadth-first sweeps of swept_radius: each O(n + m)


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


def piece_balls(cur: Current, i: int) -> Balls:
    """The balls of piece ``i`` of ``cur`` (cached on ``cur``).

    Parameters
    ----------
    cur : Current
        The position.
    i : int
        The piece's index in ``cur.islands``.

    Returns
    -------
    Balls
        From the parent position's balls after a merging move (:meth:`Balls.after`), else
        from scratch (:meth:`Balls.grow`).

    Examples
    --------
    >>> from kamicp.bounds.position import contract
    >>> from kamicp.game.regions import from_edges
    >>> balls = piece_balls(contract(from_edges([0, 1, 0], [(0, 1), (1, 2)])), 0)
    >>> balls.radius, balls.levels[1][0] == 0b011
    (1, True)
    """
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
    if len(parent.islands[i]) > BALL_NODES:  # no balls: a move lowers the radius by <= 1
        return max(0, piece_radius(parent, i) - 1)
    b = piece_balls(parent, i)
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


def radius_movers(cur: Current, i: int) -> set[int] | None:
    """The nodes of piece ``i`` whose moves can lower its radius (None: any may).

    From lemma 2 of ``encodings/bounds.md``: with r the radius and S ⊆ N[v] the star, the
    radius drops to r - 1 only if the contracted node is a new centre (then v is a centre:
    ecc(v) <= ecc'(s) + 1) or some c in ``Balls.near`` outside S gets ball_{r-1}(c) ∪
    ⋃_{y∈S} ball_{r-1-t}(y) = the piece, t = d(c, S) >= d(c, v) - 1; as each
    ball_{r-1-t}(y) lies in ball_{r+1-d(c,v)}(v), v must have
    ball_{r-1}(c) ∪ ball_{r+1-d(c,v)}(v) = the piece. Any other move keeps the radius, so
    the searches skip its radius computation. O(|near| * n) bitset operations. None above
    :data:`BALL_NODES` nodes, which have no balls.
    """
    if len(cur.islands[i]) > BALL_NODES:
        return None
    b = piece_balls(cur, i)
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


def piece_radius(cur: Current, i: int) -> int:
    """The radius of piece ``i`` of the current region graph.

    From scratch, all balls grow together (:class:`Balls`): O(radius * (n + m)) bitset
    operations for the piece's n nodes and m edges. After a merging move, the parent's
    balls give the new radius in O(radius) operations per candidate centre
    (:func:`radius_after`). Above :data:`BALL_NODES` nodes, a lower bound on it
    (:func:`swept_radius`; every bound built on the radius stays admissible). Cached on
    ``cur``.
    """
    known = cur.radii[i]
    if known is not None:
        return known
    if len(cur.islands[i]) == 1:
        cur.radii[i] = 0
        return 0
    if len(cur.islands[i]) > BALL_NODES:
        cur.radii[i] = swept_radius(cur, i)
        return cur.radii[i]
    origin = cur.origin[i]
    if origin is not None:
        parent, star = origin
        cur.radii[i] = radius_after(parent, i, star)
        return cur.radii[i]
    return piece_balls(cur, i).radius


def swept_radius(cur: Current, i: int) -> int:
    """A lower bound on the radius of piece ``i``: half the largest eccentricity found by
    :data:`SWEEPS` breadth-first sweeps, each from the farthest node of the one before (a
    node of eccentricity e proves a diameter of at least e, and radius >= diameter / 2).
    O(SWEEPS * (n + m)).

    Examples
    --------
    >>> from kamicp.bounds.position import contract
    >>> from kamicp.game.regions import from_edges
    >>> swept_radius(contract(from_edges([0, 1, 0, 1, 0], [(j, j + 1) for j in range(4)])), 0)
    2
    """
    v = cur.islands[i][0]
    longest = 0
    for _ in range(SWEEPS):
        depth = {v: 0}
        frontier = [v]
        while frontier:
            nxt = []
            for w in frontier:
                for u in cur.adj[w]:
                    if u not in depth:
                        depth[u] = depth[w] + 1
                        nxt.append(u)
            if nxt:
                frontier = nxt
            else:
                break
        v = frontier[0]
        longest = max(longest, depth[v])
    return (longest + 1) // 2
