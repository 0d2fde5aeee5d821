"""The position under search: the graph of its current regions, updated move by move.

A bound reads a :class:`Current`, built once from a position (:func:`contract`) and then
played forward (:meth:`Current.play`) by the searches instead of being rebuilt, sharing
what a move leaves unchanged.
"""

from __future__ import annotations

from kamicp.game.regions import RegionGraph
from kamicp.game.rules import Position, start

__all__ = ["Current", "contract"]


class Current:
    """The current region graph of a position: one node per current region.

    A node is named by a *representative*, one starting region inside it, so a move on node
    ``v`` is the rules engine's move ``(v, colour)``. ``pos`` is the position (colour of
    every starting region, as bytes), so ``pos[v]`` is node ``v``'s colour; ``adj[v]``
    (frozenset of nodes) and ``members[v]`` (its starting regions) are dicts over the
    nodes. ``islands[i]`` lists the nodes of the board's i-th piece (pieces in the order
    of ``g.islands``); pieces never merge. ``pivot`` is the node holding the pivot region.

    Immutable in use: :meth:`play` returns a new object sharing what did not change. Per
    piece it caches the radius, the balls behind it (:class:`~kamicp.bounds.radius.Balls`), and
    for a position reached by a merging move the previous position and the merged star, from
    which the new radius is found cheaply (:func:`~kamicp.bounds.radius.piece_radius`).
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
